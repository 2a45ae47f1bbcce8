import type { Link, Marks } from '../../document/types.js';
import type { FeatureSet } from '../../text/face.js';
import type { FontStyle } from '../../text/font-catalog.js';
import type { StructId } from '../structure.js';
import { METRICS } from '../../style/metrics.js';
import type { Color } from '../../style/color.js';
import type { Palette } from '../../style/palette.js';

/** How one stretch of inline content is drawn. */
export interface RunStyle {
  font: FontStyle;
  size: number;
  color: Color;
  /** Baseline shift in points, positive upwards (superscripts). */
  rise: number;
  features: FeatureSet;
  /** Tint behind inline code, a key cap or highlighted text. */
  background: Color | null;
  /** Outline around the tint (a key cap). */
  border?: Color | null;
  strike: boolean;
  underline?: boolean;
  link: Link | null;
  /** The Link structure element that owns the link's annotations. */
  linkTag: StructId | null;
  /** The structure element the text belongs to (its paragraph, or a Link or Code inside it). */
  tag: StructId | null;
}

/** The paragraph-level look that inline marks modify. */
export interface BaseStyle {
  font: FontStyle;
  size: number;
  color: Color;
  features: FeatureSet;
}

export interface StyleTags {
  link: Link | null;
  linkTag: StructId | null;
  tag: StructId | null;
}

export function styleFor(marks: Marks, base: BaseStyle, palette: Palette, tags: StyleTags): RunStyle {
  const { link } = tags;
  const code = marks.code || marks.kbd === true;
  const weight = marks.bold ? (base.font.weight === 'regular' ? 'bold' : base.font.weight) : base.font.weight;
  const font: FontStyle = code
    ? { family: 'mono', weight: weight === 'regular' ? 'regular' : 'bold', italic: marks.italic }
    : { family: base.font.family, weight, italic: marks.italic || base.font.italic };
  let size = code && base.font.family !== 'mono' ? base.size * (marks.kbd ? METRICS.kbdScale : METRICS.inlineCodeScale) : base.size;
  let rise = 0;
  if (marks.sup || marks.sub) {
    size *= METRICS.scriptScale;
    rise = marks.sup ? base.size * 0.36 : -base.size * 0.16;
  }
  return {
    font,
    size,
    color: marks.error ? palette.missingGlyph : link ? palette.link : base.color,
    rise,
    features: code ? 'code' : base.features,
    background: code && base.font.family !== 'mono' ? palette.codeBackground : marks.highlight ? palette.highlight : null,
    border: marks.kbd ? palette.rule : null,
    strike: marks.strike,
    underline: marks.underline === true,
    ...tags,
  };
}
