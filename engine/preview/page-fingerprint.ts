/**
 * A page's identity for the preview: a digest of everything painting draws from it (glyphs and
 * their positions, shapes, images, colours), and of nothing it does not (links, structure).
 * Cheap enough to take for every page on every keystroke (a 144-page document in a few
 * milliseconds, where building its SVG took 300), so only changed pages are drawn.
 */
import { createHash } from '../hash.js';
import type { FrameItem, Page } from '../layout/frame.js';
import type { Color } from '../style/color.js';

export function pageFingerprint(page: Page, pageColor: Color | null, pixelsPerPoint: number): string {
  const numbers = new NumberSink();
  const strings: string[] = [];
  numbers.push(page.width, page.height, pixelsPerPoint, ...(pageColor ?? [-1, -1, -1]));
  for (const item of page.items) addItem(item, numbers, strings);
  return createHash('sha256').update(numbers.bytes()).update(strings.join('\u0000')).digest('hex').slice(0, 32);
}

/** One painted item's identity, position included; null for an item that paints nothing. */
export function itemDigest(item: FrameItem): string | null {
  const numbers = new NumberSink(64);
  const strings: string[] = [];
  if (!addItem(item, numbers, strings)) return null;
  return createHash('sha1').update(numbers.bytes()).update(strings.join('\u0000')).digest('base64');
}

/** Adds what painting draws from `item`; false when it paints nothing. */
function addItem(item: FrameItem, numbers: NumberSink, strings: string[]): boolean {
  switch (item.kind) {
    case 'glyphs':
      if (item.invisible) return false;
      strings.push(item.face);
      numbers.push(1, item.x, item.y, item.size, ...item.color, item.glyphs.length);
      for (const glyph of item.glyphs) numbers.push(glyph.id, glyph.advance, glyph.dx, glyph.dy);
      return true;
    case 'rect':
      numbers.push(2, item.x, item.y, item.width, item.height, item.lineWidth, item.radius, ...(item.fill ?? [-1, -1, -1]), ...(item.stroke ?? [-1, -1, -1]));
      return true;
    case 'line':
      numbers.push(3, item.x1, item.y1, item.x2, item.y2, item.width, ...item.color);
      return true;
    case 'image':
      strings.push(item.image.id);
      numbers.push(4, item.x, item.y, item.width, item.height, item.image.bytes.byteLength);
      return true;
    case 'path': {
      strings.push(item.d);
      const stroke = item.stroke;
      numbers.push(5, ...item.matrix, ...(item.fill ?? [-1, -1, -1]), item.fillOpacity, item.fillRule === 'evenodd' ? 1 : 0);
      if (stroke) numbers.push(...stroke.color, stroke.width, stroke.opacity, stroke.cap.length, stroke.join.length, ...(stroke.dash ?? []));
      return true;
    }
    case 'link':
    case 'dest':
    case 'struct-mark':
      return false;
  }
}

/** Numbers gathered into one growing Float64Array: far cheaper than text for a page's thousands of glyphs. */
class NumberSink {
  private buffer: Float64Array;
  private length = 0;

  constructor(capacity = 4096) {
    this.buffer = new Float64Array(capacity);
  }

  push(...values: number[]): void {
    if (this.length + values.length > this.buffer.length) {
      const grown = new Float64Array(Math.max(this.buffer.length * 2, this.length + values.length));
      grown.set(this.buffer);
      this.buffer = grown;
    }
    for (const value of values) this.buffer[this.length++] = value;
  }

  bytes(): Uint8Array {
    return new Uint8Array(this.buffer.buffer, 0, this.length * 8);
  }
}
