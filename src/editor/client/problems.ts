/**
 * What went wrong, in plain words with the API's code, and where in the source: a refusal from
 * the service, or a warning the engine drew around (a missing image drawn as a placeholder).
 */
import type { ServiceProblem } from './api.js';
import { settingLine } from './front-matter.js';

export interface Problem {
  code: string;
  /** Plain words for a person. */
  message: string;
  /** 1-based source line, or null when the whole document is concerned. */
  line: number | null;
  severity: 'error' | 'warning';
}

const PLAIN: Readonly<Record<string, string>> = {
  unauthorized: 'This API key is not valid (or was revoked). Sign in again with a live key.',
  account_blocked: 'This account is blocked.',
  email_unverified: "This account's email address is not verified yet.",
  quota_exhausted: 'No documents are left in this period, so the PDF cannot be downloaded. Previews still work.',
  payload_too_large: 'The document is larger than this plan allows.',
  too_many_resources: 'The document has more images than allowed.',
  too_many_pages: 'The document has more pages than this plan allows.',
  render_timeout: 'The document took longer to lay out than this plan allows.',
  queue_full: 'The service is busy; trying again shortly.',
  render_unavailable: 'The service cannot render right now.',
  quota_unavailable: 'Usage cannot be counted right now; nothing was counted. Try again shortly.',
  idempotency_in_progress: 'This download is still being prepared.',
  empty_document: 'The document is empty.',
};

export function problemFromService(error: ServiceProblem, source: string): Problem {
  if (error.code === 'rate_limited') {
    const limit = (error.details.limit as { name?: string; value?: number } | undefined) ?? {};
    const wait = error.retryAfterSeconds ?? 60;
    const message =
      limit.name === 'previews_per_hour'
        ? `All ${limit.value} previews of this hour are used; the next one is free in ${humanWait(wait)}. Downloads still work.`
        : `Too many requests (${limit.name} = ${limit.value}); try again in ${humanWait(wait)}.`;
    return { code: error.code, message, line: null, severity: 'error' };
  }
  if (error.code === 'render_failed' && /front matter/.test(error.message)) return frontMatterProblem(error, source);
  const plain = PLAIN[error.code];
  return { code: error.code, message: plain ? `${plain} (${error.message})` : error.message, line: null, severity: 'error' };
}

/** `front matter, line 3: …` names its line; `front matter: theme must be …` names its key. */
function frontMatterProblem(error: ServiceProblem, source: string): Problem {
  const detail = error.message.replace(/^The document could not be rendered: /, '').replace(/\.$/, '');
  const numbered = /front matter, line (\d+)/.exec(detail);
  const key = /front matter: (\w+) /.exec(detail)?.[1];
  const line = numbered ? Number(numbered[1]) : ((key === undefined ? null : settingLine(source, key)) ?? 1);
  return {
    code: error.code,
    message: `The front matter has a problem: ${detail.replace(/^front matter(, line \d+(, column \d+)?)?: /, '')}.`,
    line,
    severity: 'error',
  };
}

/**
 * Engine warnings: `image 2 (…) could not be loaded: …` points at the second image written (the
 * download, in strict mode, would be refused with `resource_fetch_failed`); a formula or diagram
 * not drawn (`…; its source begins "…"`) at the line its source begins on — the PDF shows that
 * source with a note; a front matter key Quire does not read (`front matter, line 3: …`) at its line.
 */
export function problemsFromWarnings(warnings: readonly string[], source: string): Problem[] {
  return warnings.map((warning) => {
    const image = /^image (\d+) /.exec(warning);
    const drawing = /^(.*); its source begins "(.*)"$/.exec(warning);
    const frontMatter = /^front matter, line (\d+): /.exec(warning);
    const text = frontMatter ? `front matter: ${warning.slice(frontMatter[0].length)}` : warning;
    const message = (drawing ? drawing[1]! : text).replace(/^./, (first) => first.toUpperCase());
    return {
      code: image ? 'resource_fetch_failed' : 'warning',
      message: drawing ? `${message}. The PDF shows its source with this note.` : `${message}.`,
      line: image
        ? imageLine(source, Number(image[1]))
        : drawing
          ? textLine(source, drawing[2]!.replace(/…$/, ''))
          : frontMatter
            ? Number(frontMatter[1])
            : null,
      severity: 'warning',
    };
  });
}

/** The line where `text` first appears, or null. */
function textLine(source: string, text: string): number | null {
  const at = source.indexOf(text);
  return at < 0 ? null : source.slice(0, at).split('\n').length;
}

/** The line of the n-th image reference (1-based), or null. */
function imageLine(source: string, n: number): number | null {
  const pattern = /!\[[^\]]*\]\(|<img\b/g;
  let match: RegExpExecArray | null;
  let seen = 0;
  while ((match = pattern.exec(source))) {
    seen += 1;
    if (seen === n) return source.slice(0, match.index).split('\n').length;
  }
  return null;
}

function humanWait(seconds: number): string {
  if (seconds < 90) return `${seconds} s`;
  return `${Math.ceil(seconds / 60)} min`;
}
