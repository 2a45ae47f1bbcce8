import { crc32 } from 'node:zlib';

/** PNG colour types: 2 is RGB, 6 is RGBA (8 bits a sample here). */
export type PngColorType = 2 | 6;

/** A PNG of one IDAT chunk holding `imageData` (a zlib stream), declaring `width`×`height` pixels. */
export function pngFile(width: number, height: number, colorType: PngColorType, imageData: Buffer): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, colorType, 0, 0, 0], 8); // deflate, no filter method, no interlace
  return Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), chunk('IHDR', header), chunk('IDAT', imageData), chunk('IEND', Buffer.alloc(0))]);
}

function chunk(type: string, data: Buffer): Buffer {
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}
