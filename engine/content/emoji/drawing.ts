import { multiply } from '../../drawing/matrix.js';
import type { Drawing } from '../../drawing/drawing.js';
import { svgToDrawing } from '../svg/parse-svg.js';
import { TWEMOJI_GRID, twemojiKey, twemojiSvg } from './twemoji.js';

/**
 * Where the baseline crosses the emoji, from its top. 88% down: at 1.1 em tall it rises 0.97 em
 * and drops 0.13 em, standing on the line like a capital with a slight descent (Twitter sets its
 * 1 em Twemoji 0.1 em below the baseline).
 */
const BASELINE = 0.88 * TWEMOJI_GRID;
const ZWJ = '\u200d';
/** Real sequences have at most seven parts (a family); longer ones are not pictures but attacks. */
const MAX_PARTS = 8;

/** Icons by the set's key, with the emoji baseline, for the process: only the set's, so bounded by its size. */
const icons = new Map<string, Drawing>();

/**
 * The colour vector drawing of one emoji sequence, or null when the set has none. A sequence the
 * set lacks as a whole (a newer ZWJ family, an unusual skin tone) is drawn as its parts side by
 * side, as Unicode recommends; null when no part can be drawn.
 */
export function emojiDrawing(sequence: string): Drawing | null {
  const whole = icon(sequence);
  if (whole) return whole;
  const components = sequence.split(ZWJ);
  if (components.length > MAX_PARTS) return null;
  const parts: Drawing[] = [];
  for (const component of components) {
    const drawn = icon(component);
    parts.push(...(drawn ? [drawn] : [...component].map(icon).filter((part): part is Drawing => part !== null)));
  }
  return parts.length > 0 && parts.length <= MAX_PARTS ? placed(parts) : null;
}

function icon(sequence: string): Drawing | null {
  const key = twemojiKey(sequence);
  let drawing = icons.get(key);
  if (!drawing) {
    const svg = twemojiSvg(key);
    if (!svg) return null;
    drawing = { ...svgToDrawing(svg), baseline: BASELINE };
    icons.set(key, drawing);
  }
  return drawing;
}

/** Icons side by side on the grid. */
function placed(parts: Drawing[]): Drawing {
  if (parts.length === 1) return parts[0]!;
  return {
    width: TWEMOJI_GRID * parts.length,
    height: TWEMOJI_GRID,
    unit: parts[0]!.unit,
    baseline: BASELINE,
    items: parts.flatMap((part, index) => part.items.map((item) => ({ ...item, transform: multiply([1, 0, 0, 1, index * TWEMOJI_GRID, 0], item.transform) }))),
  };
}
