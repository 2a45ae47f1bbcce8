import type { Page } from '../layout/frame.js';
import type { PageLine } from './page-line.js';

/** Baselines closer than this (points) are one line: a superscript or a formula stays on its line. */
const SAME_LINE = 3;

/**
 * The page's text line by line, top to bottom, as extraction would read it: what the editor
 * matches against the Markdown to put the cursor where a person clicked on the page.
 */
export function pageLines(page: Page): PageLine[] {
  const runs = page.items
    .filter((item) => item.kind === 'glyphs' && !item.invisible)
    .map((item) => item as Extract<Page['items'][number], { kind: 'glyphs' }>)
    .map((run) => ({ y: run.y, x: run.x, text: run.actualText ?? run.glyphs.map((glyph) => glyph.chars).join('') }))
    .sort((a, b) => a.y - b.y || a.x - b.x);
  const lines: PageLine[] = [];
  for (const run of runs) {
    const last = lines.at(-1);
    if (last && run.y - last.y < SAME_LINE) last.text += run.text;
    else lines.push({ y: run.y, text: run.text });
  }
  return lines.filter((line) => line.text.trim() !== '');
}
