/**
 * GitHub's extended autolinks (GFM spec, "Autolinks (extension)"): `www.` links, `http://`,
 * `https://` and `ftp://` URLs, e-mail addresses and `mailto:`/`xmpp:` addresses found in text.
 *
 * It stands in for linkify-it, which follows other rules than GitHub's (no `www.` links unless any
 * bare domain becomes one) and whose Unicode-wide regular expressions took 10–40 ms to compile at
 * every cold start. One forward pass over the text; each character is looked at a bounded number
 * of times, so hostile input stays linear.
 */
import type { MarkdownIt, StateInline } from 'markdown-it';

interface Autolink {
  /** `''` for `www.` links, `mailto:` for bare e-mail addresses, else the scheme as written. */
  schema: string;
  index: number;
  lastIndex: number;
  raw: string;
  text: string;
  url: string;
}

/** Where a link may begin: the spec's `www.` (lower case, as GitHub's) and scheme prefixes, and every `@`. */
const CANDIDATE = /www\.|https?:\/\/|ftp:\/\/|mailto:|xmpp:|@/gi;
const URL_SCHEMES = ['https', 'http', 'ftp'];

/**
 * markdown-it plugin: bare links by GitHub's rules. The core rule that links text asks
 * `md.linkify` for matches; the inline rule that takes `scheme://` links before emphasis can split
 * them (`http://a.org/x_y_`) is replaced by one that also checks where the link begins.
 */
export function gfmAutolinks(md: MarkdownIt): void {
  // The core rule asks `test` of a whole paragraph's source before matching each of its texts:
  // answering whether a link could begin anywhere keeps a text's links from depending on the rest
  // of its paragraph.
  md.linkify = { test: (text: string) => MAY_BEGIN_LINK.test(text), match: autolinksIn } as unknown as MarkdownIt['linkify'];
  md.inline.ruler.at('linkify', schemeUrlAtColon);
}

const MAY_BEGIN_LINK = new RegExp(CANDIDATE.source, 'i');

function autolinksIn(text: string): Autolink[] {
  const links: Autolink[] = [];
  for (let link = nextAutolink(text, 0); link; link = nextAutolink(text, link.lastIndex)) links.push(link);
  return links;
}

/**
 * At `://`, a URL whose scheme the text rule has just passed as plain text. Silent runs (markdown-it
 * looking for where a `[label]` ends) see no URL: a link label ends at its first unmatched `]` even
 * when a URL runs into it, and a URL's end, up to the next white space, is not searched for again
 * from every `://` of 5,000 nested labels (quadratic).
 */
function schemeUrlAtColon(state: StateInline, silent: boolean): boolean {
  const { src, pos } = state;
  if (silent || state.linkLevel > 0 || src.charCodeAt(pos) !== 0x3a || src.charCodeAt(pos + 1) !== 0x2f || src.charCodeAt(pos + 2) !== 0x2f) return false;
  // The scheme is read from `src`: slicing `pending`, built by appending, would flatten it at every `://`.
  const scheme = URL_SCHEMES.find((name) => name.length <= state.pending.length && src.slice(pos - name.length, pos).toLowerCase() === name);
  if (!scheme || !startsAtBoundary(src, pos - scheme.length)) return false;
  const text = state.posMax < src.length ? src.slice(0, state.posMax) : src;
  const end = urlEnd(text, pos + 3, true);
  if (end <= 0) return false;
  const url = src.slice(pos - scheme.length, end);
  const href = state.md.normalizeLink(url);
  if (!state.md.validateLink(href)) return false;
  state.pending = state.pending.slice(0, -scheme.length);
  const open = state.push('link_open', 'a', 1);
  open.attrs = [['href', href]];
  open.markup = 'linkify';
  open.info = 'auto';
  state.push('text', '', 0).content = state.md.normalizeLinkText(url);
  const close = state.push('link_close', 'a', -1);
  close.markup = 'linkify';
  close.info = 'auto';
  state.pos = end;
  return true;
}

