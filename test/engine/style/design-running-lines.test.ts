/** Headers, footers and page numbers from front matter, judged on real PDFs. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FrontMatterError, render } from '#engine/index.js';
import { structureText, wordBoxes, type WordBox } from '../../support/pdf-tools.js';
import { markedSequences, unmarkedPainting } from '../../support/pdf-content.js';

const MM = 72 / 25.4;
const MUTED: [number, number, number] = [0x59, 0x63, 0x6e];

/** Four pages: a section per page after the first, with the author and date in the front matter. */
function fourPages(frontMatter: string): string {
  return [
    '---',
    'title: Field Notes',
    'author: Ada Lovelace',
    'date: 2026-08-11',
    frontMatter,
    '---',
    '',
    'Opening words.',
    '',
    '\\newpage',
    '',
    '# Alpha',
    '',
    'Alpha text.',
    '',
    '\\newpage',
    '',
    '## Beta',
    '',
    'Beta text.',
    '',
    '\\newpage',
    '',
    'Still in beta.',
  ].join('\n');
}

/** Each page's words above the text block (the header) and below it (the footer), as lines of text. */
async function furniture(pdf: Uint8Array): Promise<Array<{ header: WordBox[]; footer: WordBox[] }>> {
  return (await wordBoxes(pdf)).map((page) => ({
    header: page.words.filter((word) => word.yMax < 22 * MM),
    footer: page.words.filter((word) => word.yMin > page.height - 26 * MM),
  }));
}

const text = (words: readonly WordBox[]) => words.map((word) => word.text).join(' ');

