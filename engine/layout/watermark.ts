import type { Matrix } from '../drawing/matrix.js';
import type { FontLibrary } from '../text/font-library.js';
import type { PathItem } from './frame.js';
import type { Color } from '../style/color.js';

/** The watermark spans this share of the page's diagonal, up to a largest size. */
const DIAGONAL_SHARE = 0.6;
const LARGEST_SIZE = 180;
/** Light enough to read the text through, dark enough to notice. */
export const WATERMARK_OPACITY = 0.13;
const STYLE = { family: 'serif', weight: 'semibold', italic: false } as const;

/**
 * Text drawn large and light across the page, from the lower left to the upper right, under the
 * content. Drawn as the glyphs' outlines, an artifact: a watermark is no part of the text, so it
 * neither reads aloud nor turns up in every page's copied or extracted text.
 */
export function watermarkItem(
  text: string,
  page: { width: number; height: number },
  color: Color,
  fonts: FontLibrary,
  opacity = WATERMARK_OPACITY,
): PathItem | null {
  const face = fonts.faceForRun(STYLE, text) ?? fonts.primary(STYLE);
  const shaped = face.shape(text);
  let pen = 0;
  const outlines: string[] = [];
  for (const glyph of shaped.glyphs) {
    const outline = face.font
      .getGlyph(glyph.id)
      .path.translate(pen + glyph.dx, glyph.dy)
      .toSVG();
    if (outline !== '') outlines.push(outline);
    pen += glyph.advance;
  }
  if (outlines.length === 0 || shaped.advance <= 0) return null;
  const diagonal = Math.hypot(page.width, page.height);
  const scale = Math.min((DIAGONAL_SHARE * diagonal) / shaped.advance, LARGEST_SIZE / face.unitsPerEm);
  const angle = Math.atan2(page.height, page.width);
  return {
    kind: 'path',
    d: outlines.join(''),
    matrix: centredTurned(scale, angle, shaped.advance, face.capHeight, page),
    fill: color,
    fillOpacity: opacity,
    fillRule: 'nonzero',
    stroke: null,
    tag: null,
  };
}

/**
 * Font units (y up) to the page (y down): the text's middle at the page's centre, scaled, flipped
 * and turned by `angle` to rise to the right.
 */
function centredTurned(scale: number, angle: number, advance: number, capHeight: number, page: { width: number; height: number }): Matrix {
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const [a, b, c, d] = [scale * cos, -scale * sin, -scale * sin, -scale * cos];
  const [x, y] = [-advance / 2, -capHeight / 2];
  return [a, b, c, d, page.width / 2 + a * x + c * y, page.height / 2 + b * x + d * y];
}
