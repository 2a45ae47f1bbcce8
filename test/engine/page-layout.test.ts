/**
 * The page as a whole, judged on real PDFs: the measure of body text, and where pages break.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { deflateSync } from 'node:zlib';
import { render } from '../../engine/index.js';
import { METRICS, pageGeometry } from '../../engine/layout/theme.js';
import { fixture } from '../support/fixtures.js';
import { elementLines, pageLines } from '../support/marked-lines.js';
import { imageList } from '../content/images-page.js';
import { pdftotext, textLines } from '../support/pdf-tools.js';
import { pngFile } from '../support/png-file.js';

const commonmarkSpec = () => readFileSync(createRequire(import.meta.url).resolve('commonmark-spec/spec.txt'), 'utf8');

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
  let manual: ReturnType<typeof render> | undefined;
  /** The Pandoc manual, justified in English: 137 pages of headings, prose, lists and code. */
  const pandocManual = () => (manual ??= render(fixture('real/pandoc-manual.md'), { resources: 'lenient', language: 'en' }));

  for (const paper of ['a4', 'letter']) {
    it(`should set English body text at 66–78 characters a line on ${paper}, justified and ragged`, async () => {
      for (const language of ['en', null]) {
        const average = await charactersPerLine(`---\npaper: ${paper}\n${language ? `language: ${language}\n` : ''}---\n\n${prose}`);
        assert.ok(average >= 66 && average <= 78, `${language ?? 'ragged'}: ${average.toFixed(1)} characters a line`);
      }
    });
  }

  it('should never split a code block of up to 8 lines, leave 3 lines of a longer one on each page, and never continue one with a blank line (CommonMark spec)', async () => {
    const { pdf } = await render(commonmarkSpec(), { resources: 'lenient' });
    const blocks = await elementLines(pdf, 'Code');
    const firstBaseline = pageGeometry('a4').marginTop + METRICS.codeLeading;
    let split = 0;
    for (const [index, pages] of blocks.entries()) {
      if (pages.size < 2) continue;
      split += 1;
      const pieces = [...pages.values()].map((baselines) => Math.round((baselines.at(-1)! - baselines[0]!) / METRICS.codeLeading) + 1);
      const lines = pieces.reduce((sum, count) => sum + count, 0);
      assert.ok(lines > 8, `block ${index} of ${lines} lines is split`);
      assert.ok(pieces.every((count) => count >= 3), `block ${index} split ${pieces.join(' + ')}`);
      for (const baselines of [...pages.values()].slice(1)) assert.ok(baselines[0]! < firstBaseline, `block ${index} continues below a blank line (${baselines[0]})`);
    }
    assert.ok(split > 5, `${split} code blocks split: the test sees splits`);
  });

  it('should end no page in a hyphenated word where another break exists (Pandoc manual)', async () => {
    const pages = await pageLines((await pandocManual()).pdf);
    assert.ok(pages.flat().some((line) => line.hyphenated), 'the text is hyphenated');
    pages.slice(0, -1).forEach((lines, index) => assert.equal(lines.at(-1)!.hyphenated, false, `page ${index + 1} ends in a hyphen`));
  });

  it("should end no page but a chapter's last more than 5 lines short (Pandoc manual)", async () => {
    const { pdf } = await pandocManual();
    const pages = await pageLines(pdf);
    const bottoms = pages.map((lines) => lines.at(-1)?.baseline ?? 0);
    const full = [...bottoms].sort((a, b) => a - b)[Math.floor(bottoms.length * 0.75)]!;
    const chapters = new Set((await elementLines(pdf, 'H1')).flatMap((element) => [...element.keys()]));
    const short = bottoms
      .map((bottom, index) => ({ page: index + 1, lines: (full - bottom) / METRICS.bodyLeading }))
      .filter(({ page, lines }) => page < pages.length && !chapters.has(page + 1) && lines > 5);
    assert.deepEqual(short, [], 'pages ending short');
  });

  it('should print a footnote cited on several pages once, on the page of its first citation', async () => {
    const filler = Array.from({ length: 30 }, (_, i) => `Paragraph ${i} cites the note.[^shared] ${'Words fill the page here. '.repeat(12)}`).join('\n\n');
    const { pdf, pages } = await render(`${filler}\n\n[^shared]: The only copy of this footnote.`);
    assert.ok(pages >= 3);
    assert.equal((await pdftotext(pdf)).split('The only copy of this footnote').length - 1, 1);
    assert.match(await pdftotext(pdf, { first: 1, last: 1 }), /The only copy of this footnote/);
  });

  it('should move a figure that does not fit to the next page\'s top and fill the gap with the text after it', async () => {
    const picture = pngFile(600, 500, 2, deflateSync(Buffer.alloc(500 * (1 + 600 * 3))));
    const before = Array.from({ length: 7 }, (_, i) => `Before ${i}. ${'Text before the figure. '.repeat(14)}`).join('\n\n');
    const markdown = `${before}\n\n![A figure](data:image/png;base64,${picture.toString('base64')})\n\nAfterFigure text follows the figure in the source.\n\n${'More text. '.repeat(40)}`;
    const { pdf } = await render(markdown);
    assert.match(await pdftotext(pdf, { first: 1, last: 1 }), /AfterFigure/, 'the text after the figure fills the first page');
    assert.deepEqual((await imageList(pdf)).map((image) => image.page), [2], 'the figure heads page 2');
  });
});
