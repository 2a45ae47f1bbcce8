import { applyMatrix, multiply, type Matrix } from '../drawing/matrix.js';
import type { Drawing } from '../drawing/drawing.js';
import { NO_MARKS } from '../document/types.js';
import type { FrameItem } from './frame.js';
import { layoutParagraph } from './inline/paragraph.js';
import type { StructId, Tagger } from './structure.js';
import type { Palette } from '../style/palette.js';
import type { FontLibrary } from '../text/font-library.js';

export interface DrawingPlacement {
  /** Page position of the drawing's top-left corner. */
  x: number;
  y: number;
  /** Points per drawing unit. */
  scale: number;
  tag: StructId | null;
}

export interface DrawingEnv {
  fonts: FontLibrary;
  palette: Palette;
  tagger: Tagger;
}

/**
 * A drawing as frame items: paths keep their geometry under one transform, text is shaped in
 * Quire's fonts (so it extracts and reads as text), images are placed in their boxes.
 */
export function drawingItems(drawing: Drawing, placement: DrawingPlacement, env: DrawingEnv): FrameItem[] {
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
      items.push(...textItems(item, matrix, placement.tag, env));
    }
  }
  return items;
}

function textItems(item: Drawing['items'][number] & { kind: 'text' }, matrix: Matrix, tag: StructId | null, env: DrawingEnv): FrameItem[] {
  const size = item.size * Math.sqrt(Math.abs(matrix[0] * matrix[3] - matrix[1] * matrix[2]));
  if (!(size > 0.5)) return [];
  const [line] = layoutParagraph(
    [{ kind: 'text', text: item.text, marks: NO_MARKS, link: null, code: null }],
    {
      base: { font: item.font, size, color: item.color, features: item.font.family === 'mono' ? 'code' : 'text' },
      width: 100_000,
      x: 0,
      leading: size * 1.2,
      align: 'start',
      hyphenator: null,
      tag,
      preserveSpaces: true,
    },
    { fonts: env.fonts, palette: env.palette, tagger: env.tagger },
  );
  if (!line) return [];
  const [x, y] = applyMatrix(matrix, item.x, item.y);
  const shift = item.anchor === 'middle' ? line.width / 2 : item.anchor === 'end' ? line.width : 0;
  const dx = x - shift;
  const dy = y - line.baseline;
  return line.items.filter((frameItem) => frameItem.kind === 'glyphs').map((glyphs) => ({ ...glyphs, x: glyphs.x + dx, y: glyphs.y + dy }));
}