/** The first autolink at or after `from`; e-mail addresses never reach back before `from`. */
function nextAutolink(text: string, from: number): Autolink | null {
  CANDIDATE.lastIndex = from;
  for (let found = CANDIDATE.exec(text); found; found = CANDIDATE.exec(text)) {
    const start = found.index;
    const prefix = found[0].toLowerCase();
    const link = prefix === '@' ? emailAround(text, start, from) : prefixed(text, start, prefix);
    if (typeof link !== 'number') return link;
    CANDIDATE.lastIndex = Math.max(start + 1, link);
  }
  return null;
}

/** The link a prefix starts, or where to look on from when it starts none. */
function prefixed(text: string, start: number, prefix: string): Autolink | number {
  if (prefix === 'mailto:' || prefix === 'xmpp:') {
    // Like GitHub, an address's scheme needs only not to continue a word.
    const end = start === 0 || !isAsciiAlphanumeric(text.charCodeAt(start - 1)) ? protocolAddressEnd(text, start + prefix.length, prefix === 'xmpp:') : 0;
    return end > 0 ? autolink(text, start, end, prefix, '') : start + 1;
  }
  if (!startsAtBoundary(text, start)) return start + 1;
  if (prefix === 'www.') {
    if (!text.startsWith('www.', start)) return start + 1;
    // A www domain that fails, fails for every `www.` inside it too: the search skips past it.
    const end = urlEnd(text, start, false);
    return end > 0 ? autolink(text, start, end, '', 'http://') : -end;
  }
  const end = urlEnd(text, start + prefix.length, true);
  return end > 0 ? autolink(text, start, end, schemeOf(prefix), '') : start + 1;
}

function schemeOf(prefix: string): string {
  return prefix.slice(0, prefix.indexOf(':') + 1);
}

function autolink(text: string, index: number, lastIndex: number, schema: string, urlPrefix: string): Autolink {
  const raw = text.slice(index, lastIndex);
  return { schema, index, lastIndex, raw, text: raw, url: urlPrefix + raw };
}

/** www and URL autolinks begin a line, follow white space, or follow one of `*`, `_`, `~`, `(`. */
function startsAtBoundary(text: string, start: number): boolean {
  if (start === 0) return true;
  const before = text.charCodeAt(start - 1);
  return before === 0x2a || before === 0x5f || before === 0x7e || before === 0x28 || isWhiteSpace(before);
}

/**
 * The end of a www or URL autolink whose domain starts at `domainStart`: a valid domain, then
 * anything up to white space or `<`, less the trailing punctuation the spec leaves outside; when
 * the domain is not valid, minus the index where its scan stopped. A `www.` domain needs a period
 * (it has one); a URL's may be a single name, as GitHub links `http://localhost:8080`.
 */
function urlEnd(text: string, domainStart: number, singleNameAllowed: boolean): number {
  const domain = scanDomain(text, domainStart);
  if (domain.end === domainStart || domain.underscoreInLastTwo || (domain.periods === 0 && !singleNameAllowed)) return -domain.end;
  let end = domain.end;
  while (end < text.length && text.charCodeAt(end) !== 0x3c && !isWhiteSpace(text.charCodeAt(end))) end++;
  return trimTrailing(text, domainStart, end);
}

interface DomainScan {
  end: number;
  periods: number;
  underscoreInLastTwo: boolean;
}

/** Segments of letters, digits, `_` and `-` joined by single periods. */
function scanDomain(text: string, start: number): DomainScan {
  let underscoresInLast = 0;
  let underscoresBefore = 0;
  let periods = 0;
  let end = start;
  while (end < text.length) {
    const code = text.charCodeAt(end);
    if (code === 0x2e) {
      if (end === start || !(isDomainChar(text, end + 1) || text.charCodeAt(end + 1) === 0x5f)) break;
      periods++;
      underscoresBefore = underscoresInLast;
      underscoresInLast = 0;
    } else if (code === 0x5f) {
      underscoresInLast++;
    } else if (!isDomainChar(text, end)) {
      break;
    }
    end++;
  }
  return { end, periods, underscoreInLastTwo: underscoresInLast + underscoresBefore > 0 };
}

/**
 * Extended autolink path validation: trailing `?!.,:*_~'"` and `;` go, as does a trailing
 * `&name;` (it reads as an entity) and each trailing `)` beyond the link's opening ones.
 */
