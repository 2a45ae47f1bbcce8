import { SEMIBOLD } from './measure.js';
import type { TextStyle } from './canvas.js';
import type { Color } from '../../style/color.js';

/** Type sizes in points for Quire's own diagrams, beside 10.5 pt body text. */
export const TITLE_SIZE = 11.5;
export const LABEL_SIZE = 9;
export const SMALL_SIZE = 7.5;
/** White space around every diagram. */
export const MARGIN = 8;

export function titleStyle(color: Color): TextStyle {
  return { size: TITLE_SIZE, color, font: SEMIBOLD, anchor: 'middle' };
}

/** Height a title line takes, its gap below included. */
export const TITLE_BAND = TITLE_SIZE * 2;
