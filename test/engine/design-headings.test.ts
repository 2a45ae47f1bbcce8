/** `number_headings` and `{#id}` heading anchors, judged on real PDFs. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { render } from '../../engine/index.js';
import { destinationPage, links, outline, type OutlineItem } from '../support/pdfjs.js';
import { pdftotext, structureText } from '../support/pdf-tools.js';

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

  it('should leave a lone leading H1, the document\'s title, unnumbered and number the sections under it from 1', async () => {
    const { pdf } = await render('---\nnumber_headings: true\ntoc: true\n---\n\n# Path\n\nIntro.\n\n## Windows\n\n### Drives\n\n## POSIX\n');
    const text = squeeze(await pdftotext(pdf));
    assert.match(text, /^Path Contents 1 Windows .*1\.1 Drives .*2 POSIX .*Intro\. 1 Windows 1\.1 Drives 2 POSIX 1 ?$/);
    assert.deepEqual(titles(await outline(pdf)), ['Path', '1 Windows', '1.1 Drives', '2 POSIX']);
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
    assert.deepEqual(found.map((link) => link.dest), ['intro', 'intro-1']);
  });
});

describe('bad heading settings', () => {
  it('should name number_headings and its value', async () => {
    await assert.rejects(render('---\nnumber_headings: yes please\n---\n\n# A'), /number_headings must be true or false, not "yes please"/);
  });
});
