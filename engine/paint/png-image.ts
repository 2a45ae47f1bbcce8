/**
 * PNG images embedded by Quire rather than by PDFKit, for the kinds screenshots, logos and
 * diagrams come in (all but interlaced ones, 16-bit ones with alpha, and those with a
 * transparent colour or below 8 bits with transparent palette entries): PDFKit
 * reads PNGs with png-js, which copies the compressed data into a JavaScript array byte by byte
 * and unfilters in generic code — a 1600×1000 screenshot with transparency took ~150 ms. The
 * objects written are PDFKit's. Without alpha the compressed data goes in as it is, under the
 * PNG predictor, at any bit depth. With alpha (8 bits a sample) the pixels are unfiltered once
 * and split into the colour and a soft mask; an indexed image with a tRNS chunk keeps its data
 * and gets a soft mask from its palette entries' alpha.
 *
 * The image was checked before layout (raster-check.ts): its chunks are whole and its pixel
 * data inflates to no more than its header declares. That check inflates the data too, counting
 * and dropping it: an image with alpha is inflated twice per render (once per session with a
 * RenderCache), the price of not holding every image's pixels from the check to painting.
 */
import { constants, deflateSync, inflateSync } from 'node:zlib';
import { declaredPixelDataBytes, readPngChunks, type PngLayout } from '../content/images/png-chunks.js';
import { createHash } from '../hash.js';
import { RecentlyUsed } from '../recently-used.js';
import type { DocumentInternals, PdfRef } from './pdfkit-internals.js';

/** An image with alpha as it is written: its colour and its soft mask, each compressed. */
interface SplitImage {
  color: Buffer;
  mask: Buffer;
}

/**
 * Images with alpha split and compressed by earlier renders, by the PNG's bytes: a document
 * rendered again as it is edited (a RenderCache) decodes a screenshot once, not at every render.
 */
export class SplitImageCache {
  private readonly images = new RecentlyUsed<string, SplitImage>(MOST_SPLIT_IMAGE_BYTES, (image) => image.color.byteLength + image.mask.byteLength);
  /** Images taken from the cache, and split anew, over the renders so far. */
  readonly counts = { reused: 0, split: 0 };

  split(png: PngLayout, make: () => SplitImage): SplitImage {
    const hash = createHash('sha256');
    for (const part of png.imageData) hash.update(part);
    const key = `${png.width}x${png.height} ${png.colorType} ${hash.digest('base64')}`;
    let image = this.images.get(key);
    if (image === undefined) {
      image = make();
      this.images.set(key, image);
      this.counts.split += 1;
    } else this.counts.reused += 1;
    return image;
  }
}

/** What the compressed colours and masks kept weigh at most. */
const MOST_SPLIT_IMAGE_BYTES = 32 * 1024 * 1024;

/** Samples a pixel has, by the colour types embedded here. */
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

/** The PNG's layout when it is of a kind embedded here; null leaves it to PDFKit. */
export function ownPngLayout(bytes: Uint8Array): PngLayout | null {
  const png = readPngChunks(bytes);
  if (png === null || png.interlaced || png.width === 0 || png.height === 0) return null;
  if (CHANNELS[png.colorType] === undefined || (png.colorType === 3) !== (png.palette !== null)) return null;
  // Samples are unfiltered here only at 8 bits: for alpha, and for an indexed image's transparent entries.
  if (hasAlpha(png) && png.bitDepth !== 8) return null;
  if (png.transparency !== null && (png.colorType !== 3 || png.bitDepth !== 8)) return null;
  return png;
}

function hasAlpha(png: PngLayout): boolean {
  return png.colorType === 4 || png.colorType === 6;
}

/** An image PDFKit's `image()` draws as one of its own: it reads `width`, `height`, `label` and `obj`, and calls `embed`. */
export class OwnPngImage {
  readonly width: number;
  readonly height: number;
  obj: PdfRef | null = null;

  constructor(
    private readonly png: PngLayout,
    readonly label: string,
    private readonly cache: SplitImageCache | undefined,
  ) {
    this.width = png.width;
    this.height = png.height;
  }

  embed(document: DocumentInternals): void {
    const { png } = this;
    const alpha = hasAlpha(png);
    const colors = png.colorType === 2 || png.colorType === 6 ? 3 : 1;
    const obj = document.ref({
      Type: 'XObject',
      Subtype: 'Image',
      BitsPerComponent: alpha ? 8 : png.bitDepth,
      Width: png.width,
      Height: png.height,
      Filter: 'FlateDecode',
    });
    this.obj = obj;
    if (!alpha) {
      const params = document.ref({ Predictor: 15, Colors: colors, BitsPerComponent: png.bitDepth, Columns: png.width });
      obj.data.DecodeParms = params;
      params.end();
    }
    if (png.palette === null) obj.data.ColorSpace = colors === 3 ? 'DeviceRGB' : 'DeviceGray';
    else {
      const palette = document.ref();
      palette.end(png.palette);
      obj.data.ColorSpace = ['Indexed', 'DeviceRGB', png.palette.length / 3 - 1, palette];
    }
    const compressed = Buffer.concat(png.imageData);
    const transparency = png.transparency;
    if (!alpha && transparency === null) {
      obj.end(compressed);
      return;
    }
    const split = (): SplitImage => {
      const pixels = unfiltered(png, compressed);
      if (transparency !== null) return { color: compressed, mask: deflateSync(pixels.map((entry) => transparency[entry] ?? 255)) };
      const { color, mask } = splitAlpha(pixels, colors);
      return { color: deflateSync(color), mask: deflateSync(mask) };
    };
    const { color, mask } = this.cache ? this.cache.split(png, split) : split();
    const softMask = document.ref({
      Type: 'XObject',
      Subtype: 'Image',
      Height: png.height,
      Width: png.width,
      BitsPerComponent: 8,
      Filter: 'FlateDecode',
      ColorSpace: 'DeviceGray',
      Decode: [0, 1],
    });
    softMask.end(mask);
    obj.data.SMask = softMask;
    obj.end(color);
  }
}

