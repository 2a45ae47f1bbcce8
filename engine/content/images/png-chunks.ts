const SIGNATURE_BYTES = 8;
/** Length, type and CRC around each chunk's data. */
const CHUNK_FRAME_BYTES = 12;
const HEADER_BYTES = 13;

/** What a PNG's chunks say about its pixel data, before any of it is inflated. */
export interface PngLayout {
  width: number;
  height: number;
  bitDepth: number;
  colorType: number;
  interlaced: boolean;
  /** The PLTE chunk's colours (indexed images), null without one. */
  palette: Uint8Array | null;
  /** The tRNS chunk's data (a transparent colour, or the palette entries' alpha), null without one. */
  transparency: Uint8Array | null;
  /** The compressed pixel data, in order (one zlib stream split over the IDAT chunks). */
  imageData: Uint8Array[];
}

/**
 * A PNG's chunks when they are whole: IHDR first, at least one IDAT, IEND last, every chunk
 * inside the file; null otherwise. PNGs are embedded as they are and PDFKit reads them only
 * while painting, where a file cut short would fail the whole render instead of being answered
 * as an unreadable image.
 */
export function readPngChunks(bytes: Uint8Array): PngLayout | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = SIGNATURE_BYTES;
  let layout: PngLayout | null = null;
  while (offset + CHUNK_FRAME_BYTES <= bytes.length) {
    const length = view.getUint32(offset);
    const type = String.fromCharCode(...bytes.subarray(offset + 4, offset + 8));
    const data = offset + 8;
    if (data + length + 4 > bytes.length) return null;
    if (!layout) {
      if (type !== 'IHDR' || length !== HEADER_BYTES) return null;
      layout = {
        width: view.getUint32(data),
        height: view.getUint32(data + 4),
        bitDepth: bytes[data + 8]!,
        colorType: bytes[data + 9]!,
        interlaced: bytes[data + 12] === 1,
        palette: null,
        transparency: null,
        imageData: [],
      };
    } else if (type === 'PLTE') {
      layout.palette = bytes.subarray(data, data + length);
    } else if (type === 'tRNS') {
      layout.transparency = bytes.subarray(data, data + length);
    } else if (type === 'IDAT') {
      layout.imageData.push(bytes.subarray(data, data + length));
    } else if (type === 'IEND') {
      return layout.imageData.length > 0 ? layout : null;
    }
    offset += CHUNK_FRAME_BYTES + length;
  }
  return null;
}

/** Samples per pixel of each PNG colour type: grey, RGB, palette index, grey + alpha, RGBA. */
const SAMPLES: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
/** Adam7's seven passes: first column and row, then the steps between them. */
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;

/**
 * Bytes the pixel data inflates to when it holds exactly the rows the header declares: each row
 * a filter byte and its packed samples, for the whole picture or each of Adam7's seven passes.
 * Null for a colour type PNG does not define.
 */
export function declaredPixelDataBytes(layout: PngLayout): number | null {
  const samples = SAMPLES[layout.colorType];
  if (samples === undefined) return null;
  const bitsPerPixel = samples * layout.bitDepth;
  const rows = (width: number, height: number) => (width === 0 ? 0 : height * (1 + Math.ceil((width * bitsPerPixel) / 8)));
  if (!layout.interlaced) return rows(layout.width, layout.height);
  let total = 0;
  for (const [column, row, columnStep, rowStep] of ADAM7) {
    total += rows(Math.ceil(Math.max(0, layout.width - column) / columnStep), Math.ceil(Math.max(0, layout.height - row) / rowStep));
  }
  return total;
}
