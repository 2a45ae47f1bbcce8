import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/**
 * The characters a font file covers, read from its `cmap` table alone: a few kilobytes per file
 * instead of parsing every system font whole when looking for one rare character.
 */
export interface FaceCoverage {
  /** Index of the face in a collection (0 for single fonts). */
  index: number;
  /** Covered code points as sorted, non-overlapping inclusive ranges [start, end, start, end…]. */
  ranges: Uint32Array;
}

const MAX_CMAP_BYTES = 4 << 20;

export function readCoverage(file: string): FaceCoverage[] {
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    const read = (offset: number, length: number): DataView => {
      const bytes = Buffer.alloc(Math.max(0, Math.min(length, size - offset)));
      readSync(fd, bytes, 0, bytes.length, offset);
      return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    };
    const head = read(0, 12);
    if (head.byteLength < 12) return [];
    const tag = head.getUint32(0);
    const directories = tag === 0x74746366 /* ttcf */ ? collectionOffsets(read(0, 12 + 4 * head.getUint32(8))) : [0];
    return directories.flatMap((directory, index) => {
      const ranges = faceRanges(directory, read);
      return ranges ? [{ index, ranges }] : [];
    });
  } finally {
    closeSync(fd);
  }
}

export function covers(ranges: Uint32Array, codePoint: number): boolean {
  let low = 0;
  let high = ranges.length / 2 - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (codePoint < ranges[middle * 2]!) high = middle - 1;
    else if (codePoint > ranges[middle * 2 + 1]!) low = middle + 1;
    else return true;
  }
  return false;
}

function collectionOffsets(header: DataView): number[] {
  const count = header.getUint32(8);
  return Array.from({ length: count }, (_, i) => header.getUint32(12 + 4 * i));
}

function faceRanges(directory: number, read: (offset: number, length: number) => DataView): Uint32Array | null {
  const table = read(directory, 12);
  if (table.byteLength < 12) return null;
  const tables = table.getUint16(4);
  const records = read(directory + 12, 16 * tables);
  for (let i = 0; i + 16 <= records.byteLength; i += 16) {
    if (records.getUint32(i) !== 0x636d6170 /* cmap */) continue;
    const length = Math.min(records.getUint32(i + 12), MAX_CMAP_BYTES);
    return cmapRanges(read(records.getUint32(i + 8), length));
  }
  return null;
}

/** The Unicode subtable of a cmap (format 12 preferred, else format 4) as code point ranges. */
function cmapRanges(cmap: DataView): Uint32Array | null {
  const count = cmap.getUint16(2);
  let format4: number | null = null;
  for (let i = 0; i < count && 4 + 8 * i + 8 <= cmap.byteLength; i++) {
    const platform = cmap.getUint16(4 + 8 * i);
    const encoding = cmap.getUint16(6 + 8 * i);
    const offset = cmap.getUint32(8 + 8 * i);
    if (offset + 4 > cmap.byteLength) continue;
    const format = cmap.getUint16(offset);
    const unicode = platform === 0 || (platform === 3 && (encoding === 1 || encoding === 10));
    if (!unicode) continue;
    if (format === 12) return format12(cmap, offset);
    if (format === 4) format4 ??= offset;
  }
  return format4 === null ? null : format4Ranges(cmap, format4);
}

function format12(cmap: DataView, offset: number): Uint32Array {
  const groups = cmap.getUint32(offset + 12);
  const out: number[] = [];
  for (let g = 0; g < groups && offset + 16 + 12 * g + 12 <= cmap.byteLength; g++) {
    out.push(cmap.getUint32(offset + 16 + 12 * g), cmap.getUint32(offset + 20 + 12 * g));
  }
  return Uint32Array.from(out);
}

function format4Ranges(cmap: DataView, offset: number): Uint32Array {
  const segments = cmap.getUint16(offset + 6) / 2;
  const ends = offset + 14;
  const starts = ends + 2 * segments + 2;
  const out: number[] = [];
  for (let s = 0; s < segments && starts + 2 * s + 2 <= cmap.byteLength; s++) {
    const start = cmap.getUint16(starts + 2 * s);
    const end = cmap.getUint16(ends + 2 * s);
    if (start !== 0xffff && start <= end) out.push(start, end);
  }
  return Uint32Array.from(out);
}
