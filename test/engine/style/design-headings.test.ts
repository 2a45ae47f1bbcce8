/** `number_headings` and `{#id}` heading anchors, judged on real PDFs. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { render } from '#engine/index.js';
import { destinationPage, links, outline, type OutlineItem } from '../../support/pdfjs.js';
import { pdftotext, structureText, wordBoxes, type WordBox } from '../../support/pdf-tools.js';

const SOURCE = [
  '---',
  'number_headings: true',
  'toc: true',
  '---',
  '',
  '# Start',
  '',
  'See [the setup](#install) and [the notes](#notes).',
  '',
  '## Setup {#install}',
  '',
  'Text.',
  '',
  '### Details',
  '',
  '#### Deep',
  '',
  '## Notes {-}',
  '',
  '## Usage',
  '',
  '\\newpage',
  '',
  '# Next',
  '',
  '## More',
].join('\n');

const titles = (items: readonly OutlineItem[]): string[] => items.flatMap((item) => [item.title, ...titles(item.children)]);
const squeeze = (text: string) => text.replace(/[\s\u2002]+/g, ' ');

describe('numbered headings', () => {
  it('should number H1–H3 as 1, 1.1, 1.1.1 in the text, leaving H4 and {-} headings alone', async () => {
    const { pdf } = await render(SOURCE);
    const text = ` ${squeeze(await pdftotext(pdf))}`;
    for (const heading of ['1 Start', '1.1 Setup', '1.1.1 Details', '1.2 Usage', '2 Next', '2.1 More']) assert.ok(text.includes(` ${heading} `), heading);
    assert.match(text, / Deep /);
    assert.doesNotMatch(text, /\d Deep|\d Notes/);
    const h2 = await structureText(pdf);
    assert.match(h2, /H2[^\n]*\n\s*"1\.1\s+Setup"/, 'the number is part of the H2 element');
  });

  it('should show the numbers in the contents and the outline', async () => {
    const { pdf } = await render(SOURCE);
    const first = squeeze(await pdftotext(pdf, { first: 1, last: 1 }));
    const contents = first.slice(first.indexOf('Contents'));
    // The leading H1 is the document's title, which the contents leave out.
    assert.match(contents, /Contents 1\.1 Setup 1\.1\.1 Details Notes 1\.2 Usage .*2 Next 2\.1 More/);
    assert.deepEqual(titles(await outline(pdf)), ['1 Start', '1.1 Setup', '1.1.1 Details', 'Deep', 'Notes', '1.2 Usage', '2 Next', '2.1 More']);
  });

  it('should number a document of H2s from 1, not 0.1', async () => {
    const { pdf } = await render('---\nnumber_headings: true\n---\n\n## Alpha\n\n### Inner\n\n## Beta\n');
    assert.match(squeeze(await pdftotext(pdf)), /^1 Alpha 1\.1 Inner 2 Beta /);
  });

  it("should leave a lone leading H1, the document's title, unnumbered and number the sections under it from 1", async () => {
    const { pdf } = await render('---\nnumber_headings: true\ntoc: true\n---\n\n# Path\n\nIntro.\n\n## Windows\n\n### Drives\n\n## POSIX\n');
    const text = squeeze(await pdftotext(pdf));
    assert.match(text, /^Path Contents 1 Windows .*1\.1 Drives .*2 POSIX .*Intro\. 1 Windows 1\.1 Drives 2 POSIX 1 ?$/);
    assert.deepEqual(titles(await outline(pdf)), ['Path', '1 Windows', '1.1 Drives', '2 POSIX']);
  });

  it("should set the contents' numbers in a column with the titles aligned after them, as LaTeX does", async () => {
    const subsections = Array.from(
      { length: 10 },
      (_, index) =>
        `### Detail ${index + 1}${index === 9 ? ' whose title is long enough to need a second line in the contents of this document' : ''}\n\nText.\n`,
    );
    const sections = Array.from({ length: 10 }, (_, index) => `## Part ${index + 1}\n\nText.\n\n${index === 8 ? subsections.join('\n') : ''}`);
    const { pdf } = await render(`---\nnumber_headings: true\ntoc: true\nfooter: false\n---\n\n\\newpage\n\n${sections.join('\n')}`);
    const [contents] = await wordBoxes(pdf);
    const lines = new Map<number, WordBox[]>();
    for (const word of contents!.words.slice(1)) lines.set(Math.round(word.yMax), [...(lines.get(Math.round(word.yMax)) ?? []), word]);
    const entries = [...lines.values()].map((words) => words.sort((a, b) => a.xMin - b.xMin));
    const numbered = entries.filter((words) => /^\d+(\.\d+)?$/.test(words[0]!.text));
    const parts = numbered.filter((words) => !words[0]!.text.includes('.'));
    const details = numbered.filter((words) => words[0]!.text.includes('.'));
    assert.deepEqual([parts.length, details.length], [10, 10]);
    const textLeft = contents!.words[0]!.xMin;
    const same = (values: number[], what: string) =>
      assert.ok(Math.max(...values) - Math.min(...values) < 0.5, `${what}: ${values.map((value) => value.toFixed(1)).join(', ')}`);
    same([textLeft, ...parts.map((words) => words[0]!.xMin)], "the top level's numbers at the left of the text block, though its headings are H2s");
    same(
      parts.map((words) => words[1]!.xMin),
      'the titles after 1 to 10 aligned',
    );
    same([parts[0]![1]!.xMin, ...details.map((words) => words[0]!.xMin)], "the second level's numbers under the first level's titles");
    same(
      details.map((words) => words[1]!.xMin),
      'the titles after 9.1 to 9.10 aligned',
    );
    const wrapped = entries[entries.indexOf(details.at(-1)!) + 1]!;
    same([details[0]![1]!.xMin, wrapped[0]!.xMin], 'a second line hangs under the title, not the number');
    assert.ok(
      parts.every((words) => words[1]!.xMin - words[0]!.xMax >= 5),
      'a space after the widest number',
    );
  });

  it('should leave headings unnumbered by default', async () => {
    const { pdf } = await render(SOURCE.replace('number_headings: true', 'number_headings: false'));
    assert.match(squeeze(await pdftotext(pdf)), /^Start .* Setup /);
    assert.doesNotMatch(squeeze(await pdftotext(pdf)), /1\.1 Setup/);
  });
});

describe('heading anchors written {#id}', () => {
  it('should name the heading by the id, drop the braces from its text and land links on it', async () => {
    const { pdf } = await render(SOURCE);
    const text = await pdftotext(pdf);
    assert.doesNotMatch(text, /\{#install\}|\{-\}/);
    assert.equal(await destinationPage(pdf, 'install'), 1);
    assert.equal(await destinationPage(pdf, 'setup'), null, 'the slug is not made');
    const targets = (await links(pdf)).map((link) => link.dest);
    assert.ok(targets.includes('install') && targets.includes('notes'));
    assert.equal(await destinationPage(pdf, 'more'), 2);
  });

  it('should keep braces that are not attributes, or in code, as text', async () => {
    const { pdf } = await render('# Sets {a, b}\n\n# Code `{#x}`\n\n# Text {#}\n');
    const text = await pdftotext(pdf);
    assert.match(text, /Sets \{a, b\}/);
    assert.match(text, /Code \{#x\}/);
    assert.match(text, /Text \{#\}/);
    assert.equal(await destinationPage(pdf, 'x'), null);
  });

  it('should take the closing hashes before the braces as Pandoc does, and keep a hash that is text', async () => {
    const { pdf } = await render('### Styles ### {#ext-styles}\n\n# C# {-}\n');
    assert.match(await pdftotext(pdf), /^Styles\n\nC#\n/);
    assert.equal(await destinationPage(pdf, 'ext-styles'), 1);
  });

  it('should not let a later slug take a written id', async () => {
    const { pdf } = await render('# One {#intro}\n\n# Intro\n\n[to one](#intro) [to two](#intro-1)\n');
    const found = await links(pdf);
    assert.deepEqual(
      found.map((link) => link.dest),
      ['intro', 'intro-1'],
    );
  });
});

describe('bad heading settings', () => {
  it('should name number_headings and its value', async () => {
    await assert.rejects(render('---\nnumber_headings: yes please\n---\n\n# A'), /number_headings must be true or false, not "yes please"/);
  });
});
