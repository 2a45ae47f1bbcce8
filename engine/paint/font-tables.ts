/**
 * Reading a TrueType or OpenType font's tables straight from its bytes, where fontkit would decode
 * a whole table (or every glyph's outline) to answer a question Quire asks often.
 */

/** The part of fontkit's font read here: its file and table directory. */
export interface TrueTypeSource {
  stream: { buffer: Uint8Array };
  directory: { tables: Record<string, { offset: number; length: number } | undefined> };
}

export function tableOf(source: TrueTypeSource, tag: string): Uint8Array | undefined {
  const entry = source.directory.tables[tag];
  return entry && source.stream.buffer.subarray(entry.offset, entry.offset + entry.length);
}

export function view(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** A glyph's advance width and left side bearing; glyphs past the long metrics share the last advance. */
export function horizontalMetrics(hmtx: Uint8Array, longMetrics: number): (glyph: number) => [number, number] {
  const data = view(hmtx);
  return (glyph) => {
    if (glyph < longMetrics) return [data.getUint16(glyph * 4), data.getInt16(glyph * 4 + 2)];
    const bearingAt = longMetrics * 4 + (glyph - longMetrics) * 2;
    return [data.getUint16((longMetrics - 1) * 4), bearingAt + 2 <= hmtx.length ? data.getInt16(bearingAt) : 0];
  };
}

/**
 * Each glyph's advance width in font units, read from the hmtx table; null when the font lacks
 * it. (fontkit decodes a glyph's outline to answer, for vertical metrics Quire does not use.)
 */
export function advanceWidths(source: TrueTypeSource): ((glyph: number) => number) | null {
  const hhea = tableOf(source, 'hhea');
  const hmtx = tableOf(source, 'hmtx');
  if (!hhea || !hmtx || hhea.length < 36) return null;
  const metrics = horizontalMetrics(hmtx, view(hhea).getUint16(34));
  return (glyph) => metrics(glyph)[0];
}

const POSTSCRIPT_NAME = 6;
const WINDOWS = 3;
const WINDOWS_ENGLISH = 0x409;
const MACINTOSH = 1;

/**
 * The font's PostScript name (name ID 6) read straight from its name table, as fontkit would
 * answer it: the English Windows record, else the English Macintosh one (PostScript names are
 * ASCII). PDFKit names every embedded font by it, and fontkit decodes each record of the table
 * to answer, a few milliseconds a font at every cold start. Null when there is no such record or
 * the table cannot be read; fontkit then answers.
 */
export function postscriptName(font: TrueTypeSource): string | null {
  const bytes = tableOf(font, 'name');
  if (!bytes || bytes.length < 6) return null;
  const data = view(bytes);
  const count = data.getUint16(2);
  const strings = data.getUint16(4);
  let mac: string | null = null;
  for (let i = 0; i < count; i++) {
    const record = 6 + i * 12;
    if (record + 12 > bytes.length) return null;
    if (data.getUint16(record + 6) !== POSTSCRIPT_NAME) continue;
    const platform = data.getUint16(record);
    const language = data.getUint16(record + 4);
    const start = strings + data.getUint16(record + 10);
    const text = bytes.subarray(start, start + data.getUint16(record + 8));
    if (platform === WINDOWS && language === WINDOWS_ENGLISH) return new TextDecoder('utf-16be').decode(text);
    if (platform === MACINTOSH && language === 0) mac = new TextDecoder('latin1').decode(text);
  }
  return mac;
}
