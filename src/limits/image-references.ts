/**
 * The images a document uses, found on the text as sent — before anything is reserved
 * (docs/api.md "Order of checks and what they cost": resources are counted on the document as
 * sent). A textual scan, linear in the length (on the event loop for a short document, in a
 * thread of its own for a long one): inline images `![…](url)`, reference images
 * `![…][label]` / `![label]` with their definitions, and HTML `<img>` and `<source>` `src` and
 * `srcset`. Fenced code and code spans are skipped. The renderer's own count stays the authority;
 * this one lets a document that plainly uses too much be refused for free, and tells a `data:`
 * image (a resource) from text that merely looks like one (Markdown).
 */

const REMOTE = /^https?:\/\//i;
const BACKSLASH = 0x5c;
const BANG = 0x21;
const OPEN = 0x5b;
const CLOSE = 0x5d;
const PAREN = 0x28;
const BACKTICK = 0x60;
const TILDE = 0x7e;
const SPACE = 0x20;
const MAX_LABEL = 999;
const DEFINITION = /^ {0,3}\[([^\]\n]{1,999})\]:[ \t]*\n?[ \t]*(<[^<>\n]*>|\S+)/gm;
const HTML_IMAGE = /<(?:img|source)\b([^<>]*)>/gi;
const HTML_SOURCE = /\b(src|srcset)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'<>]+))/gi;
const BRACKETED_URL = /[^>\n]*/y;
const BARE_URL = /[^\s)]*/y;

export interface ScanOptions {
  /** HTML blocks are rendered, so their `<img>` load too. */
  html: boolean;
}

/** Every URL used as an image, in the order written (repeats included). */
export function imageReferences(markdown: string, options: ScanOptions): string[] {
  return [...eachImageReference(markdown, options)];
}

/** imageReferences one at a time, so that a caller counting them keeps none it need not. */
export function* eachImageReference(markdown: string, options: ScanOptions): Generator<string> {
  const prose = withoutCodeSpans(withoutFencedCode(markdown));
  const definitions = new Map<string, string>();
  for (const match of prose.matchAll(DEFINITION)) {
    const label = normalizeLabel(match[1]!);
    if (!definitions.has(label)) definitions.set(label, unbracketed(match[2]!));
  }
  yield* markdownImages(prose, definitions);
  if (options.html) for (const tag of prose.matchAll(HTML_IMAGE)) yield* htmlSources(tag[1]!);
}

/** The distinct http(s) URLs among `references`, normalised as the loader will request them. */
export function distinctRemote(references: Iterable<string>): Set<string> {
  const remote = new RemoteImages();
  for (const url of references) remote.add(url);
  return remote.urls;
}

/**
 * The distinct http(s) image URLs of a document, gathered one at a time; past `most`, only that
 * there are more is kept. A URL seen before is not parsed again.
 */
export class RemoteImages {
  readonly urls = new Set<string>();
  private readonly seen = new Set<string>();

  constructor(private readonly most = Number.POSITIVE_INFINITY) {}

  add(url: string): void {
    if (this.urls.size > this.most || this.seen.has(url) || !REMOTE.test(url)) return;
    this.seen.add(url);
    this.urls.add(URL.canParse(url) ? withoutFragment(new URL(url)) : url);
  }
}

