import type { Inline } from '../../document/types.js';
import { FIT_EPSILON } from '../knuth-plass.js';
import { drawLine, type LaidLine, type LineEntry } from './line-items.js';
import { lineSettings, type ParagraphEnv, type ParagraphSettings } from './paragraph.js';
import { styleFor } from './run-style.js';
import { shapePiece } from './words.js';

/** Printable ASCII: one direction, no marks, no breaks, no objects. */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const SPACE = 0x20;

/**
 * A line of printable ASCII kept as typed (a line of code) that fits the measure, laid out
 * directly: the line layoutParagraph would make of it, without finding break opportunities,
 * choosing a face per character or breaking lines. Most lines of code are such lines, and a
 * code block's lines are a large share of a technical document's. Null when the line needs
 * the general path: other characters, a face lacking one of them, a link, or too long.
 */
export function plainLine(inlines: readonly Inline[], settings: ParagraphSettings, env: ParagraphEnv): LaidLine | null {
  if (!settings.preserveSpaces || settings.align !== 'start') return null;
  const entries: LineEntry[] = [];
  let width = 0;
  for (const inline of inlines) {
    if (inline.kind !== 'text' || inline.link || inline.code || !PRINTABLE_ASCII.test(inline.text)) return null;
    const marked = styleFor(inline.marks, settings.base, env.palette, { link: null, linkTag: null, tag: settings.tag });
    const style = inline.color ? { ...marked, color: inline.color } : marked;
    const face = env.fonts.primary(style.font);
    if (!face.coversPrintableAscii()) return null;
    // Runs of spaces and runs of anything else, each shaped (and cached) as a word is.
    const text = inline.text;
    for (let start = 0; start < text.length; ) {
      const spaces = text.charCodeAt(start) === SPACE;
      // Spaces before the first glyph are not drawn (layoutParagraph drops them at a line's start).
      if (spaces && entries.length === 0) return null;
      let end = start + 1;
      while (end < text.length && (text.charCodeAt(end) === SPACE) === spaces) end++;
      const piece = shapePiece(face, text.slice(start, end), style, 0);
      entries.push({ piece, width: piece.width, actualText: null });
      width += piece.width;
      start = end;
    }
  }
  if (entries.length === 0 || width > settings.width + FIT_EPSILON) return null;
  return drawLine(entries, lineSettings(settings, env, false));
}
