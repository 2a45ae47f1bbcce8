/**
 * The remote images a document links, counted on the text as sent — before anything is reserved
 * (SPEC "What a refusal costs": linked resources are counted on the document as sent). A
 * textual scan, linear in the length, run on the service's event loop: inline images `![…](url)`,
 * reference images `![…][label]` / `![label]` with their definitions, and HTML `<img src>`.
 * Fenced code and code spans are skipped. The loader's own count stays the authority; this one only lets a
 * document that plainly links too many be refused for free.
 */

const REMOTE = /^https?:\/\//i;
const MAX_LABEL = 999;
const DEFINITION = /^ {0,3}\[([^\]\n]{1,999})\]:[ \t]*\n?[ \t]*<?(https?:\/\/[^\s>]+)/gim;
const HTML_IMAGE = /<img\b[^<>]*?\bsrc\s*=\s*["']?\s*(https?:\/\/[^"'\s<>]+)/gi;
const FENCE_LINE = /^ {0,3}(`{3,}|~{3,})([^\n]*)$/gm;

export interface ScanOptions {
  /** HTML blocks are rendered, so their `<img>` load too. */
  html: boolean;
}

/** Distinct http(s) URLs used as images (normalised as the loader will request them). */
export function remoteImageUrls(markdown: string, options: ScanOptions): Set<string> {
  const prose = withoutCodeSpans(withoutFencedCode(markdown));
  const found = new Set<string>();
  const add = (url: string) => found.add(url);

  const definitions = new Map<string, string>();
  for (const match of prose.matchAll(DEFINITION)) {
    const label = normalizeLabel(match[1]!);
    if (!definitions.has(label)) definitions.set(label, match[2]!);
  }
  for (const url of markdownImages(prose, definitions)) add(url);
  if (options.html) for (const match of prose.matchAll(HTML_IMAGE)) add(match[1]!);
  return new Set([...found].map((url) => (URL.canParse(url) ? withoutFragment(new URL(url)) : url)));
}

/** One pass over brackets: each `]` closing an `![` is an image; what follows it says where it points. */
function* markdownImages(text: string, definitions: Map<string, string>): Generator<string> {
  /** Open brackets' positions; an image's `![` is stored as -(position + 1). Plain numbers keep the stack cheap. */
  const open: number[] = [];
  const interesting = /[[\]\\]/g;
  for (let match = interesting.exec(text); match; match = interesting.exec(text)) {
    const i = match.index;
    const char = text[i];
    if (char === '\\') {
      interesting.lastIndex = i + 2;
      continue;
    }
    if (char === '[') {
      open.push(text[i - 1] === '!' && text[i - 2] !== '\\' ? -(i + 1) : i);
      continue;
    }
    const bracket = open.pop();
    if (bracket === undefined || bracket >= 0) continue;
    const openedAt = -bracket - 1;
    const next = text[i + 1];
    if (next === '(') {
      const { url, end } = destination(text, i + 2);
      if (url) yield url;
      interesting.lastIndex = end; // nothing inside a destination opens a bracket: each character is read once
    } else {
      const label = next === '[' ? labelAt(text, i + 2) : undefined;
      const altLength = i - openedAt - 1;
      const key = label || (altLength <= MAX_LABEL ? text.slice(openedAt + 1, i) : undefined);
      const url = key === undefined ? undefined : definitions.get(normalizeLabel(key));
      if (url) yield url;
    }
  }
}

/** The link destination starting at `from` (after optional spaces, one line break and `<`): its end, and the URL when remote. */
function destination(text: string, from: number): { url: string | undefined; end: number } {
  const head = /^[ \t]*\n?[ \t]*<?/.exec(text.slice(from, from + 64))!;
  const start = from + head[0].length;
  let end = start;
  while (end < text.length && !/[\s)>]/.test(text[end]!)) end++;
  const url = text.slice(start, end);
  return { url: REMOTE.test(url) ? url : undefined, end };
}

/** The text of `[label]` whose inside starts at `from`; '' for `[]`, undefined when it does not close. */
function labelAt(text: string, from: number): string | undefined {
  const limit = Math.min(text.length, from + MAX_LABEL + 1);
  for (let end = from; end < limit; end++) {
    if (text[end] === ']') return text.slice(from, end);
    if (text[end] === '[') return undefined;
  }
  return undefined;
}

/** As the loader keys resources: the fragment is never sent. */
function withoutFragment(url: URL): string {
  url.hash = '';
  return url.href;
}

/** CommonMark label matching: case-folded, inner whitespace collapsed. */
function normalizeLabel(label: string): string {
  return label.trim().replace(/\s+/g, ' ').toLowerCase();
}

/**
 * The text with each code span (a run of n backticks up to the next run of exactly n) dropped.
 * The runs are listed once, then paired through a queue per length: linear in the text.
 */
function withoutCodeSpans(text: string): string {
  const runs: { at: number; length: number }[] = [];
  const byLength = new Map<number, number[]>();
  const interesting = /[`\\]/g;
  for (let match = interesting.exec(text); match; match = interesting.exec(text)) {
    const at = match.index;
    if (text[at] === '\\') {
      interesting.lastIndex = at + 2;
    } else {
      let end = at + 1;
      while (text[end] === '`') end++;
      interesting.lastIndex = end;
      const length = end - at;
      let queue = byLength.get(length);
      if (!queue) byLength.set(length, (queue = []));
      queue.push(runs.length);
      runs.push({ at, length });
    }
  }
  const next = new Map<number, number>(); // per length: how far its queue has been read
  const kept: string[] = [];
  let from = 0;
  for (let index = 0; index < runs.length; index++) {
    const { at, length } = runs[index]!;
    if (at < from) continue; // inside a span already dropped
    const queue = byLength.get(length)!;
    let read = next.get(length) ?? 0;
    while (read < queue.length && queue[read]! <= index) read++;
    next.set(length, read);
    if (read === queue.length) continue; // no closer: the backticks are literal
    const closer = runs[queue[read]!]!;
    kept.push(text.slice(from, at));
    from = closer.at + length;
  }
  kept.push(text.slice(from));
  return kept.join(' ');
}

/** The Markdown without its fenced code blocks (an unclosed fence runs to the end). */
function withoutFencedCode(markdown: string): string {
  const kept: string[] = [];
  let from = 0;
  let fence: string | undefined;
  for (const match of markdown.matchAll(FENCE_LINE)) {
    const marker = match[1]!;
    if (fence === undefined) {
      fence = marker;
      kept.push(markdown.slice(from, match.index));
    } else if (marker[0] === fence[0] && marker.length >= fence.length && match[2]!.trim() === '') {
      fence = undefined;
      from = match.index + match[0].length;
    }
  }
  if (fence === undefined) kept.push(markdown.slice(from));
  return kept.join('\n');
}
