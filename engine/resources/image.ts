import { RendererBoundError } from '../errors.js';
import type { RendererBounds } from '../options.js';
import type { Drawing } from '../drawing/drawing.js';
import type { RasterFormat, RasterImage } from '../drawing/raster-image.js';

/** An image ready to place: its pixels' size is known, its bytes untouched; or a vector drawing. */
export type ImageResource =
  | RasterImage
  /** An SVG image as vectors. */
  | { kind: 'vector'; id: string; drawing: Drawing }
  /** Lenient mode: drawn as a placeholder box with the alternative text. */
  | { kind: 'failed'; id: string; reason: string };

export interface ImageInfo {
  format: RasterFormat;
  width: number;
  height: number;
}

/** Reads format and pixel size from the header, before anything decodes the image. */
export function sniffImage(bytes: Uint8Array): ImageInfo | null {
  if (isPng(bytes)) {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (bytes.length < 24) return null;
    return { format: 'png', width: view.getUint32(16), height: view.getUint32(20) };
  }
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return jpegInfo(bytes);
  return null;
}

/** Refuses images whose declared size would exhaust memory once decoded. */
export function checkImageBounds(info: { width: number; height: number }, bounds: RendererBounds): void {
  if (info.width > bounds.maxImageSide || info.height > bounds.maxImageSide) {
    throw new RendererBoundError('ImageDimensionsTooLarge', `an image is larger than ${bounds.maxImageSide} pixels on a side`);
  }
  if (info.width * info.height > bounds.maxImagePixels) {
    throw new RendererBoundError('ImageTooManyPixels', `an image has more than ${bounds.maxImagePixels} pixels`);
  }
}

function isPng(bytes: Uint8Array): boolean {
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  return signature.every((byte, i) => bytes[i] === byte);
}

/** Walks JPEG segments to the first start-of-frame marker, which holds the size. */
function jpegInfo(bytes: Uint8Array): ImageInfo | null {
  let offset = 2;
  while (offset + 9 < bytes.length) {
    if (bytes[offset] !== 0xff) return null;
    const marker = bytes[offset + 1]!;
    if (marker === 0xff) {
      offset++;
      continue;
    }
    const length = (bytes[offset + 2]! << 8) | bytes[offset + 3]!;
    const isStartOfFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isStartOfFrame) {
      const height = (bytes[offset + 5]! << 8) | bytes[offset + 6]!;
      const width = (bytes[offset + 7]! << 8) | bytes[offset + 8]!;
      return { format: 'jpeg', width, height };
    }
    offset += 2 + length;
  }
  return null;
}
