/**
 * The EXIF orientation of a JPEG (1–8; 1 when absent or unreadable). PDFKit reads the same tag
 * and rotates or flips the image into the box it is given at paint; layout needs to know
 * beforehand that orientations 5–8 swap the image's width and height.
 */
export function jpegOrientation(bytes: Uint8Array): number {
  let offset = 2;
  while (offset + 4 <= bytes.length) {
    if (bytes[offset] !== 0xff) return 1;
    const marker = bytes[offset + 1]!;
    if (marker === 0xda || marker === 0xd9) return 1;
    const length = (bytes[offset + 2]! << 8) | bytes[offset + 3]!;
    if (marker === 0xe1 && ascii(bytes, offset + 4, 6) === 'Exif\0\0') return tiffOrientation(bytes.subarray(offset + 10, offset + 2 + length));
    offset += 2 + length;
  }
  return 1;
}

export function swapsSides(orientation: number): boolean {
  return orientation >= 5 && orientation <= 8;
}

function ascii(bytes: Uint8Array, offset: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(offset, offset + length));
}

/** Looks for tag 0x0112 in the first image file directory of the EXIF TIFF block. */
function tiffOrientation(tiff: Uint8Array): number {
  if (tiff.length < 8) return 1;
  const little = ascii(tiff, 0, 2) === 'II';
  const view = new DataView(tiff.buffer, tiff.byteOffset, tiff.byteLength);
  const u16 = (at: number) => view.getUint16(at, little);
  const directory = view.getUint32(4, little);
  if (directory + 2 > tiff.length) return 1;
  const entries = u16(directory);
  for (let i = 0; i < entries; i++) {
    const entry = directory + 2 + i * 12;
    if (entry + 12 > tiff.length) return 1;
    if (u16(entry) === 0x0112) {
      const value = u16(entry + 8);
      return value >= 1 && value <= 8 ? value : 1;
    }
  }
  return 1;
}
