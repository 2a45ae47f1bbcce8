import type { Color } from '../style/color.js';
import type { FontStyle } from '../text/font-catalog.js';
import type { Matrix } from './matrix.js';
import type { RasterImage } from './raster-image.js';

/**
 * A vector drawing made by a content module (a formula, a diagram, a barcode, an emoji, an SVG
 * image): plain data in its own units, placed and scaled by layout like any other box.
 */
export interface Drawing {
  /** Size in drawing units. */
  width: number;
  height: number;
  /** Points per drawing unit at natural size. */
  unit: number;
  /** Distance from the top to the baseline, in drawing units, for drawings set inline. */
  baseline: number;
  items: DrawingItem[];
}

export interface Stroke {
  color: Color;
  width: number;
  opacity: number;
  cap: 'butt' | 'round' | 'square';
  join: 'miter' | 'round' | 'bevel';
  dash: number[] | null;
}

export type DrawingItem =
  | {
      kind: 'path';
      /** SVG path data, in the item's own coordinates. */
      d: string;
      transform: Matrix;
      fill: Color | null;
      fillOpacity: number;
      fillRule: 'nonzero' | 'evenodd';
      stroke: Stroke | null;
    }
  | {
      kind: 'text';
      text: string;
      /** Anchor point on the baseline, in the item's coordinates. */
      x: number;
      y: number;
      transform: Matrix;
      size: number;
      font: FontStyle;
      color: Color;
      anchor: 'start' | 'middle' | 'end';
    }
  | { kind: 'image'; image: RasterImage; x: number; y: number; width: number; height: number; transform: Matrix };

/** What a drawing holds, about, in characters of path data: the measure caches of drawings bound. */
export function drawingWeight(drawing: Drawing): number {
  let weight = 0;
  for (const item of drawing.items) weight += item.kind === 'path' ? item.d.length + 64 : item.kind === 'image' ? item.image.bytes.length : 128;
  return weight;
}
