/**
 * The images a document uses, found on the text as sent — before anything is reserved (SPEC
 * "What a refusal costs": resources are counted on the document as sent). A textual scan, linear
 * in the length, run on the service's event loop: inline images `![…](url)`, reference images
 * `![…][label]` / `![label]` with their definitions, and HTML `<img>` and `<source>` `src` and
 * `srcset`. Fenced code and code spans are skipped. The renderer's own count stays the authority;
 * this one lets a document that plainly uses too much be refused for free, and tells a `data:`
 * image (a resource) from text that merely looks like one (Markdown).
 */

const REMOTE = /^https?:\/\//i;
const MAX_LABEL = 999;
const DEFINITION = /^ {0,3}\[([^\]\n]{1,999})\]:[ \t]*\n?[ \t]*(<[^<>\n]*>|\S+)/gm;
const HTML_IMAGE = /<(?:img|source)\b([^<>]*)>/gi;
const HTML_SOURCE = /\b(src|srcset)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'<>]+))/gi;
const FENCE_LINE = /^ {0,3}(`{3,}|~{3,})([^\n]*)$/gm;

export interface ScanOptions {
  /** HTML blocks are rendered, so their `<img>` load too. */
  html: boolean;
}

/** Every URL used as an image, in the order written (repeats included). */
export function imageReferences(markdown: string, options: ScanOptions): string[] {
  const prose = withoutCodeSpans(withoutFencedCode(markdown));
  const definitions = new Map<string, string>();
  for (const match of prose.matchAll(DEFINITION)) {
    const label = normalizeLabel(match[1]!);
    if (!definitions.has(label)) definitions.set(label, unbracketed(match[2]!));
  }
  const found = [...markdownImages(prose, definitions)];
  if (options.html) for (const tag of prose.matchAll(HTML_IMAGE)) found.push(...htmlSources(tag[1]!));
  return found;
}

/** The distinct http(s) URLs among `references`, normalised as the loader will request them. */
export function distinctRemote(references: readonly string[]): Set<string> {
  const remote = references.filter((url) => REMOTE.test(url));
  return new Set(remote.map((url) => (URL.canParse(url) ? withoutFragment(new URL(url)) : url)));
}

/** The URLs of an `<img>` or `<source>` tag's `src` and every `srcset` candidate. */
function htmlSources(attributes: string): string[] {
  const urls: string[] = [];
  for (const match of attributes.matchAll(HTML_SOURCE)) {
    const value = (match[2] ?? match[3] ?? match[4]!).trim();
    if (match[1]!.toLowerCase() === 'src') urls.push(value);
    else urls.push(...srcsetUrls(value));
  }
  return urls.filter((url) => url !== '');
}

/**
 * A srcset's candidate URLs as HTML reads them: each URL runs to the next white space (a `data:`
 * URL's comma is part of it), then descriptors run to the next comma.
 */
function srcsetUrls(srcset: string): string[] {
  const urls: string[] = [];
  for (const candidate of srcset.matchAll(/[\s,]*([^\s,][^\s]*)([^,]*)/g)) urls.push(candidate[1]!.replace(/,+$/, ''));
  return urls;
}

function unbracketed(destination: string): string {
  return destination.startsWith('<') ? destination.slice(1, -1) : destination;
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
      if (url !== '') yield url;
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

/**
 * The link destination starting at `from` (after optional spaces and one line break): `<…>` to
 * its `>` on the same line, or a bare URL to white space or `)`. Returns it and where it ends.
 */
function destination(text: string, from: number): { url: string; end: number } {
  const head = /^[ \t]*\n?[ \t]*(<?)/.exec(text.slice(from, from + 64))!;
  const start = from + head[0].length;
  const bracketed = head[1] === '<';
  let end = start;
  while (end < text.length && (bracketed ? !/[>\n]/.test(text[end]!) : !/[\s)]/.test(text[end]!))) end++;
  return { url: text.slice(start, end), end };
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
