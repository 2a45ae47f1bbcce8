/** `title_page` and `cover_image`, judged on real PDFs. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { folderLoader, render, ResourceError } from '#engine/index.js';
import { FIXTURES } from '../../support/fixtures.js';
import { pdftotext, structureText, wordBoxes } from '../../support/pdf-tools.js';
import { rasterImageCount, unmarkedPainting } from '../../support/pdf-content.js';

const MM = 72 / 25.4;
const source = (extra: string) =>
  `---\ntitle: Field Notes\nsubtitle: A season outdoors\nauthor: Ada Lovelace\ndate: 2026-08-11\ntoc: true\n${extra}\n---\n\n# Alpha\n\nAlpha text.\n\n# Beta\n\nBeta text.\n`;

describe('title page', () => {
  it('should set the title block alone on the first page, without header or footer, the contents after it', async () => {
    const { pdf, pages } = await render(source('title_page: true\nheader: "{title}"\nheader_first_page: true\nfooter: "{page} of {pages}"'));
    const first = (await pdftotext(pdf, { first: 1, last: 1 })).trim();
    assert.equal(first, 'Field Notes\nA season outdoors\nAda Lovelace\n2026-08-11');
    const second = await pdftotext(pdf, { first: 2, last: 2 });
    assert.match(second, /^Field Notes\n\nContents\nAlpha/, 'the contents (under the header) open page 2');
    assert.match(second, /2 of \d/);
    const [sheet] = await wordBoxes(pdf);
    const title = sheet!.words.find((word) => word.text === 'Field')!;
    const date = sheet!.words.find((word) => word.text === '2026-08-11')!;
    // Two parts of the free text block above it to three below: the optical centre.
    const [top, bottom] = [22 * MM, sheet!.height - 26 * MM];
    const ratio = (title.yMin - top) / (bottom - date.yMax);
    assert.ok(Math.abs(ratio - 2 / 3) < 0.06, `the block on the optical centre, ${title.yMin.toFixed(0)} to ${date.yMax.toFixed(0)} (${ratio.toFixed(2)})`);
    assert.ok(pages >= 2);
    assert.match(await structureText(pdf), /H1[^\n]*\n\s*"Field Notes"/, 'the title is still the first H1');
  });

  it('should keep the title block on the first page with the text by default', async () => {
    const { pdf } = await render(source(''));
    assert.match(await pdftotext(pdf, { first: 1, last: 1 }), /^Field Notes\nA season outdoors\nAda Lovelace\n2026-08-11\n\nContents/);
  });

  it('should draw the cover image through the loader, on the title page, as an artifact', async () => {
    const { pdf } = await render(source('title_page: true\ncover_image: images/gradient.png'), { loader: folderLoader(FIXTURES) });
    assert.equal(await rasterImageCount(pdf), 1);
    const [sheet] = await wordBoxes(pdf);
    assert.ok(sheet!.words.some((word) => word.text === 'Field'));
    assert.doesNotMatch(await structureText(pdf), /Figure/);
    assert.deepEqual(await unmarkedPainting(pdf), []);
  });

  it('should fail on a cover image that cannot be loaded in strict mode, and leave it out in lenient mode', async () => {
    await assert.rejects(render(source('title_page: true\ncover_image: images/missing.png'), { loader: folderLoader(FIXTURES) }), ResourceError);
    const { pdf, warnings } = await render(source('title_page: true\ncover_image: images/missing.png'), {
      loader: folderLoader(FIXTURES),
      resources: 'lenient',
    });
    assert.equal(await rasterImageCount(pdf), 0);
    assert.ok(warnings.length > 0);
  });

  it('should refuse bad values naming the key and value', async () => {
    await assert.rejects(render(source('title_page: maybe')), /title_page must be true or false, not "maybe"/);
    await assert.rejects(render(source('cover_image: 12')), /cover_image must be the path or URL of an image, not 12/);
  });
});
