import { crc32 } from 'node:zlib';

/** PNG colour types (8 bits a sample here): 0 grey, 2 RGB, 3 indexed, 4 grey and alpha, 6 RGBA. */
export type PngColorType = 0 | 2 | 3 | 4 | 6;

export interface PngExtras {
  /** Bits a sample (8 unless given). */
  bitDepth?: number;
  /** The PLTE chunk of an indexed image. */
  palette?: Buffer;
  /** The tRNS chunk. */
  transparency?: Buffer;
}

/** A PNG of one IDAT chunk holding `imageData` (a zlib stream), declaring `width`×`height` pixels. */
export function pngFile(width: number, height: number, colorType: PngColorType, imageData: Buffer, extras: PngExtras = {}): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([extras.bitDepth ?? 8, colorType, 0, 0, 0], 8); // deflate, no filter method, no interlace
  const colours = [...(extras.palette ? [chunk('PLTE', extras.palette)] : []), ...(extras.transparency ? [chunk('tRNS', extras.transparency)] : [])];
  return Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), chunk('IHDR', header), ...colours, chunk('IDAT', imageData), chunk('IEND', Buffer.alloc(0))]);
}

function chunk(type: string, data: Buffer): Buffer {
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}
