/** The editor's calls to its own service: previews, downloads and usage, with the signed-in key. */

export interface PreviewPage {
  hash: string;
  width: number;
  height: number;
  /** Base64 PNG, or null when the page's hash was among the known ones. */
  png: string | null;
  /** When the PNG is only a band of the page (points from its top), to lay over the picture of page `base`. */
  band: { base: string; top: number; height: number } | null;
  /** The page's text lines and their baselines in points (null with the PNG). */
  lines: { y: number; text: string }[] | null;
}

export interface PreviewAnswer {
  pages: PreviewPage[];
  warnings: string[];
  previews_left: number;
  previews_per_hour: number;
}

/** The service's error body (docs/api.md "Errors"), with the status and Retry-After. */
export class ServiceProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly retryAfterSeconds: number | null,
    readonly details: Record<string, unknown>,
  ) {
    super(message);
  }
}

export interface RenderInput {
  markdown: string;
  features: Record<string, boolean | string>;
}

export interface PagesShown {
  /** Hashes of the pages there are pictures of. */
  known: string[];
  /** The hash of the picture shown as each page (null: none to draw over). */
  shown: (string | null)[];
  /** The page to draw around. */
  focus: number;
}

export async function fetchPreview(key: string, input: RenderInput, pages: PagesShown): Promise<PreviewAnswer> {
  const response = await postWaitingForSlot('/editor/preview', {
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ ...input, known_pages: pages.known, shown_pages: pages.shown, focus_page: pages.focus }),
  });
  if (!response.ok) throw await problem(response);
  return (await response.json()) as PreviewAnswer;
}

export async function fetchPdf(
  key: string,
  input: RenderInput,
  idempotencyKey: string,
  filename: string,
): Promise<{ pdf: Blob; replay: boolean; pages: number }> {
  const response = await postWaitingForSlot('/editor/download', {
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', 'Idempotency-Key': idempotencyKey },
    body: JSON.stringify({ ...input, filename }),
  });
  if (!response.ok) throw await problem(response);
  return { pdf: await response.blob(), replay: response.headers.get('x-service-replay') === 'true', pages: Number(response.headers.get('x-service-pages')) };
}

/** How often a request refused for the account's concurrency alone is sent again. */
const SLOT_TRIES = 5;

/**
 * A preview and a download each hold one of the account's concurrent renders: one refused only
 * because the other is running (429 naming `concurrency`) is sent again once the service says a
 * slot may be free, a few times, before the refusal is shown.
 */
async function postWaitingForSlot(path: string, init: { headers: Record<string, string>; body: string }): Promise<Response> {
  for (let tries = 1; ; tries++) {
    const response = await fetch(path, { method: 'POST', ...init });
    if (response.status !== 429 || tries === SLOT_TRIES) return response;
    const refusal = await problem(response.clone());
    if ((refusal.details.limit as { name?: string } | undefined)?.name !== 'concurrency') return response;
    await new Promise((resolve) => setTimeout(resolve, (refusal.retryAfterSeconds ?? 1) * 1000));
  }
}

/** Checks a key by reading usage: 200 for a live key. */
export async function fetchUsage(
  key: string,
): Promise<{ limits: { previews_per_hour: number }; credits_used: number; credits_included: number; credits_granted: number }> {
  const response = await fetch('/v1/usage', { headers: { Authorization: `Bearer ${key}` } });
  if (!response.ok) throw await problem(response);
  return (await response.json()) as Awaited<ReturnType<typeof fetchUsage>>;
}

async function problem(response: Response): Promise<ServiceProblem> {
  const retry = response.headers.get('retry-after');
  let body: Record<string, unknown> = {};
  try {
    body = (await response.json()) as Record<string, unknown>;
  } catch {
    // Not the service's JSON (a proxy's page): the status says enough.
  }
  const code = typeof body.code === 'string' ? body.code : 'internal_error';
  const message = typeof body.error === 'string' ? body.error : `The service answered ${response.status}.`;
  return new ServiceProblem(response.status, code, message, retry === null ? null : Number(retry), body);
}
