import type { Color } from '../layout/theme.js';
import type { RasterImage } from '../resources/image.js';
import type { FontStyle } from '../text/font-catalog.js';

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

/** A 2-D affine transform [a b c d e f], as in SVG and PDF. */
export type Matrix = readonly [number, number, number, number, number, number];

export const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

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

/** The product of two transforms: apply `inner` first, then `outer`. */
export function multiply(outer: Matrix, inner: Matrix): Matrix {
  const [a, b, c, d, e, f] = outer;
  const [a2, b2, c2, d2, e2, f2] = inner;
  return [a * a2 + c * b2, b * a2 + d * b2, a * c2 + c * d2, b * c2 + d * d2, a * e2 + c * f2 + e, b * e2 + d * f2 + f];
}

export function applyMatrix(m: Matrix, x: number, y: number): [number, number] {
  return [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];
}
