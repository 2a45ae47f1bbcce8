import type { TrueTypeSource } from './truetype-subset.js';

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
  const entry = font.directory.tables.name;
  if (!entry || entry.length < 6) return null;
  const bytes = font.stream.buffer.subarray(entry.offset, entry.offset + entry.length);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const count = view.getUint16(2);
  const strings = view.getUint16(4);
  let mac: string | null = null;
  for (let i = 0; i < count; i++) {
    const record = 6 + i * 12;
    if (record + 12 > bytes.length) return null;
    if (view.getUint16(record + 6) !== POSTSCRIPT_NAME) continue;
    const platform = view.getUint16(record);
    const language = view.getUint16(record + 4);
    const start = strings + view.getUint16(record + 10);
    const text = bytes.subarray(start, start + view.getUint16(record + 8));
    if (platform === WINDOWS && language === WINDOWS_ENGLISH) return new TextDecoder('utf-16be').decode(text);
    if (platform === MACINTOSH && language === 0) mac = new TextDecoder('latin1').decode(text);
  }
  return mac;
}