/** The URLs of an `<img>` or `<source>` tag's `src` and every `srcset` candidate. */
function htmlSources(attributes: string): string[] {
  const urls: string[] = [];
  for (const match of attributes.matchAll(HTML_SOURCE)) {
    const value = (match[2] ?? match[3] ?? match[4]!).trim();
    if (match[1]!.toLowerCase() === 'src') urls.push(value);
    else for (const url of srcsetUrls(value)) urls.push(url); // not push(...): a srcset may list millions
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

/**
 * One pass over brackets, a character at a time: each `]` closing an `![` is an image; what
 * follows it says where it points. A shortcut label is the alt text itself, which CommonMark
 * allows no bracket inside — so nested brackets (`![![![…]]]`) are never sliced or normalised,
 * and the texts that are lie side by side: the pass stays linear however the brackets nest.
 */
function* markdownImages(text: string, definitions: Map<string, string>): Generator<string> {
  /** Open brackets' positions; an image's `![` is stored as -(position + 1). Plain numbers keep the stack cheap. */
  const open: number[] = [];
  /** Where the last unescaped bracket before the one at hand stands. */
  let previousBracket = -1;
  // A character at a time: a regular expression finding each bracket costs ten times more where they are dense.
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (char === BACKSLASH) {
      i++;
      continue;
    }
    if (char !== OPEN && char !== CLOSE) continue;
    const before = previousBracket;
    previousBracket = i;
    if (char === OPEN) {
      open.push(text.charCodeAt(i - 1) === BANG && text.charCodeAt(i - 2) !== BACKSLASH ? -(i + 1) : i);
      continue;
    }
    const bracket = open.pop();
    if (bracket === undefined || bracket >= 0) continue;
    const openedAt = -bracket - 1;
    const next = text.charCodeAt(i + 1);
    if (next === PAREN) {
      const { url, end } = destination(text, i + 2);
      if (url !== '') yield url;
      i = end - 1; // nothing inside a destination opens a bracket: each character is read once
    } else if (definitions.size > 0) {
      const label = next === OPEN ? labelAt(text, i + 2) : undefined;
      const shortcut = before === openedAt && i - openedAt - 1 <= MAX_LABEL;
      const key = label || (shortcut ? text.slice(openedAt + 1, i) : undefined);
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
  const rest = head[1] === '<' ? BRACKETED_URL : BARE_URL;
  rest.lastIndex = start;
  const end = start + rest.exec(text)![0].length;
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
 * The runs are listed once (as plain numbers: a text of lone backticks has millions), each is
 * linked to the next run of its length by one backward pass, and the spans are cut in a forward
 * one: linear in the text.
 */
function withoutCodeSpans(text: string): string {
  const starts: number[] = [];
  const lengths: number[] = [];
  for (let at = 0; at < text.length; at++) {
    const char = text.charCodeAt(at);
    if (char === BACKSLASH) {
      at++;
    } else if (char === BACKTICK) {
      let end = at + 1;
      while (text.charCodeAt(end) === BACKTICK) end++;
      starts.push(at);
      lengths.push(end - at);
      at = end - 1;
    }
  }
  const closer = new Int32Array(starts.length).fill(-1);
  const laterOfLength = new Map<number, number>();
  for (let run = starts.length - 1; run >= 0; run--) {
    closer[run] = laterOfLength.get(lengths[run]!) ?? -1;
    laterOfLength.set(lengths[run]!, run);
  }
  const kept: string[] = [];
  let from = 0;
  for (let run = 0; run < starts.length; run++) {
    const close = closer[run]!;
    if (close === -1) continue; // no closer: the backticks are literal
    kept.push(text.slice(from, starts[run]));
    from = starts[close]! + lengths[run]!;
    run = close;
  }
  kept.push(text.slice(from));
  return kept.join(' ');
}

/** The Markdown without its fenced code blocks (an unclosed fence runs to the end), read line by line. */
function withoutFencedCode(markdown: string): string {
  const kept: string[] = [];
  let from = 0;
  let fence: { char: number; length: number } | undefined;
  for (let line = 0; line < markdown.length; ) {
    const lineEnd = endOfLine(markdown, line);
    const marker = fenceMarker(markdown, line, lineEnd);
    if (marker && fence === undefined) {
      fence = marker;
      kept.push(markdown.slice(from, line));
    } else if (marker && marker.char === fence?.char && marker.length >= fence.length && marker.infoStart === lineEnd) {
      fence = undefined;
      from = lineEnd;
    }
    line = lineEnd + 1;
  }
  if (fence === undefined) kept.push(markdown.slice(from));
  return kept.join('\n');
}

function endOfLine(text: string, from: number): number {
  const end = text.indexOf('\n', from);
  return end === -1 ? text.length : end;
}

/**
 * A fence's run of three or more backticks or tildes after at most three spaces, and where what
 * follows it starts once blanks are passed (the line's end when nothing does).
 */
function fenceMarker(text: string, line: number, lineEnd: number): { char: number; length: number; infoStart: number } | undefined {
  let at = line;
  while (at < lineEnd && at - line < 3 && text.charCodeAt(at) === SPACE) at++;
  const char = text.charCodeAt(at);
  if (char !== BACKTICK && char !== TILDE) return undefined;
  let end = at;
  while (end < lineEnd && text.charCodeAt(end) === char) end++;
  if (end - at < 3) return undefined;
  let infoStart = end;
  while (infoStart < lineEnd && /\s/.test(text[infoStart]!)) infoStart++;
  return { char, length: end - at, infoStart };
}
