import { reorderRuns } from '../../text/bidi.js';
import type { FrameItem, GlyphRunItem, PlacedGlyph } from '../frame.js';
import type { Palette } from '../../style/palette.js';
import type { FontLibrary } from '../../text/font-library.js';
import type { DrawingTextSetter } from '../drawing-items.js';
import { drawObject } from './objects.js';
import type { Piece } from './words.js';

export interface LineEntry {
  piece: Piece;
  /** Width as set on this line (a justified space is wider than its glyph). */
  width: number;
  /**
   * Replaces the piece's text in extraction: a hyphenated word's first part stands for the whole
   * word, its other parts and the added hyphen for nothing. Null keeps the glyphs' own text.
   */
  actualText: string | null;
}

export interface LineSettings {
  x: number;
  width: number;
  leading: number;
  textAscent: number;
  textDescent: number;
  align: 'justify' | 'start' | 'center' | 'end';
  rtl: boolean;
  palette: Palette;
  fonts: FontLibrary;
  /** For the text of drawings set in the line (formulas, SVG images). */
  setDrawingText: DrawingTextSetter;
}

/** One line of a paragraph: its height and items, with y measured from the line's top. */
export interface LaidLine {
  height: number;
  /** Distance from the line's top to its baseline. */
  baseline: number;
  /** Width the line's content takes (less than the measure unless justified). */
  width: number;
  items: FrameItem[];
  /** Numbers of the footnotes referenced on this line. */
  footnotes: number[];
  /** The line ends in a word broken at a hyphenation point. */
  hyphenated: boolean;
}

/** Lays one broken line out in visual order: glyph runs, inline code tints, images, links. */
export function drawLine(entries: LineEntry[], settings: LineSettings, hyphenated = false): LaidLine {
  const visual = entries.some((entry) => entry.piece.level > 0) ? reorderRuns(entries.map((entry) => ({ ...entry, level: entry.piece.level }))) : entries;
  const naturalBaseline = (settings.leading - (settings.textAscent + settings.textDescent)) / 2 + settings.textAscent;
  const below = settings.leading - naturalBaseline;
  let baseline = naturalBaseline;
  let descent = below;
  for (const { piece } of visual) {
    if (piece.kind !== 'object') continue;
    baseline = Math.max(baseline, piece.box.ascent + (piece.box.descent > 0 ? 0 : below * 0.25));
    descent = Math.max(descent, piece.box.descent);
  }
  const used = visual.reduce((sum, entry) => sum + entry.width, 0);
  const slack = settings.width - used;
  let x = settings.x;
  const flushRight = settings.align === 'end' ? !settings.rtl : settings.align === 'start' && settings.rtl;
  if (settings.align === 'center') x += slack / 2;
  else if (flushRight) x += slack;

  const under: FrameItem[] = [];
  const items: FrameItem[] = [];
  const links: FrameItem[] = [];
  const footnotes: number[] = [];
  let run: GlyphRunItem | null = null;
  let runEnd = 0;
  for (const entry of visual) {
    const { piece } = entry;
    const style = piece.style;
    if (style.background) {
      const border = style.border ?? null;
      extendOrPush(under, {
        kind: 'rect',
        x,
        y: baseline - style.size * 0.86,
        width: entry.width,
        height: style.size * 1.2,
        fill: style.background,
        stroke: border,
        lineWidth: border ? 0.5 : 0,
        radius: 1.5,
        tag: null,
        actualText: null,
      });
    }
    if (style.link) {
      const top = baseline - settings.textAscent;
      const link = {
        kind: 'link' as const,
        x,
        y: top,
        width: entry.width,
        height: settings.textAscent + settings.textDescent,
        target: style.link.target,
        description: style.link.description,
        tag: style.linkTag,
      };
      const previous = links.at(-1);
      if (previous?.kind === 'link' && previous.target === link.target && Math.abs(previous.x + previous.width - x) < 0.01) previous.width += entry.width;
      else links.push(link);
      if (style.link.footnote !== undefined && !footnotes.includes(style.link.footnote)) footnotes.push(style.link.footnote);
    }
    if (piece.kind === 'text') {
      const glyphs = adjustLast(piece.glyphs, entry.width - piece.width);
      const actualText = entry.actualText ?? piece.actualText;
      const y = baseline - style.rise;
      const joins =
        run &&
        run.face === piece.face.key &&
        run.size === style.size &&
        run.color === style.color &&
        run.y === y &&
        run.tag === style.tag &&
        run.actualText === actualText &&
        run.perGlyphText === piece.perGlyphText &&
        Math.abs(runEnd - x) < 0.01;
      if (joins) run!.glyphs.push(...glyphs);
      else {
        run = {
          kind: 'glyphs',
          x,
          y,
          face: piece.face.key,
          size: style.size,
          color: style.color,
          glyphs: [...glyphs],
          tag: style.tag,
          actualText,
          perGlyphText: piece.perGlyphText,
        };
        items.push(run);
      }
      runEnd = x + entry.width;
    } else if (piece.kind === 'missing') {
      // The face's .notdef glyph (a box) stands in; the characters still extract.
      run = null;
      const glyphs = [{ id: 0, advance: entry.width, dx: 0, dy: 0, chars: '' }];
      items.push({
        kind: 'glyphs',
        x,
        y: baseline - style.rise,
        face: piece.face.key,
        size: style.size,
        color: settings.palette.missingGlyph,
        glyphs,
        tag: style.tag,
        actualText: piece.chars,
        perGlyphText: false,
      });
    } else {
      run = null;
      items.push(...drawObject(piece.object, piece.box, x, baseline, style, settings));
    }
    if (style.strike && piece.kind === 'text') {
      const y = baseline - style.rise - style.size * 0.28;
      items.push({ kind: 'line', x1: x, y1: y, x2: x + entry.width, y2: y, width: style.size * 0.06, color: style.color });
    }
    if (style.underline && piece.kind === 'text') {
      const y = baseline - style.rise + style.size * 0.12;
      items.push({ kind: 'line', x1: x, y1: y, x2: x + entry.width, y2: y, width: style.size * 0.06, color: style.color });
    }
    x += entry.width;
  }
  return { height: baseline + descent, baseline, width: used, items: [...under, ...items, ...links], footnotes, hyphenated };
}

/** Justification widens a space: its glyph keeps its id and takes the extra advance. */
function adjustLast(glyphs: PlacedGlyph[], extra: number): PlacedGlyph[] {
  if (Math.abs(extra) < 1e-6 || glyphs.length === 0) return glyphs;
  const copy = glyphs.slice();
  const last = copy[copy.length - 1]!;
  copy[copy.length - 1] = { ...last, advance: last.advance + extra };
  return copy;
}

/** Consecutive pieces with the same tint share one rounded rectangle. */
function extendOrPush(under: FrameItem[], rect: FrameItem & { kind: 'rect' }): void {
  const previous = under.at(-1);
  const same = previous?.kind === 'rect' && previous.fill === rect.fill && previous.stroke === rect.stroke && previous.y === rect.y;
  if (same && Math.abs(previous.x + previous.width - rect.x) < 0.01) previous.width += rect.width;
  else under.push(rect);
}
