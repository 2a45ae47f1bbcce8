import type PDFDocument from 'pdfkit';
import type { TrueTypeSource } from './truetype-subset.js';

/**
 * The parts of PDFKit 0.20 that Quire uses beyond its public API, named in one place:
 * the embedded-font subset and ToUnicode tables, page resources and the structure parent tree.
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
