import { fontLibrary } from '../../text/font-library.js';
import type { FontStyle } from '../../text/font-catalog.js';

export const REGULAR: FontStyle = { family: 'serif', weight: 'regular', italic: false };
export const SEMIBOLD: FontStyle = { family: 'serif', weight: 'semibold', italic: false };

/**
 * Width in points of `text` set at `size` in Quire's own faces: runs the primary face covers are
 * shaped with it, other characters measured in the face the fallback chain would draw them in.
 */
export function textWidth(text: string, size: number, font: FontStyle = REGULAR): number {
  const primary = fontLibrary.primary(font);
  let width = 0;
  let run = '';
  const flush = () => {
    if (run) width += primary.shape(run).advance * primary.scale(size);
    run = '';
  };
  for (const char of text) {
    const codePoint = char.codePointAt(0)!;
    if (primary.has(codePoint)) {
      run += char;
      continue;
    }
    flush();
    const face = fontLibrary.faceFor(font, codePoint);
    width += face ? face.shape(char).advance * face.scale(size) : size * 0.6;
  }
  flush();
  return width;
}

/**
 * Greedy word wrap to `maxWidth` points; a word longer than the line keeps a line of its own.
 * Line breaks written as `<br>` (as Mermaid labels do) or `\n` are kept.
 */
export function wrapText(text: string, size: number, maxWidth: number, font: FontStyle = REGULAR): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split(/\n|<br\s*\/?>/i)) {
    let line = '';
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      const candidate = line ? `${line} ${word}` : word;
      if (line && textWidth(candidate, size, font) > maxWidth) {
        lines.push(line);
        line = word;
      } else line = candidate;
    }
    lines.push(line);
  }
  return lines;
}
