/** A kind of barcode Quire draws, and how bwip-js (Barcode Writer in Pure PostScript) names it. */
export interface Symbology {
  /** bwip-js encoder. */
  bcid: string;
  /** The name people know, for the text alternative. */
  label: string;
  /** Linear codes print their data under the bars and take a bar height. */
  linear: boolean;
  /**
   * Blank margin scanners need around the symbol, in bwip-js units (1 pt at natural size; a
   * linear module is 1 unit, a 2-D module 2): 10 modules beside linear codes, 4 around QR.
   */
  quiet: readonly [horizontal: number, vertical: number];
}

const linear = (bcid: string, label: string): Symbology => ({ bcid, label, linear: true, quiet: [10, 4] });
const matrix = (bcid: string, label: string, quiet: number): Symbology => ({ bcid, label, linear: false, quiet: [quiet, quiet] });

/** Symbologies by the name written in a ```barcode block (lower case, without spaces, `-` or `_`). */
export const SYMBOLOGIES: Readonly<Record<string, Symbology>> = {
  code128: linear('code128', 'Code 128 barcode'),
  code39: linear('code39', 'Code 39 barcode'),
  code93: linear('code93', 'Code 93 barcode'),
  ean13: linear('ean13', 'EAN-13 barcode'),
  ean8: linear('ean8', 'EAN-8 barcode'),
  upca: linear('upca', 'UPC-A barcode'),
  upce: linear('upce', 'UPC-E barcode'),
  isbn: linear('isbn', 'ISBN barcode'),
  itf14: linear('itf14', 'ITF-14 barcode'),
  qrcode: matrix('qrcode', 'QR code', 8),
  datamatrix: matrix('datamatrix', 'Data Matrix code', 4),
  pdf417: matrix('pdf417', 'PDF417 code', 4),
  azteccode: matrix('azteccode', 'Aztec code', 4),
};

const ALIASES: Readonly<Record<string, string>> = { qr: 'qrcode', aztec: 'azteccode' };

/** Names as written in documents, for error messages. */
export const SYMBOLOGY_NAMES = Object.keys(SYMBOLOGIES);

/** The symbology a name stands for (`EAN-13`, `ean13`, `Code 128`, `qr` …), if Quire draws it. */
export function findSymbology(name: string): Symbology | null {
  const key = name.toLowerCase().replace(/[\s_-]+/g, '');
  return SYMBOLOGIES[ALIASES[key] ?? key] ?? null;
}
