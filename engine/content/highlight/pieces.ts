/**
 * Pieces are highlighted on their own, at most this long. highlight.js's cost grows with the
 * square of its input on some hostile texts (8 KB of one repeated word: 0.5–1.6 s in Java or
 * TypeScript), so it never sees more than one piece at a time: a piece then costs at most ~0.1 s.
 */
export const MAX_PIECE_CHARS = 2048;

/** Where a cut may fall, best first: a blank line before an unindented line, a blank line, a line break. */
const CUTS = [/\n\n(?=\S)/g, /\n\n/g, /\n/g];

/**
 * Source cut into pieces of at most MAX_PIECE_CHARS, each cut after the last place of the best
 * kind in the window (else anywhere, never inside a surrogate pair), where highlighting state
 * rarely carries over. Code that spans a cut (a long block comment) may lose its colour.
 */
export function pieces(source: string): string[] {
  const out: string[] = [];
  let start = 0;
  while (source.length - start > MAX_PIECE_CHARS) {
    const window = source.slice(start, start + MAX_PIECE_CHARS);
    const cut = cutIn(window);
    out.push(window.slice(0, cut));
    start += cut;
  }
  out.push(source.slice(start));
  return out;
}

function cutIn(window: string): number {
  for (const pattern of CUTS) {
    let cut = -1;
    for (const match of window.matchAll(pattern)) cut = match.index + match[0].length;
    if (cut > 0) return cut;
  }
  const last = window.charCodeAt(window.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? window.length - 1 : window.length;
}
