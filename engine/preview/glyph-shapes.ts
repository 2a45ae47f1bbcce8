/**
 * Glyph outlines and their bounding boxes, from the very faces layout shaped with, read once per
 * process: the preview draws glyphs from the outlines and finds where they ink from the boxes.
 */
import { fontLibrary } from '../text/font-library.js';

/** Font units, y up; empty (all zero) for a glyph with no outline. */
export interface GlyphBox {
  minY: number;
  maxY: number;
}

const outlines = new Map<string, string>();
const boxes = new Map<string, GlyphBox>();

/** The glyph's outline as SVG path data in font units, y up; '' for a glyph with no outline (a space). */
export function glyphOutline(faceKey: string, glyphId: number): string {
  const key = `${faceKey}\u0000${glyphId}`;
  let d = outlines.get(key);
  if (d === undefined) {
    d = fontLibrary.known(faceKey).font.getGlyph(glyphId).path.toSVG();
    outlines.set(key, d);
  }
  return d;
}

export function glyphBox(faceKey: string, glyphId: number): GlyphBox {
  const key = `${faceKey}\u0000${glyphId}`;
  let box = boxes.get(key);
  if (box === undefined) {
    const { minY, maxY } = fontLibrary.known(faceKey).font.getGlyph(glyphId).path.bbox;
    box = Number.isFinite(minY) && Number.isFinite(maxY) ? { minY, maxY } : { minY: 0, maxY: 0 };
    boxes.set(key, box);
  }
  return box;
}
