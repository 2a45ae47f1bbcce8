import type PDFDocument from 'pdfkit';
import type { TrueTypeSource } from './font-tables.js';
import type { PdfOperand } from './pdf-values.js';

/**
 * The parts of PDFKit 0.20 that Quire uses beyond its public API, named in one place:
 * the embedded-font subset and ToUnicode tables, page resources, the structure parent tree, the
 * order of name trees, the compression of streams and the writing of the file's bytes.
 * Tests in test/engine/paint cover each so an upgrade that moves them fails loudly.
 */
export interface PdfRef {
  data: Record<string, unknown>;
  end(chunk?: unknown): void;
}

/** An object as PDFKit writes it: the stream bytes written so far, whether it will compress them, and its writing. */
export interface StreamInternals extends PdfRef {
  buffer: Uint8Array[];
  compress: boolean;
  finalize(): void;
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
  /** Appends bytes (a string: its characters as bytes, then a newline) and counts them in `_offset`. */
  _write(data: string | Uint8Array): void;
  _offset: number;
  _font: EmbeddedFontInternals;
  _root: PdfRef;
  /** A new indirect object: a dictionary, or a string (see textString). */
  ref(data?: Record<string, unknown> | PdfOperand): PdfRef;
  getStructTreeRoot(): PdfRef;
  getStructParentTree(): { get(key: number): unknown[]; add(key: number, value: unknown): void };
  createStructParentTreeNextKey(): number;
  openImage(src: Buffer): unknown;
  /** Images opened so far: each is labelled `I<count>`. */
  _imageCount: number;
  file(src: Buffer, options: Record<string, unknown>): unknown;
  /** The document information: the Info dictionary's entries, and the XMP packet's. */
  info: Record<string, unknown>;
  /** Writes the information into the XMP packet (at the end, before the packet is closed). */
  _addInfo(): void;
}

export function internals(doc: PDFKit.PDFDocument | InstanceType<typeof PDFDocument>): DocumentInternals {
  return doc as unknown as DocumentInternals;
}

/**
 * The file's bytes, collected as PDFKit writes them. PDFKit pushes each object's few pieces
 * through its Readable stream one by one, converting strings a character at a time: about a
 * tenth of a one-page render, for bytes that are only gathered into one buffer at the end.
 * Here consecutive strings (dictionaries, object headers) are joined and converted together.
 * Call right after construction: what the constructor wrote (the header) is read back first.
 * The stream still ends as before (its 'end' event), with nothing more passed through it.
 * Returns what gives the whole file once the document has ended.
 */
export function collectBytes(doc: PDFKit.PDFDocument | InstanceType<typeof PDFDocument>): () => Uint8Array {
  const stream = doc as unknown as { read(): Buffer | null; resume(): void };
  const pdf = internals(doc);
  const header = stream.read();
  const chunks: Uint8Array[] = header ? [header] : [];
  let strings: string[] = [];
  const convertStrings = () => {
    if (strings.length === 0) return;
    chunks.push(Buffer.from(strings.join(''), 'latin1'));
    strings = [];
  };
  pdf._write = (data) => {
    if (typeof data === 'string') {
      // One byte per character, as PDFKit writes strings ('binary').
      strings.push(data, '\n');
      pdf._offset += data.length + 1;
    } else {
      convertStrings();
      chunks.push(data);
      pdf._offset += data.length;
    }
  };
  stream.resume();
  return () => {
    convertStrings();
    return new Uint8Array(Buffer.concat(chunks));
  };
}

/**
 * PDFKit writes the document information into the XMP packet as raw XML (`${this.info.Title}`),
 * so a title holding `</rdf:li>` or `<?xpacket end="w"?>` would rewrite the packet. Here every
 * value is escaped for XML while the packet is written, and characters XML 1.0 cannot hold are
 * left out; the Info dictionary, written apart, keeps the values as they are.
 */
export function escapeMetadataXml(doc: DocumentInternals): void {
  const addInfo = doc._addInfo;
  doc._addInfo = function escapedAddInfo(this: DocumentInternals) {
    const info = this.info;
    this.info = Object.fromEntries(Object.entries(info).map(([key, value]) => [key, typeof value === 'string' ? xmlText(value) : value]));
    try {
      addInfo.call(this);
    } finally {
      this.info = info;
    }
  };
}

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

function xmlText(value: string): string {
  return value
    .replace(/[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '')
    .replace(/[&<>"']/g, (char) => XML_ESCAPES[char]!);
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

/**
 * PDFKit writes an ASCII key as its bytes and any other as UTF-16BE after the byte order mark
 * FE FF, so every ASCII key comes first, and within each kind the byte order is the order of
 * UTF-16 code units, which is how JavaScript compares strings.
 */
function compareKeyBytes(a: string, b: string): number {
  const wideA = NOT_ASCII.test(a);
  const wideB = NOT_ASCII.test(b);
  if (wideA !== wideB) return wideA ? 1 : -1;
  return a < b ? -1 : a > b ? 1 : 0;
}

const NOT_ASCII = /[^\x00-\x7f]/;
