import type { GlyphRunItem } from '../layout/frame.js';
import type { EmbeddedFontInternals, PageInternals } from './pdfkit-internals.js';
import { hexTextString, num, rgb } from './pdf-values.js';

/**
 * The operators of a shaped glyph run exactly as laid out: glyph ids go through PDFKit's font subset (so
 * subsetting and ToUnicode stay PDFKit's), positions through TJ adjustments against the
 * widths the font dictionary declares.
 */
export function glyphRunOps(page: PageInternals, font: EmbeddedFontInternals, run: GlyphRunItem): string {
  if (page.fonts[font.id] == null) page.fonts[font.id] = font.ref();
  const size = run.size;
  const baselineY = page.height - run.y;
  const ops: string[] = ['q', `1 0 0 -1 0 ${num(page.height)} cm`];
  if (run.actualText !== null) ops.push(`/Span <</ActualText ${hexTextString(run.actualText)}>> BDC`);
  ops.push('BT', `/${font.id} ${num(size)} Tf`, `${rgb(run.color)} rg`);
  if (run.invisible) ops.push('3 Tr');

  let pen = run.x;
  // The TJ array being written, without its brackets: glyph codes and position adjustments.
  let segment = '';
  let needsMove = true;
  const flush = () => {
    if (segment.length > 0) ops.push(`[${segment}] TJ`);
    segment = '';
  };
  for (const glyph of run.glyphs) {
    if (run.perGlyphText) {
      flush();
      needsMove = true;
      ops.push(`/Span <</ActualText ${hexTextString(glyph.chars)}>> BDC`);
    }
    const code = font.subset.includeGlyph(glyph.id);
    font.widths[code] ??= font.font.getGlyph(glyph.id).advanceWidth * font.scale;
    font.unicode[code] ??= [...glyph.chars].map((char) => char.codePointAt(0)!);
    const hex = glyphCode(code);
    const declared = (font.widths[code]! * size) / 1000;
    const offset = glyph.dx !== 0 || glyph.dy !== 0;
    if (offset) {
      flush();
      ops.push(`1 0 0 1 ${num(pen + glyph.dx)} ${num(baselineY + glyph.dy)} Tm`, `[${hex}] TJ`);
      needsMove = true;
    } else {
      if (needsMove) {
        flush();
        ops.push(`1 0 0 1 ${num(pen)} ${num(baselineY)} Tm`);
        needsMove = false;
      }
      segment += segment.length > 0 ? ` ${hex}` : hex;
      const adjust = ((declared - glyph.advance) * 1000) / size;
      if (Math.abs(adjust) > 0.01) segment += ` ${num(adjust)}`;
    }
    pen += glyph.advance;
    if (run.perGlyphText) {
      flush();
      ops.push('EMC');
    }
  }
  flush();
  ops.push('ET');
  if (run.actualText !== null) ops.push('EMC');
  ops.push('Q');
  return ops.join('\n');
}

/** Glyph codes as written in TJ arrays (`<002a>`), made once each: a document writes the same few hundred codes again and again. */
const glyphCodes: string[] = [];

function glyphCode(code: number): string {
  return (glyphCodes[code] ??= `<${code.toString(16).padStart(4, '0')}>`);
}
