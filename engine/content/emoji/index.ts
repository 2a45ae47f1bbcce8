export { replaceShortcodes } from './shortcodes.js';
export { splitEmoji, type TextPart } from './sequences.js';
import type { Drawing } from '../../drawing/drawing.js';

/** The emoji's vector drawing; the Twemoji set and the SVG converter load with the first emoji. */
export async function emojiDrawing(sequence: string): Promise<Drawing | null> {
  return (await import('./drawing.js')).emojiDrawing(sequence);
}
