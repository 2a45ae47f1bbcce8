/** `columns`: the body in two columns, a leading title block and contents across both, judged on real PDFs. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FrontMatterError, render } from '#engine/index.js';
import { pdftotext, structureText, wordBoxes, type WordBox } from '../../support/pdf-tools.js';
import { unmarkedPainting } from '../../support/pdf-content.js';

const MM = 72 / 25.4;
const A4_WIDTH = 210 * MM;
/** Quire's own text block on A4: 34.5 em of 10.5 pt, centred. */
const BLOCK = 34.5 * 10.5;
const LEFT = (A4_WIDTH - BLOCK) / 2;
const GAP = 7 * MM;
const COLUMN = (BLOCK - GAP) / 2;

const PARAGRAPH = 'Words set in a narrow column read quickly and wrap often across the measure. '.repeat(12);
const body = (sections: number) => Array.from({ length: sections }, (_, index) => `## Part ${index + 1}\n\n${PARAGRAPH}\n`).join('\n');

const inLeft = (word: WordBox) => word.xMin >= LEFT - 1 && word.xMax <= LEFT + COLUMN + 1;
const inRight = (word: WordBox) => word.xMin >= LEFT + COLUMN + GAP - 1 && word.xMax <= LEFT + BLOCK + 1;

describe('two columns', () => {
  it('should set the body in two columns with the gap between, filling the left one first', async () => {
    const { pdf } = await render(`---\ncolumns: 2\nfooter: false\n---\n\n${body(6)}`);
    const [first] = await wordBoxes(pdf);
    const words = first!.words;
    assert.ok(
      words.every((word) => inLeft(word) || inRight(word)),
      'every word in one column or the other',
    );
    assert.ok(words.filter(inLeft).length > 50 && words.filter(inRight).length > 50, 'both columns hold text');
    const rightTop = Math.min(...words.filter(inRight).map((word) => word.yMin));
    const leftTop = Math.min(...words.filter(inLeft).map((word) => word.yMin));
    assert.ok(Math.abs(rightTop - leftTop) < 16, 'the columns start level');
    const structure = await structureText(pdf);
    assert.ok(
      structure.indexOf('Part 1') < structure.indexOf('Part 2') && structure.indexOf('Part 2') < structure.indexOf('Part 3'),
      'read in order, left column first',
    );
    assert.deepEqual(await unmarkedPainting(pdf), []);
  });

  it("should balance the last page's columns rather than leave the right one short or empty", async () => {
    const bottoms = async (source: string) => {
      const sheets = await wordBoxes((await render(source)).pdf);
      const last = sheets.at(-1)!.words;
      return {
        pages: sheets.length,
        left: Math.max(...last.filter(inLeft).map((word) => word.yMax)),
        right: Math.max(...last.filter(inRight).map((word) => word.yMax)),
      };
    };
    // Two parts fit the left column of one page alone; nine fill three pages and a little of a fourth.
    for (const sections of [2, 9]) {
      const { pages, left, right } = await bottoms(`---\ncolumns: 2\nfooter: false\n---\n\n${body(sections)}`);
      assert.ok(Number.isFinite(right), `${sections} parts: the right column of page ${pages} holds text`);
      assert.ok(Math.abs(left - right) <= 14.5 + 1, `${sections} parts: the columns end within a line of each other (${left}, ${right})`);
    }
    const { left, right } = await bottoms(`---\ntitle: Short\ncolumns: 2\nfooter: false\n---\n\n${body(2)}`);
    assert.ok(Math.abs(left - right) <= 14.5 + 1, `under a title block too (${left}, ${right})`);
  });

  it('should keep a heading with its text when balancing a short last page', async () => {
    const { pdf } = await render('---\ncolumns: 2\nfooter: false\n---\n\nFirst.\n\n\\newpage\n\n## Second\n\nMore.\n');
    const last = (await wordBoxes(pdf)).at(-1)!.words;
    assert.deepEqual(
      last.map((word) => word.text),
      ['Second', 'More.'],
    );
    assert.ok(last.every(inLeft), 'both in the left column');
  });

  it('should span the title block and contents across both columns above them', async () => {
    const { pdf } = await render(`---\ntitle: A Two-Column Paper\ntoc: true\ncolumns: {count: 2, gap: 10mm}\n---\n\n${body(3)}`);
    const [first] = await wordBoxes(pdf);
    const title = first!.words.filter((word) => ['A', 'Two-Column', 'Paper'].includes(word.text));
    const centre = (Math.min(...title.map((word) => word.xMin)) + Math.max(...title.map((word) => word.xMax))) / 2;
    assert.ok(Math.abs(centre - A4_WIDTH / 2) < 2, `title centred on the page (${centre})`);
    const contents = first!.words.find((word) => word.text === 'Contents')!;
    const entries = first!.words.filter((word) => word.yMin > contents.yMax && word.yMin < contents.yMax + 60);
    assert.ok(Math.max(...entries.map((word) => word.xMax)) > LEFT + BLOCK - 5, 'the contents run the full width to their page numbers');
    const part1 = first!.words.find((word) => word.text === 'Words')!;
    assert.ok(Math.abs(part1.xMin - LEFT) < 1 && part1.yMin > contents.yMax + 40, 'the first column starts at the left edge below them');
    const gap10 = first!.words.filter((word) => word.yMin > part1.yMin && word.xMin > A4_WIDTH / 2 - 20);
    const rightEdge = LEFT + (BLOCK - 10 * MM) / 2 + 10 * MM;
    assert.ok(
      gap10.some((word) => Math.abs(word.xMin - rightEdge) < 1),
      'the second column starts after a 10 mm gap',
    );
  });

  it('should end the page, not only the column, at a forced break, and give a title page the full width', async () => {
    const { pdf, pages } = await render(`---\ntitle: Broken\ntitle_page: true\ncolumns: 2\n---\n\nFirst part.\n\n\\newpage\n\nSecond part.\n`);
    assert.equal(pages, 3);
    assert.match(await pdftotext(pdf, { first: 1, last: 1 }), /^Broken\s*$/);
    assert.match(await pdftotext(pdf, { first: 2, last: 2 }), /^First part\.\n/);
    assert.match(await pdftotext(pdf, { first: 3, last: 3 }), /^Second part\.\n/);
    const sheets = await wordBoxes(pdf);
    assert.ok(Math.abs(sheets[2]!.words[0]!.xMin - LEFT) < 1, 'in the left column of a new page');
  });

  it('should refuse other counts and a gap too wide, naming the key and value', async () => {
    await assert.rejects(
      render('---\ncolumns: 3\n---\n\nText'),
      (error: unknown) => error instanceof FrontMatterError && /columns must be 1 or 2, or count \(1 or 2\) and gap .*, not 3/.test(error.message),
    );
    await assert.rejects(render('---\ncolumns: {count: 2, gap: 3in}\n---\n\nText'), /columns must be .* not \{"count":2,"gap":"3in"\}/);
  });
});
