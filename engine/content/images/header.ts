import { sniffImage } from '../../resources/image.js';

export type HeaderFormat = 'png' | 'jpeg' | 'gif' | 'webp';

/** What an image's header declares, read before anything decodes its pixels. */
export interface ImageHeader {
  format: HeaderFormat;
  width: number;
  height: number;
}

/** Format and declared pixel size of a PNG, JPEG, GIF or WebP image; null for anything else. */
export function readImageHeader(bytes: Uint8Array): ImageHeader | null {
  const known = sniffImage(bytes);
  if (known) return known;
  if (ascii(bytes, 0, 4) === 'GIF8') return gifHeader(bytes);
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP') return webpHeader(bytes);
  return null;
}

function ascii(bytes: Uint8Array, offset: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(offset, offset + length));
}

function u16le(bytes: Uint8Array, offset: number): number {
  return bytes[offset]! | (bytes[offset + 1]! << 8);
}

function u24le(bytes: Uint8Array, offset: number): number {
  return u16le(bytes, offset) | (bytes[offset + 2]! << 16);
}

/**
 * The larger of the logical screen and the first frame: a frame may declare itself larger than
 * the screen, and decoders allocate for the frame.
 */
function gifHeader(bytes: Uint8Array): ImageHeader | null {
  if (bytes.length < 13) return null;
  let width = u16le(bytes, 6);
  let height = u16le(bytes, 8);
  let offset = 13;
  if (bytes[10]! & 0x80) offset += 3 * (1 << ((bytes[10]! & 0x07) + 1));
  while (offset < bytes.length) {
    const introducer = bytes[offset]!;
    if (introducer === 0x2c) {
      if (offset + 9 > bytes.length) break;
      width = Math.max(width, u16le(bytes, offset + 1) + u16le(bytes, offset + 5));
      height = Math.max(height, u16le(bytes, offset + 3) + u16le(bytes, offset + 7));
      break;
    }
    if (introducer !== 0x21) break;
    // An extension: label, then sub-blocks each led by its length, ended by a zero length.
    offset += 2;
    while (offset < bytes.length && bytes[offset] !== 0) offset += bytes[offset]! + 1;
    offset++;
  }
  return { format: 'gif', width, height };
}

/** RIFF header and the first chunk's header before its data. */
const WEBP_CHUNK_DATA = 20;

/**
 * Canvas size of an extended file (VP8X), else the size in the lossy or lossless bitstream;
 * each read only as far as it needs (a whole lossless image can be 28 bytes).
 */
function webpHeader(bytes: Uint8Array): ImageHeader | null {
  const chunk = ascii(bytes, 12, 4);
  const needed = chunk === 'VP8L' ? 5 : 10;
  if (bytes.length < WEBP_CHUNK_DATA + needed) return null;
  if (chunk === 'VP8X') return { format: 'webp', width: u24le(bytes, 24) + 1, height: u24le(bytes, 27) + 1 };
  if (chunk === 'VP8 ') {
    if (bytes[23] !== 0x9d || bytes[24] !== 0x01 || bytes[25] !== 0x2a) return null;
    return { format: 'webp', width: u16le(bytes, 26) & 0x3fff, height: u16le(bytes, 28) & 0x3fff };
  }
  if (chunk === 'VP8L') {
    if (bytes[20] !== 0x2f) return null;
    const bits = (bytes[21]! | (bytes[22]! << 8) | (bytes[23]! << 16) | (bytes[24]! << 24)) >>> 0;
    return { format: 'webp', width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  return null;
}
