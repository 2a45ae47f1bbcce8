const SIGNATURE_BYTES = 8;
/** Length, type and CRC around each chunk's data. */
const CHUNK_FRAME_BYTES = 12;

/**
 * Whether a PNG's chunks are whole: IHDR first, at least one IDAT, IEND last, every chunk inside
 * the file. PNGs are embedded as they are and PDFKit reads them only while painting, where a file
 * cut short would fail the whole render instead of being answered as an unreadable image.
 */
export function isCompletePng(bytes: Uint8Array): boolean {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = SIGNATURE_BYTES;
  let first = true;
  let imageData = false;
  while (offset + CHUNK_FRAME_BYTES <= bytes.length) {
    const length = view.getUint32(offset);
    const type = String.fromCharCode(...bytes.subarray(offset + 4, offset + 8));
    if (offset + CHUNK_FRAME_BYTES + length > bytes.length) return false;
    if (first && (type !== 'IHDR' || length !== 13)) return false;
    first = false;
    if (type === 'IDAT') imageData = true;
    if (type === 'IEND') return imageData;
    offset += CHUNK_FRAME_BYTES + length;
  }
  return false;
}