describe('headers and footers', () => {
  it('should keep today’s centred page number by default, and nothing above the text', async () => {
    const { pdf } = await render(fourPages(''));
    const pages = await furniture(pdf);
    const [sheet] = await wordBoxes(pdf);
    pages.forEach((page, index) => {
      assert.equal(page.header.length, 0);
      assert.equal(text(page.footer), String(index + 1));
      const centre = (page.footer[0]!.xMin + page.footer[0]!.xMax) / 2;
      assert.ok(Math.abs(centre - sheet!.width / 2) < 1, `page number centred (${centre})`);
      assert.ok(Math.abs(page.footer[0]!.yMax - (sheet!.height - 13 * MM)) < 3, 'at today’s place, 13 mm from the foot');
    });
  });

  it('should fill the templates on every page, each slot in its place, page X of Y right', async () => {
    const header = 'header:\n  left: "{author}"\n  center: "{date}"\n  right: "{section}"';
    const footer = 'footer:\n  left: "{title}"\n  right: "Page {page} of {pages}"';
    const { pdf } = await render(fourPages(`${header}\n${footer}\nheader_first_page: true`));
    const pages = await furniture(pdf);
    const [sheet] = await wordBoxes(pdf);
    assert.equal(pages.length, 4);
    const sections = ['', 'Alpha', 'Beta', 'Beta'];
    pages.forEach((page, index) => {
      assert.equal(text(page.footer), `Field Notes Page ${index + 1} of 4`);
      assert.equal(text(page.header), ['Ada Lovelace', '2026-08-11', sections[index]].filter(Boolean).join(' '));
      const left = page.footer[0]!;
      const right = page.footer.at(-1)!;
      const date = page.header.find((word) => word.text === '2026-08-11')!;
      const textLeft = (sheet!.width - 34.5 * 10.5) / 2;
      assert.ok(Math.abs(left.xMin - textLeft) < 1, 'left slot at the text block’s left edge');
      assert.ok(Math.abs(right.xMax - (sheet!.width - textLeft)) < 1, 'right slot at its right edge');
      assert.ok(Math.abs((date.xMin + date.xMax) / 2 - sheet!.width / 2) < 1, 'centre slot centred');
      assert.ok(date.yMax < 22 * MM && date.yMin > 6 * MM, 'the header sits in the top margin');
    });
  });

  it('should shorten a text too long for its place with an ellipsis, never running into its neighbour or past the text block', async () => {
    const long = 'A Comprehensive Survey of Incremental Garbage Collection Techniques for Managed Runtimes';
    const source = (slots: string, title = long) =>
      `---\ntitle: ${title}\nauthor: Jane Q. Researcher and the Working Group on Memory Management\ndate: 12 November 2026\nheader_first_page: true\n${slots}\n---\n\n## Tracing, reference counting and the hybrids between them in virtual machines\n\nText.\n`;
    const textLeft = (210 * MM - 34.5 * 10.5) / 2;
    const textRight = 210 * MM - textLeft;
    const sides = await furniture(
      (
        await render(
          source('header:\n  left: "{title}"\n  right: "{section}"\nfooter:\n  left: "{author}"\n  center: "{date}"\n  right: "Page {page} of {pages}"'),
        )
      ).pdf,
    );
    const [{ header, footer }] = sides as [{ header: WordBox[]; footer: WordBox[] }];
    for (const line of [header, footer]) {
      assert.ok(
        line.every((word) => word.xMin > textLeft - 1 && word.xMax < textRight + 1),
        `within the text block: ${text(line)}`,
      );
      const sorted = [...line].sort((a, b) => a.xMin - b.xMin);
      const gaps = sorted.slice(1).map((word, index) => word.xMin - sorted[index]!.xMax);
      assert.ok(
        gaps.every((gap) => gap > 0),
        `no word over another: ${text(line)}`,
      );
    }
    assert.match(text(header), /^A Comprehensive Survey .*…( \S+)+$/, 'the title shortened after a whole word');
    assert.match(text(header), / Tracing, reference counting/, 'the section keeps its start');
    assert.ok(
      Math.min(...header.filter((word) => /^Tracing/.test(word.text)).map((word) => word.xMin)) - header.find((word) => word.text.endsWith('…'))!.xMax >=
        2 * 8.5 - 0.5,
      'two ems apart',
    );
    assert.match(text(footer), /^Jane Q\. .*… 12 November 2026 Page 1 of 1$/, 'the date and page number whole, the author shortened');
    const shorter = 'A Survey of Incremental Garbage Collection for Managed Runtimes';
    const beside = await furniture((await render(source('header:\n  left: "{date}"\n  right: "{title}"', shorter))).pdf);
    assert.equal(text(beside[0]!.header), `12 November 2026 ${shorter}`, 'a side beside a short one may take more than half the line');
  });

  it('should keep the header and footer on the sheet and clear of the text when the margins are narrow', async () => {
    const paragraph = 'Body text that fills the page so that its last line sits right on the foot of the text block. '.repeat(30);
    for (const settings of ['margin: 6mm\nfont_size: 12', 'margin: 0mm', 'margin: 12mm 20mm 8mm']) {
      const { pdf } = await render(
        `---\n${settings}\nheader: "Header {page}"\nheader_first_page: true\nfooter: "Footer {page}"\n---\n\n${`${paragraph}\n\n`.repeat(8)}`,
      );
      for (const [index, page] of (await wordBoxes(pdf)).entries()) {
        const where = `${settings.replace('\n', ', ')}, page ${index + 1}`;
        const lineOf = (first: string) => {
          // pdftotext leaves out a word whose box starts above the sheet.
          const start = page.words.find((word) => word.text === first);
          assert.ok(start, `${where}: ${first} wholly on the sheet`);
          return page.words.filter((word) => Math.abs(word.yMax - start.yMax) < 0.5);
        };
        const [header, footer] = [lineOf('Header'), lineOf('Footer')];
        const body = page.words.filter((word) => !header.includes(word) && !footer.includes(word));
        assert.ok(header.length === 2 && footer.length === 2, where);
        assert.ok(Math.min(...header.map((word) => word.yMin)) >= 0, `${where}: the header on the sheet`);
        assert.ok(Math.max(...footer.map((word) => word.yMax)) <= page.height, `${where}: the footer on the sheet`);
        assert.ok(Math.max(...header.map((word) => word.yMax)) + 3 < Math.min(...body.map((word) => word.yMin)), `${where}: the header clear of the text`);
        assert.ok(Math.max(...body.map((word) => word.yMax)) + 3 < Math.min(...footer.map((word) => word.yMin)), `${where}: the footer clear of the text`);
      }
    }
  });

  it('should name no section before the first one when a lone leading H1 is the title', async () => {
    const source =
      '---\nheader:\n  left: "{title}"\n  right: "{section}"\nheader_first_page: true\n---\n\n# Console\n\nIntroduction.\n\n\\newpage\n\nMore of it.\n\n\\newpage\n\n## Class: Console\n\nText.\n';
    const pages = await furniture((await render(source)).pdf);
    assert.deepEqual(
      pages.map((page) => text(page.header)),
      ['Console', 'Console', 'Console Class: Console'],
    );
    const chapters = await furniture((await render(source.replace('## Class: Console', '# Class: Console'))).pdf);
    assert.deepEqual(
      chapters.map((page) => text(page.header)),
      ['Console Console', 'Console Console', 'Console Class: Console'],
      'with two H1s the first is a section too',
    );
  });

  it('should leave the header off the first page unless header_first_page is true', async () => {
    const header = 'header: "{title}"';
    const off = await furniture((await render(fourPages(header))).pdf);
    assert.deepEqual(
      off.map((page) => text(page.header)),
      ['', 'Field Notes', 'Field Notes', 'Field Notes'],
    );
    const on = await furniture((await render(fourPages(`${header}\nheader_first_page: true`))).pdf);
    assert.equal(text(on[0]!.header), 'Field Notes');
  });

  it('should number pages in Roman numerals, contents included, when page_numbers is roman', async () => {
    const { pdf } = await render(fourPages('page_numbers: roman\nfooter: "{page} / {pages}"\ntoc: true'));
    const pages = await furniture(pdf);
    assert.deepEqual(
      pages.map((page) => text(page.footer)),
      ['i / iv', 'ii / iv', 'iii / iv', 'iv / iv'],
    );
    const first = (await wordBoxes(pdf))[0]!.words.map((word) => word.text);
    assert.ok(first.includes('ii') && first.includes('iii'), 'the contents give Roman page numbers');
  });

  it('should remove the footer with footer: false', async () => {
    const pages = await furniture((await render(fourPages('footer: false'))).pdf);
    assert.ok(pages.every((page) => page.footer.length === 0));
  });

  it('should draw headers and footers as artifacts in the muted colour, outside the structure', async () => {
    const { pdf } = await render(fourPages('header:\n  right: "{author}"\nfooter:\n  left: "{title}"\n  right: "{page} of {pages}"'));
    const tree = await structureText(pdf);
    assert.doesNotMatch(tree, /of 4/);
    assert.equal(tree.split('Ada Lovelace').length - 1, 1, 'the author only in the title block');
    const furnitureRuns = (await markedSequences(pdf)).filter(
      (sequence) => sequence.tag === 'Artifact' && sequence.colors.some((color) => color.join() === MUTED.join()),
    );
    assert.ok(furnitureRuns.length >= 4, `${furnitureRuns.length} muted artifact sequences`);
    assert.deepEqual(await unmarkedPainting(pdf), [], 'everything painted is tagged or an artifact');
  });

  it('should refuse a bad template naming the key and value', async () => {
    const refused = async (frontMatter: string, pattern: RegExp) =>
      assert.rejects(render(fourPages(frontMatter)), (error: unknown) => error instanceof FrontMatterError && pattern.test(error.message));
    await refused('footer:\n  right: "{chapter}"', /footer\.right must be a template using only \{title\} .* \(unknown: \{chapter\}\), not "\{chapter\}"/);
    await refused('header:\n  middle: "{page}"', /header\.middle must be left, center or right, not "\{page\}"/);
    await refused('header: [1, 2]', /header must be text, false, or left\/center\/right templates .* not \[1,2\]/);
    await refused('page_numbers: greek', /page_numbers must be arabic or roman, not "greek"/);
    await refused('header_first_page: 2', /header_first_page must be true or false, not 2/);
  });
});
