/**
 * The design gallery (fixtures/designs/, rendered into docs/designs/): each document rendered by
 * `quire render` as docs/markdown.md links it, judged on its essentials — paper, pages, running
 * lines, columns, type size, colours — and the committed PDFs checked to be what the code renders.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FIXTURES } from '../../support/fixtures.js';
import { pageSizes, pdffonts, pdftotext, pixel, wordBoxes, type WordBox } from '../../support/pdf-tools.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const BIN = path.join(ROOT, 'bin/quire.cjs');
const GALLERY = path.join(FIXTURES, 'designs');
const COMMITTED = path.join(ROOT, 'docs/designs');
const MM = 72 / 25.4;
const OUT = mkdtempSync(path.join(tmpdir(), 'quire-gallery-'));

const rendered = new Map<string, Buffer>();

/** The gallery document `name` as `quire render` writes it (once per run). */
function render(name: string): Buffer {
  let pdf = rendered.get(name);
  if (!pdf) {
    const output = path.join(OUT, `${name}.pdf`);
    const result = spawnSync(process.execPath, [BIN, 'render', path.join(GALLERY, `${name}.md`), '-o', output, '--offline']);
    assert.equal(result.status, 0, result.stderr.toString());
    assert.doesNotMatch(result.stderr.toString(), /warning/, 'the gallery renders without warnings');
    pdf = readFileSync(output);
    rendered.set(name, pdf);
  }
  return pdf;
}

const sizes = async (pdf: Buffer) => (await pageSizes(pdf)).map((size) => [Math.round(size.width), Math.round(size.height)]);
const squeeze = (text: string) => text.replace(/\s+/g, ' ').trim();
/** Words whose top is within `points` of the sheet's top or bottom edge. */
const nearTop = (words: readonly WordBox[], points: number) => words.filter((word) => word.yMin < points);
const nearFoot = (words: readonly WordBox[], height: number, points: number) => words.filter((word) => word.yMax > height - points);
const line = (words: readonly WordBox[]) => words.map((word) => word.text).join(' ');

/** The x of each line start of running text, rounded: one cluster a column. */
function lineStarts(words: readonly WordBox[]): number[] {
  const lines = new Map<number, number>();
  for (const word of words) {
    const key = Math.round(word.yMax);
    lines.set(key, Math.min(lines.get(key) ?? Infinity, word.xMin));
  }
  return [...lines.values()];
}

