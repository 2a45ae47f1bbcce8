import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { render } from '#engine/index.js';
import { fixture } from '../../support/fixtures.js';
import { pdfinfo, pdftotext } from '../../support/pdf-tools.js';

describe('pagination', () => {
  it('should split a 200-row table across pages, repeating its header row on each', async () => {
    const { pdf, pages } = await render(fixture('table-200.md'));
    assert.ok(pages >= 4, `pages: ${pages}`);
    const seen = new Set<number>();
    for (let page = 1; page <= pages; page++) {
      const text = await pdftotext(pdf, { first: page, last: page });
      const rows = [...text.matchAll(/row (\d+) of the long table/g)].map((match) => Number(match[1]));
      rows.forEach((row) => seen.add(row));
      if (rows.length > 0) assert.match(text, /#\s+Item\s+Quantity\s+Price\s+Note/, `header on page ${page}`);
    }
    assert.equal(seen.size, 200);
  });

  it('should keep a heading with the paragraph after it', async () => {
    for (let filler = 40; filler < 60; filler++) {
      const markdown = `${'Line of filler text.\n\n'.repeat(filler)}## Kept heading\n\nFirst line under the heading.`;
      const { pdf, pages } = await render(markdown);
      for (let page = 1; page <= pages; page++) {
        const text = (await pdftotext(pdf, { first: page, last: page }))
          .trim()
          .split('\n')
          .filter((line) => line.trim() && !/^\d+$/.test(line.trim()));
        assert.notEqual(text.at(-1), 'Kept heading', `heading last on page ${page} with ${filler} fillers`);
      }
    }
  });

  it('should never leave one line of a paragraph alone at the foot or head of a page', async () => {
    const paragraph = 'This paragraph is long enough to span several lines of text on the page so that a page break may fall inside it. '.repeat(4);
    for (let filler = 42; filler < 50; filler++) {
      const { pdf, pages } = await render(`${'Filler.\n\n'.repeat(filler)}${paragraph}`);
      if (pages < 2) continue;
      const first = (await pdftotext(pdf, { first: 1, last: 1 }))
        .trim()
        .split('\n')
        .filter((line) => line.trim() && !/^\d+$/.test(line.trim()));
      const second = (await pdftotext(pdf, { first: 2, last: 2 }))
        .trim()
        .split('\n')
        .filter((line) => line.trim() && !/^\d+$/.test(line.trim()));
      const tail = first.slice(first.findIndex((line) => line.startsWith('This paragraph')));
      if (tail.length > 0 && tail[0]!.startsWith('This paragraph') && second.length > 0) {
        assert.ok(tail.length >= 2, `orphan with ${filler} fillers`);
        assert.ok(second.length >= 2, `widow with ${filler} fillers`);
      }
    }
  });

  it('should number pages in the footer and use Letter paper when asked', async () => {
    const { pdf } = await render(`---\npaper: letter\n---\n\n${'Text.\n\n'.repeat(120)}`);
    const info = await pdfinfo(pdf);
    assert.match(info['Page size']!, /^612 x 792/);
    const second = await pdftotext(pdf, { first: 2, last: 2 });
    assert.match(second.trim(), /2$/);
  });
});
