import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { render } from '#engine/index.js';
import { fixture } from '../../support/fixtures.js';
import { uncompressed } from '../../support/pdf-content.js';
import { attachments } from '../../support/pdf-tools.js';
import { destinationPage, links, outline } from '../../support/pdfjs.js';

describe('links, outline and attachments', () => {
  it('should link external URLs, bare URLs, emails, headings and footnotes', async () => {
    const { pdf } = await render(fixture('kitchen-sink.md'));
    const found = await links(pdf);
    const urls = found.map((link) => link.url).filter(Boolean);
    assert.ok(urls.includes('https://example.com/'), urls.join(' '));
    assert.ok(urls.includes('https://commonmark.org/'));
    assert.ok(urls.includes('https://github.com/quire/quire'));
    assert.ok(urls.includes('mailto:person@example.com'));
    const dests = found.map((link) => link.dest).filter(Boolean);
    for (const dest of ['text', 'table', 'fn-1', 'fn-2']) assert.ok(dests.includes(dest), `no link to #${dest}: ${dests.join(' ')}`);
    assert.ok(
      found.every((link) => link.contents.length > 0),
      'every link annotation is described',
    );
  });

  it('should write a long link once, however many lines its annotations cover', async () => {
    const url = `https://example.com/${'segment/'.repeat(400)}end`;
    const { pdf } = await render(`See ${url} and [a short one](https://example.org/).`);
    const found = await links(pdf);
    const long = found.filter((link) => link.url === url);
    assert.ok(long.length >= 10, `the URL wraps over ${long.length} lines`);
    assert.ok(
      long.every((link) => link.contents === url),
      'each line of the link is described by the URL',
    );
    assert.deepEqual(
      found.filter((link) => link.url !== url).map((link) => link.url),
      ['https://example.org/'],
    );
    assert.ok(pdf.length < 60_000 + 2 * url.length, `${pdf.length} bytes: the URL is not repeated per line`);
  });

  it('should point internal links at the page of their heading', async () => {
    const markdown = `[Jump](#far-away)\n\n${'Filler paragraph.\n\n'.repeat(120)}## Far away\n\nHere.`;
    const { pdf, pages } = await render(markdown);
    assert.ok(pages >= 3);
    assert.equal(await destinationPage(pdf, 'far-away'), pages);
  });

  it('should list named destinations in byte order, whatever the locale', async () => {
    const { pdf } = await render('# Zebra\n\n# apple\n\n# Été\n\n# _under\n\n# Apple\n');
    const text = await uncompressed(pdf);
    const start = text.indexOf('/Names [\n');
    const keys = [...text.slice(start, text.indexOf('>>', start)).matchAll(/^\s*(\(.*\)|<[0-9a-f]+>)$/gm)].map((match) => match[1]);
    // ISO 32000-1 7.9.6: a UTF-16 key (after its byte order mark FE FF) sorts after every ASCII one.
    assert.deepEqual(keys, ['(_under)', '(apple)', '(apple-1)', '(zebra)', '<feff00e9007400e9>']);
  });

  it('should build bookmarks from headings, nested by level', async () => {
    const { pdf } = await render('# A\n\n## A.1\n\n### A.1.a\n\n## A.2\n\n# B');
    const items = await outline(pdf);
    assert.deepEqual(
      items.map((item) => item.title),
      ['A', 'B'],
    );
    assert.deepEqual(
      items[0]!.children.map((item) => item.title),
      ['A.1', 'A.2'],
    );
    assert.deepEqual(
      items[0]!.children[0]!.children.map((item) => item.title),
      ['A.1.a'],
    );
    assert.equal(items[0]!.dest, 'a');
  });

  it('should attach the Markdown as document.md only when embed_source is on', async () => {
    const markdown = '# Source\n\nKept as written: *émphasis*.';
    const on = await attachments((await render(markdown, { features: { embed_source: true } })).pdf);
    assert.equal(on.get('document.md'), markdown);
    const off = await attachments((await render(markdown)).pdf);
    assert.equal(off.size, 0);
  });

  it('should put a table of contents with page numbers after the title when asked', async () => {
    const markdown = `---\ntoc: true\n---\n\n# Report\n\n## Intro\n\n${'Text.\n\n'.repeat(150)}## Results\n\nDone.`;
    const { pdf } = await render(markdown);
    const found = await links(pdf);
    assert.ok(found.some((link) => link.dest === 'results' && link.page === 1));
    const { pdftotext } = await import('../../support/pdf-tools.js');
    const first = await pdftotext(pdf, { first: 1, last: 1, layout: true });
    const resultsPage = await destinationPage(pdf, 'results');
    assert.ok(resultsPage !== null && resultsPage > 2);
    assert.match(first, new RegExp(`Report[\\s\\S]*Contents[\\s\\S]*Intro\\s+1\\n[\\s\\S]*Results\\s+${resultsPage}\\n`));
  });
});
