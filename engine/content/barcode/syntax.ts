import { findSymbology, SYMBOLOGIES, SYMBOLOGY_NAMES, type Symbology } from './symbologies.js';

export type BarcodeFence = 'qr' | 'barcode';

/** What a ```barcode or ```qr block asks for. */
export interface BarcodeRequest {
  symbology: Symbology;
  data: string;
  /** Width of the symbol in points (its quiet zone not counted), or null for natural size. */
  width: number | null;
  /** Height of a linear code's bars in points, or null for the symbology's own. */
  height: number | null;
  caption: string | null;
  /** QR error correction level. */
  ecc: 'L' | 'M' | 'Q' | 'H' | null;
}

export type BarcodeReading = { ok: true; request: BarcodeRequest } | { ok: false; reason: string };

/** Characters of data: more than any symbology here holds (QR: 2,953 bytes), and bwip-js slows past it. */
export const MAX_DATA = 3_000;

const POINTS_PER: Record<string, number> = { mm: 72 / 25.4, cm: 720 / 25.4, in: 72, pt: 1 };
const MIN_SIZE = 5 * POINTS_PER.mm!;
const MAX_SIZE = 500 * POINTS_PER.mm!;
const KEYS: Record<BarcodeFence, ReadonlySet<string>> = {
  barcode: new Set(['type', 'data', 'size', 'height', 'caption', 'ecc']),
  qr: new Set(['data', 'size', 'caption', 'ecc']),
};
const OPTION_LINE = /^([A-Za-z][\w -]*?)\s*:\s*(.*)$/;

/**
 * Reads a block: leading `key: value` lines are options (`type`, `data`, `size`, `height`,
 * `caption`, `ecc`; in ```barcode also `SYMBOLOGY: DATA`), and unless `data:` was given, the lines
 * after them (past blank lines) are the data, kept as written. The first line that is not an
 * option starts the data, so ```qr can hold a bare URL or several lines.
 */
export function readBarcode(fence: BarcodeFence, source: string): BarcodeReading {
  const lines = source.replace(/\r\n?/g, '\n').replace(/\n+$/, '').split('\n');
  const options = new Map<string, string>();
  const set = (key: string, value: string): string | null => {
    if (options.has(key)) return `"${key}" is given twice`;
    options.set(key, value);
    return null;
  };
  let index = 0;
  for (; index < lines.length; index++) {
    const match = OPTION_LINE.exec(lines[index]!);
    if (!match) break;
    const key = match[1]!.toLowerCase().replace(/[\s_-]+/g, '');
    const value = match[2]!.trim();
    let problem: string | null;
    if (KEYS[fence].has(key)) problem = set(key, value);
    else if (fence === 'barcode' && findSymbology(key)) problem = set('type', key) ?? set('data', value);
    else if (fence === 'barcode' && index === 0) problem = unknownSymbology(match[1]!);
    else break;
    if (problem) return { ok: false, reason: problem };
  }
  const rest = lines.slice(index);
  while (rest[0]?.trim() === '') rest.shift();
  if (options.has('data')) {
    const extra = rest.find((line) => line.trim() !== '');
    if (extra !== undefined) return { ok: false, reason: `unexpected line after the options: "${extra.trim().slice(0, 40)}"` };
  } else {
    options.set('data', rest.join('\n'));
  }
  return checkRequest(fence, options);
}

function checkRequest(fence: BarcodeFence, options: Map<string, string>): BarcodeReading {
  const fail = (reason: string) => ({ ok: false as const, reason });
  const type = fence === 'qr' ? 'qrcode' : options.get('type');
  if (!type) return fail('no symbology: begin with a line such as "code128: DATA" or "type: ean13"');
  const symbology = findSymbology(type);
  if (!symbology) return fail(unknownSymbology(type));
  const data = options.get('data')!;
  if (data.trim() === '') return fail('no data to encode');
  if (data.length > MAX_DATA) return fail(`the data is longer than ${MAX_DATA} characters`);
  const width = length(options.get('size'));
  if (width === undefined) return fail('size must be a length from 5mm to 500mm, such as 40mm, 4cm, 1.5in or 120pt');
  const height = length(options.get('height'));
  if (height === undefined) return fail('height must be a length from 5mm to 500mm, such as 15mm');
  if (height !== null && !symbology.linear) return fail(`height applies to linear barcodes; a ${symbology.label} takes only size`);
  const ecc = options.get('ecc')?.toUpperCase() ?? null;
  if (ecc !== null && symbology !== SYMBOLOGIES.qrcode) return fail('ecc (error correction) applies to QR codes');
  if (ecc !== null && !isLevel(ecc)) return fail('ecc must be L, M, Q or H');
  return { ok: true, request: { symbology, data, width, height, caption: options.get('caption') || null, ecc } };
}

function unknownSymbology(name: string): string {
  return `unknown symbology "${name}" (Quire draws ${SYMBOLOGY_NAMES.join(', ')})`;
}

/** A length option in points: null when absent, undefined when unreadable or out of range. */
function length(value: string | undefined): number | null | undefined {
  if (value === undefined) return null;
  const match = /^(\d+(?:\.\d+)?)\s*(mm|cm|in|pt)$/i.exec(value);
  if (!match) return undefined;
  const points = Number(match[1]) * POINTS_PER[match[2]!.toLowerCase()]!;
  return points >= MIN_SIZE && points <= MAX_SIZE ? points : undefined;
}

function isLevel(value: string): value is 'L' | 'M' | 'Q' | 'H' {
  return value === 'L' || value === 'M' || value === 'Q' || value === 'H';
}
