import type { ImageResource } from '../resources/image.js';
import type { Color } from '../style/color.js';
import type { StructTree, StructId } from './structure.js';
import type { PageGeometry } from '../style/page-geometry.js';
import type { LinkTarget } from '../document/types.js';
import type { Matrix } from '../drawing/matrix.js';
import type { Stroke } from '../drawing/drawing.js';
import type { Face } from '../text/face.js';

/**
 * What layout hands to painting: plain data, positioned in points from the page's top-left
 * corner with y growing downwards. Painting draws exactly this, shaping nothing again.
 */
export interface LaidOutDocument {
  pages: Page[];
  geometry: PageGeometry;
  structure: StructTree | null;
  outline: OutlineEntry[];
  pageColor: Color | null;
  meta: {
    title: string | undefined;
    language: string | undefined;
    author: string | undefined;
    subject: string | undefined;
    keywords: string | undefined;
    date: Date;
  };
  /** The Markdown to attach as `document.md`, when asked for. */
  attachment: string | null;
  /** Where the faces glyph runs name (`face`) are found: the bundled ones and those registered for the render. */
  fonts: FaceSource;
  warnings: string[];
}

/** Faces by key, as glyph runs name them. */
export interface FaceSource {
  known(key: string): Face;
}

export interface Page {
  items: FrameItem[];
  /** The page's size in points: the document's paper, or turned sideways for a wide table. */
  width: number;
  height: number;
}

/** A glyph as painted: font-unit id, advance and offsets already scaled to points. */
export interface PlacedGlyph {
  id: number;
  advance: number;
  dx: number;
  dy: number;
  /** The text this glyph stands for in extraction (ToUnicode); empty for continuation glyphs. */
  chars: string;
}

export type FrameItem =
  | GlyphRunItem
  | RectItem
  | { kind: 'line'; x1: number; y1: number; x2: number; y2: number; width: number; color: Color }
  | { kind: 'image'; x: number; y: number; width: number; height: number; image: ImageResource & { kind: 'raster' }; tag: StructId | null }
  | { kind: 'link'; x: number; y: number; width: number; height: number; target: LinkTarget; description: string; tag: StructId | null }
  | { kind: 'dest'; name: string; x: number; y: number }
  | PathItem
  /** Attaches a structure element that has no content of its own (an empty table cell). */
  | { kind: 'struct-mark'; tag: StructId };

export interface RectItem {
  kind: 'rect';
  x: number;
  y: number;
  width: number;
  height: number;
  fill: Color | null;
  stroke: Color | null;
  lineWidth: number;
  radius: number;
  tag: StructId | null;
  /** Text this shape stands for (a box drawn for a character no font has). */
  actualText: string | null;
}

/** A vector shape from a drawing: SVG path data under a transform to page coordinates. */
export interface PathItem {
  kind: 'path';
  d: string;
  matrix: Matrix;
  fill: Color | null;
  fillOpacity: number;
  fillRule: 'nonzero' | 'evenodd';
  stroke: Stroke | null;
  tag: StructId | null;
}

export interface GlyphRunItem {
  kind: 'glyphs';
  /** Pen position of the first glyph, on the baseline. */
  x: number;
  y: number;
  face: string;
  size: number;
  color: Color;
  glyphs: PlacedGlyph[];
  tag: StructId | null;
  /** Replaces the glyphs' own text in extraction (a line-end hyphen extracts as nothing). */
  actualText: string | null;
  /** Each glyph carries its own characters as ActualText (glyphs shared by several characters). */
  perGlyphText: boolean;
  /** Drawn invisibly: carries the text of a picture (an emoji) for extraction and search. */
  invisible?: boolean;
}

export interface OutlineEntry {
  title: string;
  dest: string;
  level: number;
}

/** A named destination at the top of a box, for links to land on. */
export function destination(name: string, x: number): FrameItem & { kind: 'dest' } {
  return { kind: 'dest', name, x, y: 0 };
}

/** Moves an item by (dx, dy). */
export function translateItem(item: FrameItem, dx: number, dy: number): FrameItem {
  switch (item.kind) {
    case 'line':
      return { ...item, x1: item.x1 + dx, x2: item.x2 + dx, y1: item.y1 + dy, y2: item.y2 + dy };
    case 'path':
      return { ...item, matrix: [item.matrix[0], item.matrix[1], item.matrix[2], item.matrix[3], item.matrix[4] + dx, item.matrix[5] + dy] };
    case 'struct-mark':
      return item;
    default:
      return { ...item, x: item.x + dx, y: item.y + dy };
  }
}

/** Scales an item about the page's top-left corner (layout at the theme's sizes → the document's). */
export function scaleItem(item: FrameItem, scale: number): FrameItem {
  switch (item.kind) {
    case 'glyphs':
      return {
        ...item,
        x: item.x * scale,
        y: item.y * scale,
        size: item.size * scale,
        glyphs: item.glyphs.map((glyph) => ({ ...glyph, advance: glyph.advance * scale, dx: glyph.dx * scale, dy: glyph.dy * scale })),
      };
    case 'rect':
      return {
        ...item,
        x: item.x * scale,
        y: item.y * scale,
        width: item.width * scale,
        height: item.height * scale,
        lineWidth: item.lineWidth * scale,
        radius: item.radius * scale,
      };
    case 'line':
      return { ...item, x1: item.x1 * scale, y1: item.y1 * scale, x2: item.x2 * scale, y2: item.y2 * scale, width: item.width * scale };
    case 'image':
    case 'link':
      return { ...item, x: item.x * scale, y: item.y * scale, width: item.width * scale, height: item.height * scale };
    case 'dest':
      return { ...item, x: item.x * scale, y: item.y * scale };
    case 'path':
      return { ...item, matrix: item.matrix.map((value) => value * scale) as unknown as PathItem['matrix'] };
    case 'struct-mark':
      return item;
  }
}
