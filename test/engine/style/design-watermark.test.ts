/** `watermark`: light diagonal text on every page, an artifact, judged on real PDFs. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { FrontMatterError, render } from '#engine/index.js';
import { pdfFile, pdftotext, structureText } from '../../support/pdf-tools.js';
import { uncompressed, unmarkedPainting } from '../../support/pdf-content.js';

const run = promisify(execFile);

/** Each page as grey pixels at 20 dpi: its width, height and values (0 black, 255 white). */
async function greyPages(pdf: Uint8Array): Promise<Array<{ width: number; height: number; grey: Uint8Array }>> {
  const file = pdfFile(pdf);
  const pages: Array<{ width: number; height: number; grey: Uint8Array }> = [];
  for (let page = 1; ; page++) {
    try {
      await run('pdftoppm', ['-gray', '-r', '20', '-f', String(page), '-l', String(page), '-singlefile', file, `${file}-${page}`]);
    } catch {
      return pages;
    }
    const pgm = readFileSync(`${file}-${page}.pgm`);
    const header = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(pgm.subarray(0, 40).toString('latin1'))!;
    pages.push({ width: Number(header[1]), height: Number(header[2]), grey: pgm.subarray(header[0].length) });
  }
}

/** Light grey pixels (neither white nor text-dark) along the lower-left to upper-right diagonal. */
function greyOnDiagonal(page: { width: number; height: number; grey: Uint8Array }): number {
  let count = 0;
  for (let step = 0.25; step <= 0.75; step += 0.005) {
    const x = Math.round(step * page.width);
    const y = Math.round((1 - step) * page.height);
    const value = page.grey[y * page.width + x]!;
    if (value > 180 && value < 250) count++;
  }
  return count;
}

const SOURCE = '---\nwatermark: DRAFT\n---\n\nFirst page.\n\n\\newpage\n\nSecond page.\n';

describe('watermark', () => {
  it('should draw light diagonal text on every page, and nothing without the key', async () => {
    const marked = await greyPages((await render(SOURCE)).pdf);
    assert.equal(marked.length, 2);
    for (const page of marked) assert.ok(greyOnDiagonal(page) > 20, `${greyOnDiagonal(page)} light pixels on the diagonal`);
    const plain = await greyPages((await render(SOURCE.replace('watermark: DRAFT', 'title: Plain'))).pdf);
    for (const page of plain) assert.ok(greyOnDiagonal(page) < 3);
  });

  it('should be an artifact: not in the text, not in the structure, painted inside an Artifact sequence with a light fill', async () => {
    const { pdf } = await render(SOURCE);
    assert.doesNotMatch(await pdftotext(pdf), /DRAFT/);
    assert.doesNotMatch(await structureText(pdf), /DRAFT/);
    assert.deepEqual(await unmarkedPainting(pdf), []);
    const content = await uncompressed(pdf);
    assert.equal(content.match(/\/Artifact BMC\nq\n[^\n]* cm\n[\s\S]*?\/Gs\w+ gs/g)?.length, 2, 'one translucent artifact path per page, first on the page');
    assert.match(content, /\/ca 0\.13/);
  });

  it('should refuse a watermark that is not one short line, naming the key and value', async () => {
    await assert.rejects(
      render('---\nwatermark: [a, b]\n---\n\nText'),
      (error: unknown) =>
        error instanceof FrontMatterError && /watermark must be one line of text of at most 40 characters, not \["a","b"\]/.test(error.message),
    );
    await assert.rejects(render(`---\nwatermark: ${'x'.repeat(41)}\n---\n\nText`), FrontMatterError);
  });
});
