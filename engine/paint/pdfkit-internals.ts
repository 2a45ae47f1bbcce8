import type PDFDocument from 'pdfkit';
import type { TrueTypeSource } from './truetype-subset.js';

/**
 * The parts of PDFKit 0.20 that Quire uses beyond its public API, named in one place:
 * the embedded-font subset and ToUnicode tables, page resources, the structure parent tree and
 * the order of name trees.
 * Tests in test/engine/paint cover each so an upgrade that moves them fails loudly.
 */
export interface PdfRef {
  data: Record<string, unknown>;
  end(chunk?: unknown): void;
}

export interface EmbeddedFontInternals {
  id: string;
  scale: number;
  font: { getGlyph(id: number): { advanceWidth: number }; _variationProcessor: unknown } & TrueTypeSource;
  /** fontkit's subset: `glyphs` are the old ids in the order of their new ones. */
  subset: { glyphs: number[]; includeGlyph(id: number): number; encode(): Buffer };
  widths: number[];
  unicode: number[][];
  ref(): PdfRef;
}

export interface PageInternals {
  height: number;
  dictionary: PdfRef;
  fonts: Record<string, PdfRef>;
  annotations: PdfRef[];
  structParentTreeKey: number;
  write(chunk: string | Uint8Array): void;
}

export interface DocumentInternals {
  page: PageInternals;
  _font: EmbeddedFontInternals;
  _root: PdfRef;
  ref(data?: Record<string, unknown>): PdfRef;
  getStructTreeRoot(): PdfRef;
  getStructParentTree(): { get(key: number): unknown[]; add(key: number, value: unknown): void };
  createStructParentTreeNextKey(): number;
  openImage(src: Buffer): unknown;
  file(src: Buffer, options: Record<string, unknown>): unknown;
}

export function internals(doc: PDFKit.PDFDocument | InstanceType<typeof PDFDocument>): DocumentInternals {
  return doc as unknown as DocumentInternals;
}

/**
 * Name trees (named destinations, attached files) list their keys in the order of their bytes,
 * as ISO 32000-1 (7.9.6) asks. PDFKit sorts them with `localeCompare`, whose order depends on the
 * machine's locale (the same document would differ between machines) and which starts ICU's
 * collator, about 8 ms of a one-page render. Call before the document ends.
 */
export function sortNameTreesByBytes(doc: DocumentInternals): void {
  const names = doc._root.data.Names as PdfRef | undefined;
  for (const tree of Object.values(names?.data ?? {})) {
    if (typeof (tree as NameTree)._compareKeys === 'function') (tree as NameTree)._compareKeys = compareKeyBytes;
  }
}

interface NameTree {
  _compareKeys(a: string, b: string): number;
}

function compareKeyBytes(a: string, b: string): number {
  const left = keyBytes(a);
  const right = keyBytes(b);
  return left < right ? -1 : left > right ? 1 : 0;
}

/** A key as PDFKit writes it, one character per byte: ASCII as is, anything else as UTF-16BE after a byte order mark. */
function keyBytes(key: string): string {
  if (!/[^\x00-\x7f]/.test(key)) return key;
  let bytes = '\xfe\xff';
  for (let i = 0; i < key.length; i++) bytes += String.fromCharCode(key.charCodeAt(i) >> 8, key.charCodeAt(i) & 0xff);
  return bytes;
}
