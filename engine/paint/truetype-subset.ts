/**
 * A TrueType (glyf) font subset written from the font's own bytes: each glyph's outline is copied
 * as it is, composite glyphs get their components' new ids, and the tables a PDF needs (head,
 * hhea, maxp, loca, glyf, hmtx and the hinting programs) are written around them.
 *
 * fontkit's subsetter decodes every outline into points and re-encodes every table through its
 * structure library; on a one-page document that was about 40% of the whole render. This one
 * never parses an outline, so the cost is the bytes copied.
 */
import { horizontalMetrics, tableOf, view, type TrueTypeSource } from './font-tables.js';

/**
 * The glyphs of `source` listed in `glyphs` (old ids; the new id of each is its place in the
 * list), as a standalone TrueType font. `include` is called for a composite's components that are
 * not listed yet and must append them to `glyphs`, returning their new id.
 */
export function subsetTrueType(source: TrueTypeSource, glyphs: number[], include: (glyph: number) => number): Uint8Array {
  const table = (tag: string) => tableOf(source, tag);
  const head = required(table('head'), 'head');
  const hhea = required(table('hhea'), 'hhea');
  const glyf = required(table('glyf'), 'glyf');
  const outlineOf = glyphOutlines(glyf, required(table('loca'), 'loca'), view(head).getInt16(50));
  const metrics = horizontalMetrics(required(table('hmtx'), 'hmtx'), view(hhea).getUint16(34));

  const outlines: Uint8Array[] = [];
  const loca: number[] = [0];
  const hmtx: number[] = [];
  // The list grows while it is walked: components join it as their composites are copied.
  for (let index = 0; index < glyphs.length; index++) {
    const glyph = glyphs[index]!;
    let outline = outlineOf(glyph);
    if (outline.length >= 10 && view(outline).getInt16(0) < 0) outline = renumberComponents(outline, include);
    outlines.push(outline, new Uint8Array(padding(outline.length)));
    loca.push(loca.at(-1)! + outline.length + padding(outline.length));
    hmtx.push(...metrics(glyph));
  }

  // Copies: the source is a view of the font file, shared by every render.
  const newHead = new Uint8Array(head);
  view(newHead).setUint32(8, 0); // checkSumAdjustment, set once the file is whole
  view(newHead).setInt16(50, 1); // long loca offsets
  const newHhea = new Uint8Array(hhea);
  view(newHhea).setUint16(34, glyphs.length);
  const maxp = new Uint8Array(required(table('maxp'), 'maxp'));
  view(maxp).setUint16(4, glyphs.length);

  const tables: Record<string, Uint8Array> = {
    head: newHead,
    hhea: newHhea,
    maxp,
    loca: uint32s(loca),
    glyf: concat(outlines),
    hmtx: int16s(hmtx),
  };
  for (const tag of ['cvt ', 'fpgm', 'prep']) {
    const program = table(tag);
    if (program) tables[tag] = program;
  }
  return assemble(tables);
}

function required(bytes: Uint8Array | undefined, tag: string): Uint8Array {
  if (!bytes) throw new Error(`the font has no ${tag} table`);
  return bytes;
}

function padding(length: number): number {
  return (4 - (length % 4)) % 4;
}

/**
 * A glyph's outline in glyf, read through loca (short offsets count words, long ones bytes); a
 * glyph id past the font's count (a broken font or shaper) gets an empty outline.
 */
function glyphOutlines(glyf: Uint8Array, loca: Uint8Array, format: number): (glyph: number) => Uint8Array {
  const data = view(loca);
  const entry = format === 0 ? 2 : 4;
  const offset = (i: number) => (format === 0 ? data.getUint16(i * 2) * 2 : data.getUint32(i * 4));
  return (glyph) => {
    if ((glyph + 2) * entry > loca.length) return new Uint8Array(0);
    const start = offset(glyph);
    return glyf.subarray(start, Math.max(start, offset(glyph + 1)));
  };
}

const ARGS_ARE_WORDS = 0x0001;
const HAS_SCALE = 0x0008;
const MORE_COMPONENTS = 0x0020;
const HAS_X_AND_Y_SCALE = 0x0040;
const HAS_TWO_BY_TWO = 0x0080;

/** A copy of a composite glyph whose component ids are the subset's. */
function renumberComponents(outline: Uint8Array, include: (glyph: number) => number): Uint8Array {
  const copy = new Uint8Array(outline);
  const data = view(copy);
  let at = 10; // past numberOfContours and the bounding box
  for (;;) {
    const flags = data.getUint16(at);
    data.setUint16(at + 2, include(data.getUint16(at + 2)));
    at += 4 + (flags & ARGS_ARE_WORDS ? 4 : 2);
    if (flags & HAS_SCALE) at += 2;
    else if (flags & HAS_X_AND_Y_SCALE) at += 4;
    else if (flags & HAS_TWO_BY_TWO) at += 8;
    if (!(flags & MORE_COMPONENTS)) return copy;
  }
}

function uint32s(values: number[]): Uint8Array {
  const bytes = new Uint8Array(values.length * 4);
  const data = view(bytes);
  values.forEach((value, i) => data.setUint32(i * 4, value));
  return bytes;
}

function int16s(values: number[]): Uint8Array {
  const bytes = new Uint8Array(values.length * 2);
  const data = view(bytes);
  values.forEach((value, i) => data.setInt16(i * 2, value));
  return bytes;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** The sfnt file: table directory sorted by tag, tables 4-byte aligned, checksums set. */
function assemble(tables: Record<string, Uint8Array>): Uint8Array {
  const tags = Object.keys(tables).sort();
  const directoryLength = 12 + tags.length * 16;
  const parts: Uint8Array[] = [new Uint8Array(directoryLength)];
  const directory = view(parts[0]!);
  const power = 2 ** Math.floor(Math.log2(tags.length));
  directory.setUint32(0, 0x00010000);
  directory.setUint16(4, tags.length);
  directory.setUint16(6, power * 16);
  directory.setUint16(8, Math.log2(power));
  directory.setUint16(10, tags.length * 16 - power * 16);
  let offset = directoryLength;
  tags.forEach((tag, i) => {
    const bytes = tables[tag]!;
    const record = 12 + i * 16;
    for (let k = 0; k < 4; k++) directory.setUint8(record + k, tag.charCodeAt(k));
    directory.setUint32(record + 4, checksum(bytes));
    directory.setUint32(record + 8, offset);
    directory.setUint32(record + 12, bytes.length);
    parts.push(bytes, new Uint8Array(padding(bytes.length)));
    offset += bytes.length + padding(bytes.length);
  });
  const font = concat(parts);
  const headAt = view(font).getUint32(12 + tags.indexOf('head') * 16 + 8);
  view(font).setUint32(headAt + 8, (0xb1b0afba - checksum(font)) >>> 0);
  return font;
}

function checksum(bytes: Uint8Array): number {
  const data = view(bytes);
  let sum = 0;
  const whole = bytes.length - (bytes.length % 4);
  for (let at = 0; at < whole; at += 4) sum = (sum + data.getUint32(at)) >>> 0;
  let last = 0;
  for (let at = whole; at < bytes.length; at++) last |= bytes[at]! << (24 - 8 * (at - whole));
  return (sum + last) >>> 0;
}
