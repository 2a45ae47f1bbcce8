/**
 * Font files made for tests from the bundled ones: a copy with another OS/2 fsType (the table's
 * checksum left as it was: no reader Quire uses checks it), and a TrueType collection of several
 * fonts (each font's table directory kept, its offsets moved to where its tables now lie).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { FIXTURES } from './fixtures.js';

/** The bundled fonts' folder. */
export const FONTS = path.resolve(FIXTURES, '../engine/fonts');

export function bundledFont(file: string): Uint8Array {
  return new Uint8Array(readFileSync(path.join(FONTS, file)));
}

/** Where a table of a single (non-collection) font starts. */
function tableOffset(font: Uint8Array, tag: string): number {
  const data = new DataView(font.buffer, font.byteOffset, font.byteLength);
  const count = data.getUint16(4);
  for (let i = 0; i < count; i++) {
    const record = 12 + 16 * i;
    if (String.fromCharCode(...font.subarray(record, record + 4)) === tag) return data.getUint32(record + 8);
  }
  throw new Error(`no ${tag} table`);
}

/** A copy of `font` whose OS/2 fsType is `fsType`, nothing else changed. */
export function withFsType(font: Uint8Array, fsType: number): Uint8Array {
  const copy = new Uint8Array(font);
  new DataView(copy.buffer).setUint16(tableOffset(copy, 'OS/2') + 8, fsType);
  return copy;
}

/** A TrueType collection (`ttcf`, version 1.0) of single fonts, in order. */
export function collectionOf(fonts: readonly Uint8Array[]): Uint8Array {
  const headerLength = 12 + 4 * fonts.length;
  const starts: number[] = [];
  let length = headerLength;
  for (const font of fonts) {
    starts.push(length);
    length += Math.ceil(font.length / 4) * 4;
  }
  const out = new Uint8Array(length);
  const data = new DataView(out.buffer);
  out.set([0x74, 0x74, 0x63, 0x66]); // ttcf
  data.setUint32(4, 0x00010000);
  data.setUint32(8, fonts.length);
  fonts.forEach((font, index) => {
    const start = starts[index]!;
    data.setUint32(12 + 4 * index, start);
    out.set(font, start);
    // Each table's offset was from the start of its own file; in the collection, from the start of the whole.
    const count = data.getUint16(start + 4);
    for (let i = 0; i < count; i++) {
      const record = start + 12 + 16 * i;
      data.setUint32(record + 8, data.getUint32(record + 8) + start);
    }
  });
  return out;
}
