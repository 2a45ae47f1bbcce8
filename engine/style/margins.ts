import { parseLength } from './lengths.js';

export interface Margins {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

export const MARGINS_EXPECTED = 'a length such as 20mm, up to four lengths (top right bottom left), or top/right/bottom/left';

/** A side left out of a margin map: the 22 mm of Quire's own top margin. */
const DEFAULT_MARGIN = 22 * (72 / 25.4);

/** One length for all sides, CSS's one to four (`20mm 15mm`), or a map of the sides given (the rest Quire's own). */
export function parseMargins(value: unknown): Margins | null {
  if (typeof value === 'number') return parseMargins(String(value));
  if (typeof value === 'string') {
    const lengths = value.trim().split(/\s+/).map(parseLength);
    if (lengths.length > 4 || lengths.some((length) => length === null)) return null;
    const [top, right = top, bottom = top, left = right] = lengths as number[];
    return { top: top!, right: right!, bottom: bottom!, left: left! };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const sides = value as Record<string, unknown>;
  if (Object.keys(sides).some((side) => !['top', 'right', 'bottom', 'left'].includes(side))) return null;
  const side = (name: string, fallback: number) => (sides[name] === undefined ? fallback : parseLength(sides[name]));
  const [top, right, bottom, left] = [side('top', DEFAULT_MARGIN), side('right', DEFAULT_MARGIN), side('bottom', DEFAULT_MARGIN), side('left', DEFAULT_MARGIN)];
  if (top === null || right === null || bottom === null || left === null) return null;
  return { top, right, bottom, left };
}