function trimTrailing(text: string, start: number, end: number): number {
  let opening = 0;
  let closing = 0;
  for (let i = start; i < end; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x28) opening++;
    else if (code === 0x29) closing++;
  }
  while (end > start) {
    const last = text.charCodeAt(end - 1);
    if (last === 0x29) {
      if (closing <= opening) break;
      closing--;
      end--;
    } else if (last === 0x3b) {
      let name = end - 1;
      while (name > start && isAsciiAlphanumeric(text.charCodeAt(name - 1))) name--;
      end = name < end - 1 && name > start && text.charCodeAt(name - 1) === 0x26 ? name - 1 : end - 1;
    } else if (TRAILING_PUNCTUATION.has(last)) {
      end--;
    } else {
      break;
    }
  }
  return end;
}

const TRAILING_PUNCTUATION = new Set([...'?!.,:*_~\'"'].map((char) => char.charCodeAt(0)));

/** A bare e-mail address around the `@` at `at`, its local part starting no earlier than `from`. */
function emailAround(text: string, at: number, from: number): Autolink | number {
  let start = at;
  while (start > from && isLocalPartChar(text.charCodeAt(start - 1))) start--;
  const end = start < at ? emailDomainEnd(text, at + 1) : 0;
  return end > 0 ? autolink(text, start, end, 'mailto:', 'mailto:') : at + 1;
}

/** After `mailto:` or `xmpp:`: an address, and for xmpp one `/resource` of letters, digits, `@`, `.`. */
function protocolAddressEnd(text: string, start: number, xmpp: boolean): number {
  let at = start;
  while (at < text.length && isLocalPartChar(text.charCodeAt(at))) at++;
  if (at === start || text.charCodeAt(at) !== 0x40) return 0;
  const end = emailDomainEnd(text, at + 1);
  if (end === 0 || !xmpp || text.charCodeAt(end) !== 0x2f) return end;
  let resourceEnd = end + 1;
  while (resourceEnd < text.length && isResourceChar(text.charCodeAt(resourceEnd))) resourceEnd++;
  while (resourceEnd > end + 1 && text.charCodeAt(resourceEnd - 1) === 0x2e) resourceEnd--;
  return resourceEnd === end + 1 ? end : resourceEnd;
}

/**
 * An address's domain: letters, digits, `-` and `_`, with at least one period between them; like
 * GitHub, it must end in a letter (a period after it stays outside the link).
 */
function emailDomainEnd(text: string, start: number): number {
  let periods = 0;
  let end = start;
  while (end < text.length) {
    const code = text.charCodeAt(end);
    if (code === 0x2e) {
      if (!isAsciiAlphanumeric(text.charCodeAt(end + 1))) break;
      periods++;
    } else if (!isAsciiAlphanumeric(code) && code !== 0x2d && code !== 0x5f) {
      break;
    }
    end++;
  }
  if (periods === 0 || !isAsciiLetter(text.charCodeAt(end - 1))) return 0;
  return end;
}

function isLocalPartChar(code: number): boolean {
  return isAsciiAlphanumeric(code) || code === 0x2e || code === 0x2d || code === 0x5f || code === 0x2b;
}

function isResourceChar(code: number): boolean {
  return isAsciiAlphanumeric(code) || code === 0x40 || code === 0x2e;
}

/** Letters, digits and `-` of any script; not punctuation, symbols' ASCII kin, or space. */
function isDomainChar(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  if (code < 0x80) return isAsciiAlphanumeric(code) || code === 0x2d;
  if (Number.isNaN(code)) return false;
  return !NON_DOMAIN_UNICODE.test(text[index]!);
}

/** Compiled on first use only: few documents have a domain outside ASCII. */
const NON_DOMAIN_UNICODE = /[\p{P}\p{Z}\p{Cc}]/u;

function isWhiteSpace(code: number): boolean {
  return code === 0x20 || (code >= 0x09 && code <= 0x0d) || (code >= 0x80 && WHITE_SPACE.test(String.fromCharCode(code)));
}

const WHITE_SPACE = /\s/;

function isAsciiLetter(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a);
}

function isAsciiAlphanumeric(code: number): boolean {
  return isAsciiLetter(code) || (code >= 0x30 && code <= 0x39);
}
