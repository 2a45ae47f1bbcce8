/**
 * The page as a whole, judged on real PDFs: the measure of body text, and where pages break.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { render } from '../../engine/index.js';
import { fixture } from '../support/fixtures.js';
import { textLines } from '../support/pdf-tools.js';

/** Mean characters of the full lines (every line of a paragraph but its last) of body text. */
async function charactersPerLine(markdown: string): Promise<number> {
  const lines = await textLines((await render(markdown)).pdf);
  const bodyLeft = mode(lines.map((line) => Math.round(line.left)));
  const full = lines.filter((line) => Math.round(line.left) === bodyLeft && !line.lastInBlock && /^[A-Za-z]/.test(line.text));
  assert.ok(full.length > 40, `${full.length} full lines`);
  return full.reduce((sum, line) => sum + line.text.length, 0) / full.length;
}

function mode(values: number[]): number {
  const counts = new Map<number, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0]![0];
}

describe('the page', () => {
  const prose = fixture('prose/declaration.md');

  for (const paper of ['a4', 'letter']) {
    it(`should set English body text at 66–78 characters a line on ${paper}, justified and ragged`, async () => {
      for (const language of ['en', null]) {
        const average = await charactersPerLine(`---\npaper: ${paper}\n${language ? `language: ${language}\n` : ''}---\n\n${prose}`);
        assert.ok(average >= 66 && average <= 78, `${language ?? 'ragged'}: ${average.toFixed(1)} characters a line`);
      }
    });
  }
});