/**
 * The pixels, each scanline's filter undone. The inflated size was checked before layout; the
 * limit here holds it to that whatever happened since. Missing rows stay transparent black and a
 * scanline with a filter PNG does not define is taken as unfiltered: a damaged image draws
 * damaged, never fails the document.
 */
function unfiltered(png: PngLayout, compressed: Buffer): Uint8Array {
  const bpp = CHANNELS[png.colorType]!;
  const stride = png.width * bpp;
  const declared = declaredPixelDataBytes(png)!;
  // One output buffer of the declared size: in 16 KB pieces (zlib's default) a screenshot's
  // pixels were hundreds of buffers, then copied into one.
  const data = inflateSync(compressed, { chunkSize: Math.max(64, declared), maxOutputLength: declared, finishFlush: constants.Z_SYNC_FLUSH });
  const rows = Math.min(png.height, Math.floor(data.length / (stride + 1)));
  const out = new Uint8Array(stride * png.height);
  let from = 0;
  for (let y = 0; y < rows; y++) {
    const filter = data[from++]!;
    const row = y * stride;
    unfilterRow(filter, data, from, out, row, y > 0 ? row - stride : -1, stride, bpp);
    from += stride;
  }
  return out;
}

/**
 * Undoes one scanline's filter into `out` at `row`, from the line above at `above` (-1 on the
 * first line, where the line above counts as zeros, as do the bytes left of the first pixel).
 */
function unfilterRow(filter: number, data: Uint8Array, from: number, out: Uint8Array, row: number, above: number, stride: number, bpp: number): void {
  const first = Math.min(bpp, stride);
  if (filter === 1 || (filter === 4 && above < 0)) {
    // Sub; and Paeth on the first line, where it always predicts the pixel to the left.
    for (let x = 0; x < first; x++) out[row + x] = data[from + x]!;
    for (let x = first; x < stride; x++) out[row + x] = data[from + x]! + out[row + x - bpp]!;
  } else if (filter === 2 && above >= 0) {
    for (let x = 0; x < stride; x++) out[row + x] = data[from + x]! + out[above + x]!;
  } else if (filter === 3) {
    if (above < 0) {
      for (let x = 0; x < first; x++) out[row + x] = data[from + x]!;
      for (let x = first; x < stride; x++) out[row + x] = data[from + x]! + (out[row + x - bpp]! >> 1);
    } else {
      for (let x = 0; x < first; x++) out[row + x] = data[from + x]! + (out[above + x]! >> 1);
      for (let x = first; x < stride; x++) out[row + x] = data[from + x]! + ((out[row + x - bpp]! + out[above + x]!) >> 1);
    }
  } else if (filter === 4) {
    // Paeth below the first line: the first pixel's left and upper left are zeros, so it predicts the pixel above.
    for (let x = 0; x < first; x++) out[row + x] = data[from + x]! + out[above + x]!;
    for (let x = first; x < stride; x++) out[row + x] = data[from + x]! + paeth(out[row + x - bpp]!, out[above + x]!, out[above + x - bpp]!);
  } else {
    // None; Up on the first line; and a filter PNG does not define, taken as None.
    out.set(data.subarray(from, from + stride), row);
  }
}

function paeth(left: number, up: number, upLeft: number): number {
  const estimate = left + up - upLeft;
  const toLeft = Math.abs(estimate - left);
  const toUp = Math.abs(estimate - up);
  const toUpLeft = Math.abs(estimate - upLeft);
  if (toLeft <= toUp && toLeft <= toUpLeft) return left;
  return toUp <= toUpLeft ? up : upLeft;
}

/** Pixels with alpha as the colour samples and the alpha samples apart (the image and its soft mask). */
function splitAlpha(pixels: Uint8Array, colors: number): { color: Uint8Array; mask: Uint8Array } {
  const count = pixels.length / (colors + 1);
  const color = new Uint8Array(count * colors);
  const mask = new Uint8Array(count);
  if (colors === 3) {
    for (let pixel = 0, from = 0, to = 0; pixel < count; pixel++, from += 4, to += 3) {
      color[to] = pixels[from]!;
      color[to + 1] = pixels[from + 1]!;
      color[to + 2] = pixels[from + 2]!;
      mask[pixel] = pixels[from + 3]!;
    }
  } else {
    for (let pixel = 0, from = 0; pixel < count; pixel++, from += 2) {
      color[pixel] = pixels[from]!;
      mask[pixel] = pixels[from + 1]!;
    }
  }
  return { color, mask };
}
