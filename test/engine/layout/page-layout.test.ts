/**
 * The page as a whole, judged on real PDFs: the measure of body text, and where pages break.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { deflateSync } from 'node:zlib';
import { render } from '#engine/index.js';
import { METRICS } from '#engine/style/metrics.js';
import { pageGeometry } from '#engine/style/page-geometry.js';
import { DEFAULT_DESIGN } from '#engine/style/design-settings.js';
import { fixture } from '../../support/fixtures.js';
import { elementLines, pageLines } from '../../support/marked-lines.js';
import { imageList } from '../content/images-page.js';
import { pdftotext, textLines } from '../../support/pdf-tools.js';
import { pngFile } from '../../support/png-file.js';

const commonmarkSpec = () => readFileSync(createRequire(import.meta.url).resolve('commonmark-spec/spec.txt'), 'utf8');

/** Mean characters of the full lines (every line of a paragraph but its last) of body text. */
async function charactersPerLine(markdown: string): Promise<number> {
  const lines = await textLines((await render(markdown)).pdf);
  const bodyLeft = mode(lines.map((line) => Math.round(line.left)));
  const full = lines.filter((line) => Math.round(line.left) === bodyLeft && !line.lastInBlock && /^[A-Za-z]/.test(line.text));
  assert.ok(full.length > 40, `${full.length} full lines`);
  return full.reduce((sum, line) => sum + line.text.length, 0) / full.length;
}

/**
 * Each code block's pieces, page by page: how many lines each draws (blank lines draw nothing).
 * Checks that no piece after the first starts below the top of its page, which a blank line at
 * its start would make it.
 */
async function codePieces(pdf: Uint8Array): Promise<number[][]> {
  const top = pageGeometry(DEFAULT_DESIGN).marginTop + METRICS.codeLeading;
  return (await elementLines(pdf, 'Code')).map((pages) =>
    [...pages.values()].map((baselines, piece) => {
      if (piece > 0) assert.ok(baselines[0]! < top, `a continued code block starts below a blank line (${baselines[0]})`);
      return baselines.length;
    }),
  );
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

  it('should never split a code block of up to 8 lines, leave 3 lines of a longer one on each page, and never continue one with a blank line', async () => {
    // Blocks of every length from 1 to 24 lines, every fifth line blank, after paragraphs of
    // varying length, so that page breaks fall at every position of some block.
    const blocks: boolean[][] = [];
    const parts: string[] = [];
    for (let i = 0; i < 60; i++) {
      const blank = Array.from({ length: ((i * 7) % 24) + 1 }, (_, line) => line % 5 === 3);
      blocks.push(blank);
      parts.push('Words of a paragraph. '.repeat(((i * 5) % 23) + 1));
      parts.push(`\`\`\`\n${blank.map((isBlank, line) => (isBlank ? '' : `line ${line + 1}`)).join('\n')}\n\`\`\``);
    }
    const pieces = await codePieces((await render(parts.join('\n\n'))).pdf);
    assert.equal(pieces.length, blocks.length, 'one Code element a block');
    let splits = 0;
    pieces.forEach((drawn, index) => {
      if (drawn.length < 2) return;
      splits += 1;
      // Blank lines draw nothing: a piece's true start is the drawn line it starts with (never a blank).
      const drawnLines = blocks[index]!.flatMap((isBlank, line) => (isBlank ? [] : [line]));
      const starts = drawn.map((_, piece) => drawnLines[drawn.slice(0, piece).reduce((sum, count) => sum + count, 0)]!);
      const lengths = starts.map((start, piece) => (starts[piece + 1] ?? blocks[index]!.length) - start);
      assert.ok(blocks[index]!.length > 8, `block ${index} of ${blocks[index]!.length} lines is split`);
      assert.ok(
        lengths.every((length) => length >= 3),
        `block ${index} split ${lengths.join(' + ')}`,
      );
    });
    assert.ok(splits >= 5, `${splits} blocks split: the test sees splits`);
  });

  it("should split the CommonMark spec's code blocks only where both pieces are long enough", async () => {
    const pieces = await codePieces((await render(commonmarkSpec(), { resources: 'lenient' })).pdf);
    const splits = pieces.filter((counts) => counts.length > 1);
    assert.ok(splits.length > 5, `${splits.length} blocks split`);
    // Counted in drawn lines: blank lines draw nothing, so a piece holds at least this many.
    for (const counts of splits) assert.ok(counts.reduce((sum, count) => sum + count, 0) > 6 && counts.every((count) => count >= 2), counts.join(' + '));
  });

  it('should end no page in a hyphenated word where another break exists (Pandoc manual)', async () => {
    const pages = await pageLines((await pandocManual()).pdf);
    assert.ok(
      pages.flat().some((line) => line.hyphenated),
      'the text is hyphenated',
    );
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

  it("should move a figure that does not fit to the next page's top and fill the gap with the text after it", async () => {
    const picture = pngFile(600, 500, 2, deflateSync(Buffer.alloc(500 * (1 + 600 * 3))));
    const before = Array.from({ length: 7 }, (_, i) => `Before ${i}. ${'Text before the figure. '.repeat(14)}`).join('\n\n');
    const markdown = `${before}\n\n![A figure](data:image/png;base64,${picture.toString('base64')})\n\nAfterFigure text follows the figure in the source.\n\n${'More text. '.repeat(40)}`;
    const { pdf } = await render(markdown);
    assert.match(await pdftotext(pdf, { first: 1, last: 1 }), /AfterFigure/, 'the text after the figure fills the first page');
    assert.deepEqual(
      (await imageList(pdf)).map((image) => image.page),
      [2],
      'the figure heads page 2',
    );
  });

  it('should set every figure of a run longer than a page, in order, on as many pages as they need', async () => {
    // Twenty diagrams, each a float: once more wait than a page holds, the rest wait on.
    const diagrams = Array.from({ length: 20 }, (_, i) => `\`\`\`mermaid\nclassDiagram\n  class MARK${i} {\n    +int a\n  }\n\`\`\`\n`).join('\n');
    const { pdf, pages } = await render(`${diagrams}\nEnd of the text.\n`);
    const perPage = await Promise.all(Array.from({ length: pages }, (_, i) => pdftotext(pdf, { first: i + 1, last: i + 1 })));
    const marks = perPage.flatMap((text) => [...text.matchAll(/MARK(\d+)/g)].map((match) => Number(match[1])));
    assert.deepEqual(
      marks,
      Array.from({ length: 20 }, (_, i) => i),
      'every diagram, once, in order',
    );
    const geometry = pageGeometry(DEFAULT_DESIGN);
    for (const line of (await textLines(pdf)).filter((line) => /MARK|End of/.test(line.text))) {
      assert.ok(line.bottom <= geometry.height - geometry.marginBottom + 1, `"${line.text}" on page ${line.page} below the text area`);
    }
  });
});
