/**
 * One laid-out page as SVG, drawn from the same frames the PDF painter reads — so the editor's
 * preview is the PDF's pages, breaks included, without rasterising the PDF. Glyphs become
 * outlines from the very faces layout shaped with (each outline defined once per page and placed
 * with <use>), so resvg needs no fonts of its own.
 */
import type { FaceSource, FrameItem, GlyphRunItem, Page, PathItem, RectItem } from '../layout/frame.js';
import type { Color } from '../style/color.js';
import { glyphOutline } from './glyph-shapes.js';
import { watermarkSvg } from './watermark-svg.js';

const WHITE: Color = [255, 255, 255];

/** Which pixels to draw: rows `top` to `top + rows` of the page drawn `zoom` pixels per point. */
export interface PixelRows {
  zoom: number;
  top: number;
  rows: number;
}

/** All the rows of the page at `zoom`. */
export function wholePage(page: Page, zoom: number): PixelRows {
  return { zoom, top: 0, rows: Math.ceil(page.height * zoom) };
}

/**
 * The page as SVG, sized in pixels: the rows asked for, drawn from `items` — for a band of the
 * page, only those that can ink it, so the band costs a fraction of the whole and has the very
 * pixels the whole page has there.
 */
export function pageSvg(page: Page, pageColor: Color | null, pixels: PixelRows, faces: FaceSource, items: readonly FrameItem[] = page.items): string {
  const { zoom, top, rows } = pixels;
  const glyphs = new GlyphDefs(faces);
  const body: string[] = [`<rect width="${n(page.width)}" height="${n(page.height)}" fill="${hex(pageColor ?? WHITE)}"/>`];
  const draw = tooDense(items) ? (item: FrameItem) => greekedSvg(item, glyphs) : (item: FrameItem) => itemSvg(item, glyphs);
  for (const item of items) {
    const drawn = draw(item);
    if (drawn) body.push(drawn);
  }
  body.push(watermarkSvg(page.width, page.height, pageColor !== null && luminance(pageColor) < 0.5));
  // Whole pixels wide and high, the view box exactly those pixels in points: the scale is `zoom`
  // whatever the rows, so a band's pixels match the whole page's (the view box is not rounded).
  const columns = Math.ceil(page.width * zoom);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="${columns}" height="${rows}" viewBox="0 ${top / zoom} ${columns / zoom} ${rows / zoom}">` +
    `<defs>${glyphs.defs()}</defs>${body.join('')}</svg>`
  );
}

/**
 * The most glyphs, shapes and images one page's picture draws in full. resvg's memory grows with
 * the SVG's elements (a poster-sized page set in 8-point type holds half a million glyphs: over a
 * gigabyte), and a dense A4 page holds under 10,000; past this, the page is drawn greeked.
 */
export const MOST_DRAWN_ITEMS = 60_000;

/** Whether the items are more than a picture draws in full (each glyph of a run counted). */
export function tooDense(items: readonly FrameItem[]): boolean {
  let count = 0;
  for (const item of items) {
    count += item.kind === 'glyphs' ? item.glyphs.length : 1;
    if (count > MOST_DRAWN_ITEMS) return true;
  }
  return false;
}

/**
 * An item as a typesetter's greeked proof shows it, a few elements whatever its size: a run of
 * text as a bar of its colour along its baseline, an image as a grey box, rules and boxes as
 * they are; vector shapes are left out.
 */
function greekedSvg(item: FrameItem, glyphs: GlyphDefs): string | null {
  switch (item.kind) {
    case 'glyphs': {
      if (item.invisible) return null;
      const width = item.glyphs.reduce((sum, glyph) => sum + glyph.advance, 0);
      return `<rect x="${n(item.x)}" y="${n(item.y - item.size * 0.5)}" width="${n(width)}" height="${n(item.size * 0.45)}" fill="${hex(item.color)}" fill-opacity="0.45"/>`;
    }
    case 'image':
      return `<rect x="${n(item.x)}" y="${n(item.y)}" width="${n(item.width)}" height="${n(item.height)}" fill="#c8c8c8"/>`;
    case 'path':
      return null;
    default:
      return itemSvg(item, glyphs);
  }
}

function itemSvg(item: FrameItem, glyphs: GlyphDefs): string | null {
  switch (item.kind) {
    case 'glyphs':
      return item.invisible ? null : glyphRunSvg(item, glyphs);
    case 'rect':
      return rectSvg(item);
    case 'line':
      return `<line x1="${n(item.x1)}" y1="${n(item.y1)}" x2="${n(item.x2)}" y2="${n(item.y2)}" stroke="${hex(item.color)}" stroke-width="${n(item.width)}"/>`;
    case 'path':
      return pathSvg(item);
    case 'image': {
      const uri = `data:image/${item.image.format};base64,${Buffer.from(item.image.bytes).toString('base64')}`;
      return `<image x="${n(item.x)}" y="${n(item.y)}" width="${n(item.width)}" height="${n(item.height)}" preserveAspectRatio="none" xlink:href="${uri}"/>`;
    }
    case 'link':
    case 'dest':
    case 'struct-mark':
      return null;
  }
}

/** Each glyph at its pen position; `dy` is upwards, as in the PDF painter. */
function glyphRunSvg(run: GlyphRunItem, glyphs: GlyphDefs): string {
  const face = glyphs.faces.known(run.face);
  const scale = run.size / face.unitsPerEm;
  const uses: string[] = [];
  let pen = run.x;
  for (const glyph of run.glyphs) {
    const id = glyphs.use(run.face, glyph.id);
    if (id) uses.push(`<use xlink:href="#${id}" transform="translate(${n(pen + glyph.dx)} ${n(run.y - glyph.dy)}) scale(${fine(scale)} ${fine(-scale)})"/>`);
    pen += glyph.advance;
  }
  return uses.length === 0 ? '' : `<g fill="${hex(run.color)}">${uses.join('')}</g>`;
}

function rectSvg(item: RectItem): string {
  const radius = item.radius > 0 ? ` rx="${n(Math.min(item.radius, item.width / 2, item.height / 2))}"` : '';
  const stroke = item.stroke ? ` stroke="${hex(item.stroke)}" stroke-width="${n(item.lineWidth)}"` : '';
  return `<rect x="${n(item.x)}" y="${n(item.y)}" width="${n(item.width)}" height="${n(item.height)}"${radius} fill="${item.fill ? hex(item.fill) : 'none'}"${stroke}/>`;
}

function pathSvg(item: PathItem): string {
  const fill = item.fill ? `fill="${hex(item.fill)}" fill-opacity="${n(item.fillOpacity)}" fill-rule="${item.fillRule}"` : 'fill="none"';
  const s = item.stroke;
  const stroke = s
    ? ` stroke="${hex(s.color)}" stroke-opacity="${n(s.opacity)}" stroke-width="${n(s.width)}" stroke-linecap="${s.cap}" stroke-linejoin="${s.join}"` +
      (s.dash && s.dash.some((length) => length > 0) ? ` stroke-dasharray="${s.dash.map(n).join(' ')}"` : '')
    : '';
  return `<path transform="matrix(${item.matrix.map(n).join(' ')})" d="${escapeAttribute(item.d)}" ${fill}${stroke}/>`;
}

/** Glyph outlines used on one page, in font units with y up; outlines are read once per process. */
export class GlyphDefs {
  private readonly used = new Map<string, string>();

  constructor(readonly faces: FaceSource) {}

  /** The id to <use> for a glyph, or null for one with no outline (a space). */
  use(faceKey: string, glyphId: number): string | null {
    const key = `${faceKey}\u0000${glyphId}`;
    const d = glyphOutline(this.faces, faceKey, glyphId);
    if (d === '') return null;
    let id = this.used.get(key);
    if (id === undefined) {
      id = `g${this.used.size}`;
      this.used.set(key, id);
    }
    return id;
  }

  defs(): string {
    const defs: string[] = [];
    for (const [key, id] of this.used) {
      const [faceKey, glyphId] = key.split('\u0000') as [string, string];
      defs.push(`<path id="${id}" d="${glyphOutline(this.faces, faceKey, Number(glyphId))}"/>`);
    }
    return defs.join('');
  }
}

/** Relative brightness, 0 (black) to 1 (white), enough to tell a dark page from a light one. */
function luminance([r, g, b]: Color): number {
  return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
}

function hex(color: Color): string {
  return `#${color.map((channel) => Math.round(channel).toString(16).padStart(2, '0')).join('')}`;
}

/** Numbers short enough to keep a page's SVG small, precise to a hundredth of a point. */
function n(value: number): string {
  return String(Math.round(value * 100) / 100);
}

/** Glyph scales are small (size ÷ units per em): they keep six significant digits. */
function fine(value: number): string {
  return String(Number(value.toPrecision(6)));
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}
