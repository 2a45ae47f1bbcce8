/**
 * A finished PDF as an incremental update sees it: the trailer, where the last cross-reference
 * section starts, and where each object lives. Classic cross-reference tables only (what PDFKit
 * writes), followed through /Prev; cross-reference streams are refused.
 */
import { PdfReader, PdfSyntaxError, type PdfValue } from './pdf-syntax.js';

export interface PdfFile {
  /** The bytes as latin1, one character per byte. */
  text: string;
  trailer: Map<string, PdfValue>;
  startxref: number;
  /** Object number → byte offset of its `num gen obj`. */
  offsets: Map<number, number>;
}

/** How far from the end `startxref` may be (the spec says within the last 1024 bytes). */
const TAIL = 1024;
const MAX_SECTIONS = 32;
const SUBSECTION = /\s*(\d+)\s+(\d+)[ \t]*\r?\n?/y;
const ENTRY = /\s*(\d{10}) (\d{5}) ([nf])/y;

export function readPdfFile(bytes: Uint8Array): PdfFile {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  const marker = text.lastIndexOf('startxref', text.length);
  if (marker < 0 || marker < text.length - TAIL) throw new PdfSyntaxError('no startxref');
  const startxref = Number(/startxref\s+(\d+)/.exec(text.slice(marker))?.[1]);
  if (!Number.isSafeInteger(startxref)) throw new PdfSyntaxError('no startxref offset');

  const offsets = new Map<number, number>();
  let trailer: Map<string, PdfValue> | undefined;
  let section: number | undefined = startxref;
  for (let count = 0; section !== undefined; count++) {
    if (count === MAX_SECTIONS) throw new PdfSyntaxError('too many cross-reference sections');
    const sectionTrailer = readSection(text, section, offsets);
    trailer ??= sectionTrailer;
    const prev = sectionTrailer.get('/Prev');
    section = prev?.kind === 'token' ? Number(prev.raw) : undefined;
  }
  return { text, trailer: trailer!, startxref, offsets };
}

/** The dictionary of object `num`, read where the cross-reference table says it is. */
export function readDictObject(file: PdfFile, num: number): Map<string, PdfValue> {
  const offset = file.offsets.get(num);
  if (offset === undefined) throw new PdfSyntaxError(`object ${num} is not in the cross-reference table`);
  const reader = new PdfReader(file.text, offset);
  reader.expect(String(num));
  reader.value();
  reader.expect('obj');
  const value = reader.value();
  if (value.kind !== 'dict') throw new PdfSyntaxError(`object ${num} is not a dictionary`);
  return value.entries;
}

/** Reads one `xref` table into `offsets` (entries already known from a newer section win) and returns its trailer. */
function readSection(text: string, offset: number, offsets: Map<number, number>): Map<string, PdfValue> {
  const reader = new PdfReader(text, offset);
  reader.expect('xref');
  let position = reader.position;
  for (;;) {
    SUBSECTION.lastIndex = position;
    const header = SUBSECTION.exec(text);
    if (!header) break;
    position = SUBSECTION.lastIndex;
    const [first, count] = [Number(header[1]), Number(header[2])];
    for (let i = 0; i < count; i++) {
      ENTRY.lastIndex = position;
      const entry = ENTRY.exec(text);
      if (!entry) throw new PdfSyntaxError('malformed cross-reference entry');
      position = ENTRY.lastIndex;
      if (entry[3] === 'n' && !offsets.has(first + i)) offsets.set(first + i, Number(entry[1]));
    }
  }
  reader.position = position;
  reader.expect('trailer');
  const trailer = reader.value();
  if (trailer.kind !== 'dict') throw new PdfSyntaxError('trailer is not a dictionary');
  return trailer.entries;
}
