import type { Color } from '../../style/color.js';
import type { FontStyle } from '../../text/font-catalog.js';
import type { FeatureSet } from '../../text/face.js';
import type { Alignment } from '../inline/paragraph.js';

/** How a run of text is set: face, size, leading, colour, features, alignment and hyphenation. */
export interface TextLook {
  font: FontStyle;
  size: number;
  leading: number;
  color: Color;
  features?: FeatureSet;
  align?: Alignment;
  /** Hyphenate when the language allows (off for headings and captions). */
  hyphenate?: boolean;
}
