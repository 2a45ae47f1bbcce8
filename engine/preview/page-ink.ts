/**
 * What an edit changed on a page, as a band of it: each painted item's digest and the rows of
 * the page it can ink. Comparing a page with the picture the caller already shows of it gives
 * the band where items appeared, moved or went; only that band needs drawing again.
 */
import type { FaceSource, FrameItem, Page } from '../layout/frame.js';
import { glyphBox } from './glyph-shapes.js';
import { itemDigest } from './page-fingerprint.js';

/** Points from the top of the page; an item whose extent is not known spans the whole page. */
export interface Band {
  top: number;
  bottom: number;
}

export interface PageInk {
  width: number;
  height: number;
  /** Each painted item: its digest, the rows it can ink, and where it is in the page's items. */
  items: { digest: string; extent: Band; index: number }[];
}

const WHOLE: Band = { top: -Infinity, bottom: Infinity };
/** Past this share of the page, drawing the band saves little: the whole page is drawn. */
const MOST_OF_PAGE = 0.6;
/** Anti-aliasing reaches a pixel past an outline: the band is widened by this (points). */
const BLEED = 1.5;

export function pageInk(page: Page, faces: FaceSource): PageInk {
  const items: PageInk['items'] = [];
  page.items.forEach((item, index) => {
    const digest = itemDigest(item);
    if (digest !== null) items.push({ digest, extent: itemExtent(item, faces), index });
  });
  return { width: page.width, height: page.height, items };
}

/** The painted items of the page `ink` was taken of that can ink `band`. */
export function itemsInking(page: Page, ink: PageInk, band: Band): FrameItem[] {
  return ink.items.filter(({ extent }) => inksBand(extent, band)).map(({ index }) => page.items[index]!);
}

/**
 * The band of `after` that differs from `before`, or null when the whole page must be drawn:
 * another size, a change to an item whose extent is not known (a path), or most of the page.
 */
export function changedBand(before: PageInk, after: PageInk): Band | null {
  if (before.width !== after.width || before.height !== after.height) return null;
  const unmatched = new Map<string, number>();
  for (const { digest } of before.items) unmatched.set(digest, (unmatched.get(digest) ?? 0) + 1);
  const changed: Band[] = [];
  for (const { digest, extent } of after.items) {
    const count = unmatched.get(digest) ?? 0;
    if (count > 0) unmatched.set(digest, count - 1);
    else changed.push(extent);
  }
  for (const { digest, extent } of before.items) {
    const count = unmatched.get(digest) ?? 0;
    if (count === 0) continue;
    unmatched.set(digest, count - 1);
    changed.push(extent);
  }
  if (changed.length === 0) return null;
  const top = Math.max(0, Math.min(...changed.map((band) => band.top)) - BLEED);
  const bottom = Math.min(after.height, Math.max(...changed.map((band) => band.bottom)) + BLEED);
  return bottom - top > after.height * MOST_OF_PAGE ? null : { top, bottom };
}

/** Whether an item of this extent can ink anywhere in `band` (and so must be drawn with it). */
function inksBand(extent: Band, band: Band): boolean {
  return extent.bottom + BLEED > band.top && extent.top - BLEED < band.bottom;
}

function itemExtent(item: FrameItem, faces: FaceSource): Band {
  switch (item.kind) {
    case 'glyphs':
      return glyphRunExtent(item, faces);
    case 'rect':
      return { top: item.y - item.lineWidth, bottom: item.y + item.height + item.lineWidth };
    case 'line':
      return { top: Math.min(item.y1, item.y2) - item.width, bottom: Math.max(item.y1, item.y2) + item.width };
    case 'image':
    case 'link':
      return { top: item.y, bottom: item.y + item.height };
    case 'dest':
      return { top: item.y, bottom: item.y };
    case 'path':
    case 'struct-mark':
      return WHOLE;
  }
}

/** From the glyphs' own outlines: accents, tall operators and raised glyphs included. */
function glyphRunExtent(run: Extract<FrameItem, { kind: 'glyphs' }>, faces: FaceSource): Band {
  const scale = run.size / faces.known(run.face).unitsPerEm;
  let top = run.y;
  let bottom = run.y;
  for (const glyph of run.glyphs) {
    const box = glyphBox(faces, run.face, glyph.id);
    top = Math.min(top, run.y - glyph.dy - box.maxY * scale);
    bottom = Math.max(bottom, run.y - glyph.dy - box.minY * scale);
  }
  return { top, bottom };
}
