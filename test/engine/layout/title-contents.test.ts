/**
 * The title block and the contents, judged on real PDFs: the Pandoc manual, whose front matter
 * has a title and whose first H1 ("Synopsis") is an ordinary section.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FrontMatterError, render } from '#engine/index.js';
import { fixture } from '../../support/fixtures.js';
import { elementLines } from '../../support/marked-lines.js';
import { pdftotext, textLines } from '../../support/pdf-tools.js';

/** The manual with front matter of our own in place of its own (`extra` lines added). */
function manual(extra: string): string {
  const body = fixture('real/pandoc-manual.md').replace(/^---\n[\s\S]*?\n---\n/, '');
  return `---\ntitle: Pandoc User's Guide\nsubtitle: A universal document converter\nauthor:\n  - John MacFarlane\n  - Ada Lovelace\ndate: 2026-08-11\n${extra}---\n${body}`;
}

describe('the title block and the contents', () => {
  it('should set the title block first, then the contents, and keep the first H1 an ordinary section listed in them', async () => {
    const { pdf } = await render(manual('toc: true\n'), { resources: 'lenient' });
    const first = await pdftotext(pdf, { first: 1, last: 1 });
    assert.match(first, /^Pandoc User's Guide\nA universal document converter\nJohn MacFarlane, Ada Lovelace\n2026-08-11\n\nContents\nSynopsis\n/);
    const headings = await elementLines(pdf, 'H1');
    assert.deepEqual([...headings[0]!.keys()], [1], 'the title is the first H1, on page 1');
    const synopsisPage = [...headings[1]!.keys()][0]!;
    assert.ok(synopsisPage > 1, 'Synopsis follows the contents');
    assert.match(
      await pdftotext(pdf, { first: synopsisPage, last: synopsisPage }),
      /Synopsis\npandoc \[options\] \[input-file\]/,
      "Synopsis' text stays with its heading",
    );
    assert.ok(!/^Pandoc User's Guide$/m.test(await pdftotext(pdf, { first: 2 })), 'the title is printed once');
  });

  it('should list headings down to toc_depth, three levels unless it is given', async () => {
    const contents = async (extra: string) => {
      const { pdf } = await render(manual(extra), { resources: 'lenient' });
      const text = await pdftotext(pdf, { first: 1, last: 3 });
      return text.slice(text.indexOf('Contents'), text.indexOf('\nSynopsis\npandoc'));
    };
    const deep = await contents('toc: true\n');
    assert.match(deep, /Using pandoc/, 'an H2');
    assert.match(deep, /Extension: smart/, 'an H3');
    const shallow = await contents('toc: true\ntoc_depth: 1\n');
    assert.match(shallow, /Templates/);
    assert.doesNotMatch(shallow, /Using pandoc|Extension: smart/);
  });

  it('should join each entry to its right-aligned page number with dot leaders that extract as nothing', async () => {
    const { pdf } = await render(manual('toc: true\n'), { resources: 'lenient' });
    const lines = (await textLines(pdf)).filter((line) => line.page === 1);
    // Page numbers of entries, not the page's own (centred in the footer).
    const numbers = lines.filter((line) => /^\d+$/.test(line.text) && line.left > 400);
    assert.ok(numbers.length > 20, `${numbers.length} page numbers`);
    const rights = numbers.map((line) => Math.round(line.right * 10) / 10);
    assert.ok(Math.max(...rights) - Math.min(...rights) < 0.5, `numbers end at ${Math.min(...rights)}–${Math.max(...rights)}`);
    assert.doesNotMatch(await pdftotext(pdf, { first: 1, last: 1 }), /\.\.\./, 'leaders are not text');
    // The leaders' dot is the text's full stop: it still extracts where the text has one.
    const { pdf: short } = await render('---\ntoc: true\n---\n\n# One\n\nA sentence ends here.\n\n## Two\n');
    assert.match(await pdftotext(short), /A sentence ends here\./);
    const { uncompressed } = await import('../../support/pdf-content.js');
    const { glyphCodes } = await import('../../support/marked-lines.js');
    const artifactRuns = [...(await uncompressed(pdf)).matchAll(/\/Artifact BMC[^E]*?\[([^\]]*)\] TJ/g)];
    assert.ok(
      artifactRuns.some((run) => glyphCodes(run[1]!).length >= 20),
      'a run of leader dots drawn as an artifact',
    );
  });

  it('should print a leading H1 that repeats the title once, in the title block, under its anchor', async () => {
    const { pdf } = await render('---\ntitle: Kitchen sink\ntoc: true\n---\n\n# Kitchen sink\n\nSee [the top](#kitchen-sink).\n\n## Part\n\nText.');
    const text = await pdftotext(pdf);
    assert.equal(text.split('Kitchen sink').length - 1, 1, 'the title once, and not in the contents');
    const { links } = await import('../../support/pdfjs.js');
    assert.ok(
      (await links(pdf)).some((link) => link.dest === 'kitchen-sink'),
      'the link to the H1 goes to the title',
    );
  });

  it('should leave no contents entry alone at the foot of a page or the head of the next', async () => {
    const counts: Array<[number, number]> = [];
    for (let sections = 36; sections <= 40; sections++) {
      const body = Array.from({ length: sections }, (_, index) => `## Entry ${index + 1}\n\nBody.\n`).join('\n');
      const { pdf } = await render(`---\ntoc: true\n---\n\n${body}`);
      const entriesOn = async (page: number) =>
        (await pdftotext(pdf, { first: page, last: page, layout: true })).split('\n').filter((line) => /^Entry \d+\s+\d+$/.test(line.trim())).length;
      counts.push([await entriesOn(1), await entriesOn(2)]);
    }
    assert.ok(
      counts.some(([, second]) => second > 0),
      `the contents run over a page: ${JSON.stringify(counts)}`,
    );
    assert.ok(
      counts.every(([first, second]) => first !== 1 && second !== 1),
      JSON.stringify(counts),
    );
  });

  it('should refuse a toc_depth that is not a level, naming it', async () => {
    await assert.rejects(
      render('---\ntoc: true\ntoc_depth: 9\n---\n\n# A'),
      (error: unknown) => error instanceof FrontMatterError && /toc_depth/.test(error.message),
    );
  });
});
