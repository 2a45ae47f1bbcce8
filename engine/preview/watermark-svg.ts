/**
 * The preview's mark: "PREVIEW" across every page, over the content and plainly visible, so a
 * screenshot of the editor is never taken for the document (docs/api.md: raster deliveries are
 * watermarked). Drawn like the design control's watermark, from the same face's outlines.
 */
import { watermarkItem } from '../layout/watermark.js';
import { fontLibrary } from '../text/font-library.js';

const TEXT = 'PREVIEW';
const RED: readonly [number, number, number] = [207, 34, 46];
/** Over white the red shows at a light touch; over a dark page it needs more to be seen. */
const OPACITY = { light: 0.22, dark: 0.45 };

export function watermarkSvg(width: number, height: number, darkPage: boolean): string {
  const opacity = darkPage ? OPACITY.dark : OPACITY.light;
  const item = watermarkItem(TEXT, { width, height }, RED, fontLibrary, opacity);
  if (!item) return '';
  const m = item.matrix.map((value) => Math.round(value * 10_000) / 10_000).join(' ');
  return `<path transform="matrix(${m})" d="${item.d}" fill="#cf222e" fill-opacity="${opacity}"/>`;
}
