/** The name offered for a streamed PDF (docs/api.md "The request": `filename`). */
const MAX_STEM = 80;
export const DEFAULT_FILENAME = 'document.pdf';

/** A surrogate without its other half: JSON can carry one (`"\ud800"`), a header cannot encode it. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * Cuts the stem to 80 characters and enforces `.pdf`; path separators and control characters are
 * dropped, lone surrogates become U+FFFD.
 */
export function normalizeFilename(requested: string): string {
  const cleaned = requested
    .replace(LONE_SURROGATE, '\ufffd')
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, '')
    .replace(/[/\\]/g, '_')
    .trim();
  const stem = cleaned.replace(/\.pdf$/i, '');
  const cut = Array.from(stem).slice(0, MAX_STEM).join('').trim();
  return `${cut || 'document'}.pdf`;
}

/** An attachment disposition: the ASCII name always, RFC 8187 `filename*` when the name is not ASCII. */
export function contentDisposition(filename: string): string {
  const ascii = asciiFallback(filename);
  if (ascii === filename) return `attachment; filename="${ascii}"`;
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeRfc8187(filename)}`;
}

/**
 * The name in printable ASCII, its stem again at most 80 characters: each character of the
 * stem, taken whole (an emoji is one, though two UTF-16 halves), becomes its accent-free form
 * (é → e, ﬁ → fi) or one `_`; quoting characters become `_` too. A form of several characters
 * could lengthen the stem, so the result is cut once more.
 */
function asciiFallback(filename: string): string {
  const stem = filename.slice(0, -'.pdf'.length);
  const ascii = Array.from(stem, (character) => {
    const plain = character.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
    return /^[\x20-\x7e]*$/.test(plain) ? plain.replace(/["\\]/g, '_') : '_';
  }).join('');
  return `${ascii.slice(0, MAX_STEM) || '_'}.pdf`;
}

/** RFC 8187 `value-chars`: attr-char stays, everything else is percent-encoded UTF-8. */
function encodeRfc8187(value: string): string {
  return encodeURIComponent(value).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
