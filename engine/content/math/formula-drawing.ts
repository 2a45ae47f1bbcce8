import { METRICS } from '../../style/metrics.js';
import type { Color } from '../../style/color.js';
import type { Drawing } from '../../drawing/drawing.js';
import { SvgError, svgToDrawing } from '../svg/parse-svg.js';
import { MAX_NESTING, MAX_NODES } from './bounds.js';

/**
 * MathJax's em is the body size: its TeX fonts' capitals (0.683 em) then match Source Serif's
 * (0.67 em) and its digits sit level with the text's.
 */
const POINTS_PER_UNIT = METRICS.bodySize / 1000;

/**
 * What MathJax leaves to its page stylesheet: table rules and frames (`\hline`, `array` column
 * lines, `\begin{array}{|c|}`) are strokes 0.07 em wide, dashed or dotted by class.
 */
const TABLE_STYLE = `<style>
line[data-line], rect[data-frame] { stroke-width: 70px; fill: none }
.mjx-dashed { stroke-dasharray: 140 }
.mjx-dotted { stroke-linecap: round; stroke-dasharray: 0,140 }
</style>`;

/**
 * MathJax's SVG → a Drawing in units of 1/1000 em: `unit` is points per unit at the body size and
 * `baseline` the depth of the formula's baseline below its top, read from the viewBox
 * (`0 -height width height+depth`). `currentColor` becomes the theme's text colour.
 */
export function formulaDrawing(svg: string, color: Color): Drawing {
  const viewBox = /^<svg[^>]*\sviewBox="([^"]+)"/.exec(svg)?.[1]?.trim().split(/\s+/).map(Number);
  if (!viewBox) throw new SvgError('the formula is laid out for a browser (an equation tag inside a larger formula?)');
  const top = viewBox[1]!;
  const hex = `#${color.map((channel) => channel.toString(16).padStart(2, '0')).join('')}`;
  const opened = svg.replace(/^<svg\b/, `<svg color="${hex}"`);
  const styled = /data-(?:line|frame)=/.test(svg) ? opened.replace(/^(<svg[^>]*>)/, `$1${TABLE_STYLE}`) : opened;
  // MathJax nests a few SVG groups per TeX group and draws at most a few elements per node.
  const drawing = svgToDrawing(styled, { maxDepth: 8 * MAX_NESTING, maxElements: 4 * MAX_NODES });
  return { ...drawing, unit: POINTS_PER_UNIT, baseline: -top };
}
