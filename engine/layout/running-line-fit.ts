import type { RUNNING_SLOTS } from '../style/running-lines.js';

type Slot = (typeof RUNNING_SLOTS)[number];
export type SlotWidths = Record<Slot, number>;

const ELLIPSIS = '…';

/**
 * The widest each slot of a header or footer may be so that none runs into another or past the
 * text block: the centre keeps the middle (within the block), the sides what is left beside it
 * less `gap`; with no centre, a side shorter than half the line leaves the rest to the other.
 */
export function slotLimits(widths: SlotWidths, total: number, gap: number): SlotWidths {
  const center = Math.min(widths.center, total);
  if (center > 0) {
    const side = Math.max(0, (total - center) / 2 - gap);
    return { left: side, center, right: side };
  }
  const half = (total - gap) / 2;
  if (widths.left + widths.right + gap <= total) return { left: widths.left, center: 0, right: widths.right };
  if (widths.left <= half) return { left: widths.left, center: 0, right: total - gap - widths.left };
  if (widths.right <= half) return { left: total - gap - widths.right, center: 0, right: widths.right };
  return { left: half, center: 0, right: half };
}

/**
 * `text` cut to fit `limit` with an ellipsis, as a running head too long for its place is
 * shortened: after the last whole word that fits, else after the last character that fits.
 */
export function shortened(text: string, limit: number, measure: (text: string) => number): string {
  if (measure(text) <= limit) return text;
  const fits = (cut: string) => measure(cut) <= limit;
  const words = text.split(' ');
  const byWords = (count: number) =>
    `${words
      .slice(0, count)
      .join(' ')
      .replace(/[\s,;:.–—-]+$/, '')}${ELLIPSIS}`;
  const wordCount = mostThatFit(words.length - 1, (count) => fits(byWords(count)));
  if (wordCount > 0) return byWords(wordCount);
  const characters = [...text];
  const byCharacters = (count: number) => `${characters.slice(0, count).join('')}${ELLIPSIS}`;
  const characterCount = mostThatFit(characters.length - 1, (count) => fits(byCharacters(count)));
  return characterCount > 0 ? byCharacters(characterCount) : '';
}

/** The largest count from 1 to `most` that `fits` (which holds for every count below one that does), or 0. */
function mostThatFit(most: number, fits: (count: number) => boolean): number {
  let [low, high] = [0, most];
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (fits(middle)) low = middle;
    else high = middle - 1;
  }
  return low;
}
