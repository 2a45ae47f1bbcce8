/**
 * Glyph outlines and their bounding boxes, from the very faces layout shaped with, read once per
 * face (for as long as the face lives: a font registered for one render goes with it): the
 * preview draws glyphs from the outlines and finds where they ink from the boxes.
 */
import type { FaceSource } from '../layout/frame.js';
import type { Face } from '../text/face.js';

/** Font units, y up; empty (all zero) for a glyph with no outline. */
export interface GlyphBox {
  minY: number;
  maxY: number;
}

const outlines = new WeakMap<Face, Map<number, string>>();
const boxes = new WeakMap<Face, Map<number, GlyphBox>>();

function perGlyph<T>(cache: WeakMap<Face, Map<number, T>>, face: Face): Map<number, T> {
  let glyphs = cache.get(face);
  if (!glyphs) {
    glyphs = new Map();
    cache.set(face, glyphs);
  }
  return glyphs;
}

/** The glyph's outline as SVG path data in font units, y up; '' for a glyph with no outline (a space). */
export function glyphOutline(faces: FaceSource, faceKey: string, glyphId: number): string {
  const face = faces.known(faceKey);
  const glyphs = perGlyph(outlines, face);
  let d = glyphs.get(glyphId);
  if (d === undefined) {
    d = face.font.getGlyph(glyphId).path.toSVG();
    glyphs.set(glyphId, d);
  }
  return d;
}

export function glyphBox(faces: FaceSource, faceKey: string, glyphId: number): GlyphBox {
  const face = faces.known(faceKey);
  const glyphs = perGlyph(boxes, face);
  let box = glyphs.get(glyphId);
  if (box === undefined) {
    const { minY, maxY } = face.font.getGlyph(glyphId).path.bbox;
    box = Number.isFinite(minY) && Number.isFinite(maxY) ? { minY, maxY } : { minY: 0, maxY: 0 };
    glyphs.set(glyphId, box);
  }
  return box;
}
