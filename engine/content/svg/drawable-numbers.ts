import type { Drawing } from '../../drawing/drawing.js';
import { SvgError } from './svg-error.js';

/** Beyond this magnitude a coordinate is no picture, and PDF writers refuse numbers from 1e21 on. */
const LARGEST = 1e9;
const NUMBER = /[-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?/gi;

/**
 * Refuses an SVG whose size, coordinates or transforms are not finite or are astronomically
 * large (`viewBox="0 0 1e308 1e308"`): painting them would fail the whole render, where an
 * unreadable image is answered by the resource rules.
 */
export function checkDrawableNumbers(drawing: Drawing): void {
  const fits = (n: number) => Number.isFinite(n) && Math.abs(n) <= LARGEST;
  const all = (numbers: readonly number[]) => numbers.every(fits);
  let ok = all([drawing.width, drawing.height, drawing.baseline]);
  for (const item of drawing.items) {
    if (!ok) break;
    ok = all(item.transform);
    if (item.kind === 'path') ok &&= !/nan|inf/i.test(item.d) && all(Array.from(item.d.matchAll(NUMBER), (match) => Number(match[0])));
    else if (item.kind === 'text') ok &&= all([item.x, item.y, item.size]);
    else ok &&= all([item.x, item.y, item.width, item.height]);
  }
  if (!ok) throw new SvgError('coordinates out of range');
}
