import { applyMatrix, multiply, type Matrix } from '../drawing/matrix.js';
import type { Drawing, DrawingItem } from '../drawing/drawing.js';
import type { FrameItem } from './frame.js';
import type { StructId } from './structure.js';

export interface DrawingPlacement {
  /** Page position of the drawing's top-left corner. */
  x: number;
  y: number;
  /** Points per drawing unit. */
  scale: number;
  tag: StructId | null;
}

type DrawingText = DrawingItem & { kind: 'text' };

/** A drawing's text set as one line: its items measured from the line's top-left. */
export interface DrawingTextLine {
  width: number;
  /** Distance from the line's top to its baseline. */
  baseline: number;
  items: readonly FrameItem[];
}

/**
 * Sets a drawing's text at `size` points as one line, or nothing. Given by the caller: text is
 * set by the paragraph layout (inline/), whose lines hold drawings in turn (formulas, emoji).
 */
export type DrawingTextSetter = (text: DrawingText, size: number, tag: StructId | null) => DrawingTextLine | undefined;

/**
 * A drawing as frame items: paths keep their geometry under one transform, text is shaped in
 * Quire's fonts (so it extracts and reads as text), images are placed in their boxes.
 */
export function drawingItems(drawing: Drawing, placement: DrawingPlacement, setText: DrawingTextSetter): FrameItem[] {
  const base: Matrix = [placement.scale, 0, 0, placement.scale, placement.x, placement.y];
  const items: FrameItem[] = [];
  for (const item of drawing.items) {
    const matrix = multiply(base, item.transform);
    if (item.kind === 'path') {
      items.push({
        kind: 'path',
        d: item.d,
        matrix,
        fill: item.fill,
        fillOpacity: item.fillOpacity,
        fillRule: item.fillRule,
        stroke: item.stroke,
        tag: placement.tag,
      });
    } else if (item.kind === 'image') {
      const [x1, y1] = applyMatrix(matrix, item.x, item.y);
      const [x2, y2] = applyMatrix(matrix, item.x + item.width, item.y + item.height);
      items.push({
        kind: 'image',
        x: Math.min(x1, x2),
        y: Math.min(y1, y2),
        width: Math.abs(x2 - x1),
        height: Math.abs(y2 - y1),
        image: item.image,
        tag: placement.tag,
      });
    } else {
      items.push(...textItems(item, matrix, placement.tag, setText));
    }
  }
  return items;
}

function textItems(item: DrawingText, matrix: Matrix, tag: StructId | null, setText: DrawingTextSetter): FrameItem[] {
  const size = item.size * Math.sqrt(Math.abs(matrix[0] * matrix[3] - matrix[1] * matrix[2]));
  if (!(size > 0.5)) return [];
  const line = setText(item, size, tag);
  if (!line) return [];
  const [x, y] = applyMatrix(matrix, item.x, item.y);
  const shift = item.anchor === 'middle' ? line.width / 2 : item.anchor === 'end' ? line.width : 0;
  const dx = x - shift;
  const dy = y - line.baseline;
  return line.items.filter((frameItem) => frameItem.kind === 'glyphs').map((glyphs) => ({ ...glyphs, x: glyphs.x + dx, y: glyphs.y + dy }));
}
