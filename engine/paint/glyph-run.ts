import type { GlyphRunItem } from '../layout/frame.js';
import type { EmbeddedFontInternals, PageInternals } from './pdfkit-internals.js';
import { hexTextString, num, rgb } from './pdf-values.js';
import { advanceWidths } from './font-tables.js';

/**
 * What the open text object has set so far: consecutive runs (a paragraph's lines, a code
 * line's coloured tokens) share one text object and write only the font, colour and render
 * mode that change. The painter opens the object and closes it before anything else is drawn.
 */
export interface TextState {
  font: string | null;
  size: number;
  color: string | null;
  invisible: boolean;
}

/** The operators that open a text object in PDFKit's flipped page space: Quire's glyph runs position with the PDF's own y axis. */
export function beginText(page: PageInternals): string {
  return `q\n1 0 0 -1 0 ${num(page.height)} cm\nBT`;
}

export const END_TEXT = 'ET\nQ';

/**
 * The operators of a shaped glyph run exactly as laid out, inside an open text object, added to
 * `ops` one line each (the painter's own list: no list and no string of its own per run). Glyph
 * ids go through PDFKit's font subset (so subsetting and ToUnicode stay PDFKit's), positions
 * through TJ adjustments against the widths the font dictionary declares.
 */
export function glyphRunOps(page: PageInternals, font: EmbeddedFontInternals, run: GlyphRunItem, text: TextState, ops: string[]): void {
  if (page.fonts[font.id] == null) page.fonts[font.id] = font.ref();
  const size = run.size;
  const baselineY = page.height - run.y;
  if (run.actualText !== null) ops.push(`/Span <</ActualText ${hexTextString(run.actualText)}>> BDC`);
  if (text.font !== font.id || text.size !== size) {
    ops.push(`/${font.id} ${num(size)} Tf`);
    text.font = font.id;
    text.size = size;
  }
  const color = rgb(run.color);
  if (text.color !== color) {
    ops.push(`${color} rg`);
    text.color = color;
  }
  const invisible = run.invisible === true;
  if (text.invisible !== invisible) {
    ops.push(invisible ? '3 Tr' : '0 Tr');
    text.invisible = invisible;
  }

  let pen = run.x;
  // The TJ array being written, joined once (a string grown glyph by glyph was most of a render's
  // garbage): glyph codes side by side in one string (`<00070008>`: a sixth of a page's bytes
  // less than a string each), position adjustments between strings (`>-12<`). An adjustment
  // after the array's last glyph moves nothing (a Tm always follows), so it waits for a glyph.
  let elements: string[] = [];
  let adjustment: string | null = null;
  let needsMove = true;
  const flush = () => {
    if (elements.length > 0) ops.push(`[<${elements.join('')}>] TJ`);
    elements = [];
    adjustment = null;
  };
  for (let i = 0; i < run.glyphs.length; i++) {
    const glyph = run.glyphs[i]!;
    if (run.perGlyphText) {
      flush();
      needsMove = true;
      ops.push(`/Span <</ActualText ${hexTextString(glyph.chars)}>> BDC`);
    }
    const code = font.subset.includeGlyph(glyph.id);
    font.widths[code] ??= advanceWidth(font, glyph.id) * font.scale;
    font.unicode[code] ??= [...glyph.chars].map((char) => char.codePointAt(0)!);
    const digits = glyphDigits(code);
    const declared = (font.widths[code]! * size) / 1000;
    const offset = glyph.dx !== 0 || glyph.dy !== 0;
    if (offset) {
      flush();
      ops.push(`1 0 0 1 ${num(pen + glyph.dx)} ${num(baselineY + glyph.dy)} Tm`, `[<${digits}>] TJ`);
      needsMove = true;
    } else {
      if (needsMove) {
        flush();
        ops.push(`1 0 0 1 ${num(pen)} ${num(baselineY)} Tm`);
        needsMove = false;
      }
      if (adjustment !== null) elements.push(`>${adjustment}<`);
      elements.push(digits);
      const adjust = ((declared - glyph.advance) * 1000) / size;
      adjustment = Math.abs(adjust) > 0.01 ? num(adjust) : null;
    }
    pen += glyph.advance;
    if (run.perGlyphText) {
      flush();
      ops.push('EMC');
    }
  }
  flush();
  if (run.actualText !== null) ops.push('EMC');
}

/** Advance widths from each font's hmtx table; fontkit's for a variable font, whose advances vary. */
const advanceTables = new WeakMap<EmbeddedFontInternals, ((glyph: number) => number) | null>();

function advanceWidth(font: EmbeddedFontInternals, glyph: number): number {
  let table = advanceTables.get(font);
  if (table === undefined) {
    table = font.font._variationProcessor ? null : advanceWidths(font.font);
    advanceTables.set(font, table);
  }
  return table ? table(glyph) : font.font.getGlyph(glyph).advanceWidth;
}

/** Glyph codes' hex digits as written in TJ arrays (`002a`), made once each: a document writes the same few hundred codes again and again. */
const codeDigits: string[] = [];

function glyphDigits(code: number): string {
  return (codeDigits[code] ??= code.toString(16).padStart(4, '0'));
}
