import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { folderLoader, render, type Theme } from '#engine/index.js';
import { fixture, FIXTURES } from '../support/fixtures.js';
import { pdfFile, pdftotext, pixel, qpdfCheck, structureText } from '../support/pdf-tools.js';

const CONTENT = path.join(FIXTURES, 'content');

async function renderSink(theme: Theme) {
  return render(fixture('content/kitchen-sink.md'), { features: { theme }, loader: folderLoader(CONTENT) });
}

describe('the rich kitchen sink, in both themes', () => {
  for (const theme of ['light', 'dark'] as const) {
    it(`should draw every kind of rich content as tagged vectors (${theme})`, async () => {
      const { pdf, resources } = await renderSink(theme);
      assert.deepEqual(resources.failed, []);
      await qpdfCheck(pdf);
      const text = await pdftotext(pdf);
      for (const words of [
        'Write Markdown',
        'Tagged PDF',
        'Typesetting',
        'greet',
        'The area of a circle',
        '👍🏽',
        '🚀',
        'highlighted',
        'Details stay open in print',
        'Hidden on the web',
        'ISBN 978-0-201-37962-4',
      ]) {
        assert.ok(text.includes(words), `"${words}" missing from the ${theme} text`);
      }
      const tree = await structureText(pdf);
      assert.equal((tree.match(/^\s*Formula\b/gm) ?? []).length, 2, 'inline and display formulas');
      assert.ok((tree.match(/^\s*Figure\b/gm) ?? []).length >= 6, 'logo, two diagrams, two barcodes, the PNG');
      const raw = Buffer.from(pdf).toString('latin1');
      assert.match(raw, /\/Alt \(e\^\{i\\\\pi\} \+ 1 = 0\)/);
      // Only the PNG is a raster (with its soft mask): formulas, diagrams, barcodes, emoji and the SVG logo are vectors.
      const images = execFileSync('pdfimages', ['-list', pdfFile(pdf)], { encoding: 'utf8' })
        .trim()
        .split('\n')
        .slice(2);
      assert.equal(images.filter((line) => line.trim().split(/\s+/)[2] === 'image').length, 1, images.join('\n'));
      const page = await pixel(pdf, 5, 5);
      if (theme === 'dark') assert.ok(page.every((channel) => channel < 40));
      else assert.deepEqual(page, [255, 255, 255]);
    });
  }
});
