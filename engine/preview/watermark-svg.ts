/**
 * The preview's mark: "PREVIEW" across every page, over the content and plainly visible, so a
 * screenshot of the editor is never taken for the document (SPEC: raster deliveries are
 * watermarked). Drawn like the design control's watermark, from the same face's outlines.
 */
import { watermarkItem } from '../layout/watermark.js';
import { fontLibrary } from '../text/font-library.js';

const TEXT = 'PREVIEW';
const RED: readonly [number, number, number] = [207, 34, 46];
const OPACITY = 0.22;

export function watermarkSvg(width: number, height: number): string {
  const item = watermarkItem(TEXT, { width, height }, RED, fontLibrary, OPACITY);
  if (!item) return '';
  const m = item.matrix.map((value) => Math.round(value * 10_000) / 10_000).join(' ');
  return `<path transform="matrix(${m})" d="${item.d}" fill="#cf222e" fill-opacity="${OPACITY}"/>`;
}
