import type { Font } from 'fontkit';
import type { ShapedGlyph } from './shaped-glyph.js';
import { asciiFirst } from './ascii-first.js';
import { inkGap } from './glyph-ink.js';

/**
 * Where a lower-case letter meets a capital inside a word — "diffWords", "offWhite", names in
 * camel case — fonts kern the pair apart when the first letter reaches past its advance: Source
 * Serif 4 sets an f (and the ff ligature, which ends in one) 0.106 em further from a W, so that
 * the f's hook clears the W's serif with room to spare. Inside a word that room reads as a word
 * space, and pdftotext, which breaks words at gaps over 0.1 em, extracts "diff Words". There a
 * positive kern is cut to what keeps the two glyphs' ink from overlapping (0.064 em for fW,
 * measured on the outlines); pdfLaTeX's fonts set such pairs closer still, the hook over the W.
 */
export const CASE_JOIN = asciiFirst(/\p{Ll}\p{M}*[\p{Lu}\p{Lt}]/u, /[a-z][A-Z]/);
export const ENDS_LOWER = asciiFirst(/\p{Ll}\p{M}*$/u, /[a-z]$/);
export const STARTS_UPPER = asciiFirst(/^[\p{Lu}\p{Lt}]/u, /^[A-Z]/);

/** Narrows positive kerns at case joins in `glyphs` (left to right, font units); returns the advance taken away. */
export function tightenCaseJoins(text: string, glyphs: ShapedGlyph[], font: Font): number {
  if (!CASE_JOIN(text)) return 0;
  let removed = 0;
  for (let k = 0; k + 1 < glyphs.length; k++) {
    const [left, right] = [glyphs[k]!, glyphs[k + 1]!];
    if (!ENDS_LOWER(left.chars) || !STARTS_UPPER(right.chars) || left.dx !== 0 || right.dx !== 0) continue;
    const nominal = font.getGlyph(left.id).advanceWidth;
    const kern = left.advance - nominal;
    if (kern <= 0) continue;
    const overlap = -inkGap(font, left.id, right.id, nominal);
    const kept = Math.min(kern, Math.max(0, Math.ceil(overlap)));
    glyphs[k] = { ...left, advance: nominal + kept };
    removed += kern - kept;
  }
  return removed;
}