describe('the design gallery', () => {
  it('should set the report on A4 with a title page, numbered headings, the title and section above and "Page X of Y" below', async () => {
    const pdf = render('report');
    const pages = await sizes(pdf);
    assert.ok(pages.length >= 5 && pages.length <= 8, `${pages.length} pages`);
    assert.ok(
      pages.every(([width, height]) => width === 595 && height === 842),
      'A4 throughout',
    );
    const sheets = await wordBoxes(pdf);
    const cover = sheets[0]!;
    assert.match(
      squeeze(line(cover.words)),
      /^The Aire at Kirkstall Summer water-quality survey, June–August 2026 Priya Raman, Tomás Lindqvist 30 September 2026$/,
      'the title page holds the title block alone',
    );
    assert.ok(
      (await pixel(pdf, 83, 125)).some((channel) => channel < 200),
      'the cover picture is drawn below the title block',
    );
    for (const [index, sheet] of sheets.entries()) {
      if (index === 0) continue;
      const head = line(nearTop(sheet.words, 18 * MM));
      const section = /^The Aire at Kirkstall (\d[\d.]* [A-Z].*|Appendix: equipment)$/.exec(head)?.[1];
      assert.ok(section, `page ${index + 1}'s header: ${head}`);
      const below = line(sheet.words.filter((word) => word.yMin > 18 * MM));
      // After the contents (page 2), which name every section.
      const before = sheets
        .slice(2, index)
        .map((earlier) => line(earlier.words))
        .join(' ');
      assert.ok(below.includes(section) || before.includes(section), `page ${index + 1}'s section, ${section}, begins on it or before it`);
      const foot = nearFoot(sheet.words, sheet.height, 20 * MM);
      assert.equal(line(foot), `Page ${index + 1} of ${sheets.length}`);
      assert.ok(
        Math.abs(foot.at(-1)!.xMax - nearTop(sheet.words, 18 * MM).at(-1)!.xMax) < 0.5,
        'the footer ends where the header does, at the right of the text block',
      );
    }
    const text = squeeze(await pdftotext(pdf));
    assert.match(text, /Contents 1 Summary 2 2 Sites and methods 2\.1 Where we sampled/);
    for (const heading of ['1 Summary', '2 Sites and methods', '2.1 Where we sampled', '3.2 Nutrients', '5 Next steps'])
      assert.ok(text.includes(` ${heading} `), heading);
    assert.match(text, / Appendix: equipment Optical/, 'an unnumbered appendix');
  });

  it('should set the letter on US Letter in a sans face, with generous margins and no running line on its first page', async () => {
    const pdf = render('letter');
    const pages = await sizes(pdf);
    assert.ok(pages.length >= 2 && pages.length <= 3, `${pages.length} pages`);
    assert.ok(
      pages.every(([width, height]) => width === 612 && height === 792),
      'Letter throughout',
    );
    const fonts = (await pdffonts(pdf)).map((font) => font.name);
    assert.ok(fonts.some((name) => /SourceSans/.test(name)) && !fonts.some((name) => /SourceSerif/.test(name)), fonts.join(', '));
    const sheets = await wordBoxes(pdf);
    const [first, second] = sheets;
    assert.equal(first!.words[0]!.text, 'Northfield', 'the first page starts with the letterhead');
    assert.ok(
      first!.words.every((word) => word.yMin > 1 * 72 - 12 && word.yMax < 792 - 1 * 72 + 2),
      'nothing above or below the text block on the first page',
    );
    for (const sheet of sheets)
      assert.ok(
        sheet.words.every((word) => word.xMin > 1.25 * 72 - 1 && word.xMax < 612 - 1.25 * 72 + 1),
        '1.25 in side margins',
      );
    assert.equal(line(nearTop(second!.words, 0.8 * 72)), 'Ms. Adaeze Okafor 14 October 2026 Page 2');
    assert.deepEqual(nearFoot(second!.words, 792, 0.9 * 72), [], 'no footer');
    assert.match(squeeze(await pdftotext(pdf)), /Yours sincerely, Margaret Ellison Director, Northfield Press Enclosures/);
  });

  it('should set the article in two columns of 9.5 pt under a title block that spans them', async () => {
    const pdf = render('article');
    const pages = await sizes(pdf);
    assert.ok(pages.length >= 2 && pages.length <= 3, `${pages.length} pages`);
    const sheets = await wordBoxes(pdf);
    const block = { left: 16 * MM, right: 210 * MM - 16 * MM };
    const column = (block.right - block.left - 7 * MM) / 2;
    const first = sheets[0]!;
    const title = first.words.filter((word) => word.yMin < 40 * MM && ['Does', 'screen?'].includes(word.text));
    const centre = (title[0]!.xMin + title[1]!.xMax) / 2;
    assert.ok(Math.abs(centre - (210 * MM) / 2) < 2, `the title centred across the page (${centre})`);
    for (const [index, sheet] of sheets.entries()) {
      const body = sheet.words.filter((word) => word.yMin > (index === 0 ? 60 * MM : 18 * MM) && word.yMax < sheet.height - 20 * MM);
      const starts = lineStarts(body);
      const left = starts.filter((x) => x < block.left + column);
      const right = starts.filter((x) => x >= block.left + column + 7 * MM - 1);
      assert.equal(left.length + right.length, starts.length, `page ${index + 1}: every line starts in one column or the other`);
      assert.ok(left.length > 10 && right.length > 10, `page ${index + 1}: two columns of text (${left.length}, ${right.length})`);
      assert.ok(left.filter((x) => Math.abs(x - block.left) < 1).length > left.length / 2, 'the left column starts at the 16 mm margin');
      assert.ok(right.filter((x) => Math.abs(x - (block.left + column + 7 * MM)) < 1).length > right.length / 2, 'the right column starts after a 7 mm gap');
    }
    // Leading follows the type: 14.5 pt at 10.5 pt is 13.1 pt at 9.5 pt.
    const abstract = first.words.filter((word) => word.xMax < block.left + column && word.yMin > 60 * MM).slice(0, 60);
    const baselines = [...new Set(abstract.map((word) => Math.round(word.yMax * 10) / 10))].sort((a, b) => a - b);
    const steps = baselines
      .slice(1)
      .map((y, index) => y - baselines[index]!)
      .filter((step) => step < 20);
    assert.ok(steps.length > 4 && steps.every((step) => Math.abs(step - 14.5 * (9.5 / 10.5)) < 0.3), `leading ${steps.join(', ')}`);
    assert.deepEqual(nearTop(first.words, 14 * MM), [], 'no header over the title');
    assert.equal(line(nearTop(sheets[1]!.words, 14 * MM)), 'Kobayashi & Moreau Does the measure matter on screen?');
    assert.equal(line(nearFoot(sheets[1]!.words, sheets[1]!.height, 20 * MM)), '2');
  });

  it('should set the handout on dark, turned A5 pages in two columns, the watermark no part of the text', async () => {
    const pdf = render('handout');
    const pages = await sizes(pdf);
    assert.ok(pages.length >= 2 && pages.length <= 4, `${pages.length} pages`);
    assert.ok(
      pages.every(([width, height]) => width === 595 && height === 420),
      'A5 landscape throughout',
    );
    const corner = await pixel(pdf, 2, 2);
    assert.ok(
      corner.every((channel) => channel < 40),
      `a dark page (${corner})`,
    );
    const text = await pdftotext(pdf);
    assert.doesNotMatch(text, /DRAFT/);
    const sheets = await wordBoxes(pdf);
    for (const [index, sheet] of sheets.entries()) {
      assert.match(line(nearTop(sheet.words, 12 * MM)), /^Git for data teams · session 2 \S/, `page ${index + 1}'s header`);
      assert.equal(line(nearFoot(sheet.words, sheet.height, 14 * MM)), `${index + 1} / ${sheets.length}`);
      const middle = sheet.width / 2;
      // Below the title block, which spans both columns.
      const body = sheet.words.filter((word) => word.yMin > (index === 0 ? 45 * MM : 14 * MM) && word.yMax < sheet.height - 16 * MM);
      assert.ok(body.some((word) => word.xMax < middle - 5) && body.some((word) => word.xMin > middle + 5), `page ${index + 1}: two columns`);
      assert.ok(
        body.every((word) => word.xMax < middle - 5 || word.xMin > middle + 5),
        `page ${index + 1}: nothing in the gap`,
      );
    }
  });

  for (const name of ['report', 'letter', 'article', 'handout']) {
    it(`should find docs/designs/${name}.pdf the same as the code renders it now`, async () => {
      const committed = readFileSync(path.join(COMMITTED, `${name}.pdf`));
      const fresh = render(name);
      const again = `stale: render it again with bin/quire render fixtures/designs/${name}.md -o docs/designs/${name}.pdf`;
      assert.deepEqual(await sizes(committed), await sizes(fresh), again);
      assert.equal(await pdftotext(committed), await pdftotext(fresh), again);
    });
  }
});
