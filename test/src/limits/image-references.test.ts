import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { distinctRemote, imageReferences } from '../../../src/limits/image-references.js';

const remoteImageUrls = (markdown: string, options: { html: boolean }) => distinctRemote(imageReferences(markdown, options));
const scan = (markdown: string, html = true) => [...remoteImageUrls(markdown, { html })];

describe('counting the remote images a document links, before rendering', () => {
  it('should find inline images, with angle brackets, titles and a line break before the destination', () => {
    const markdown = [
      '![a](https://img.example.com/a.png)',
      '![b](<http://img.example.com/b.png> "title")',
      '![c](\n  https://img.example.com/c.png)',
      '[![d](https://img.example.com/d.png)](https://link.example.com/)',
    ].join('\n\n');
    assert.deepEqual(scan(markdown), [
      'https://img.example.com/a.png',
      'http://img.example.com/b.png',
      'https://img.example.com/c.png',
      'https://img.example.com/d.png',
    ]);
  });

  it('should leave out links, local and data: images, escaped images, code spans and fenced code', () => {
    const markdown = [
      'Write `![x](https://example.com/span.png)` or ``![y](https://example.com/`tick`.png)`` or `<img src="https://example.com/h.png">`.',
      '\\`![after an escaped backtick](https://img.example.com/counted.png)`',
      '[a link](https://example.com/page) and <https://example.com/auto>',
      '![local](images/a.png) ![data](data:image/png;base64,AAAA)',
      '\\![not an image](https://example.com/x.png)',
      '```md',
      '![in code](https://example.com/code.png)',
      '```',
      '~~~~',
      '![in code](https://example.com/code2.png)',
      '```',
      '~~~~',
    ].join('\n');
    assert.deepEqual(scan(markdown), ['https://img.example.com/counted.png']);
  });

  it('should resolve reference images through their definitions, case-insensitively', () => {
    const markdown = [
      '![full][Logo] ![collapsed][] ![shortcut] ![missing][nowhere]',
      '',
      '[logo]: https://img.example.com/logo.png',
      '[collapsed]: <https://img.example.com/c.png>',
      '  [Shortcut]:',
      '    https://img.example.com/s.png "t"',
      '[page]: https://example.com/page',
    ].join('\n');
    assert.deepEqual(scan(markdown), ['https://img.example.com/logo.png', 'https://img.example.com/c.png', 'https://img.example.com/s.png']);
  });

  it('should count HTML <img src> only when HTML blocks render', () => {
    const markdown = '<p><img alt="x" src="https://img.example.com/h.png"></p>\n\n<IMG SRC=https://img.example.com/u.png>';
    assert.deepEqual(scan(markdown), ['https://img.example.com/h.png', 'https://img.example.com/u.png']);
    assert.deepEqual(scan(markdown, false), []);
  });

  it('should count a URL once however often it is used, as the loader fetches it once', () => {
    const markdown = Array.from({ length: 80 }, () => '![x](https://img.example.com/same.png)').join('\n') + '\n![y](HTTPS://IMG.example.com/same.png)';
    assert.equal(remoteImageUrls(markdown, { html: true }).size, 1);
  });

  it('should stay linear on hostile bracket soup', { timeout: 60_000 }, () => {
    const hostile = [
      '![a](http://' + '![a](http://'.repeat(200_000),
      '!['.repeat(300_000),
      '![a][' + 'x'.repeat(2_000) + '!['.repeat(200_000),
      '<img '.repeat(200_000),
      '`'.repeat(5_000) + '`a'.repeat(200_000),
      Array.from({ length: 4_000 }, (_, i) => '`'.repeat(i + 1)).join('a'),
    ];
    for (const markdown of hostile) {
      // Would take minutes if quadratic; a bound of the work, not a timing assertion.
      assert.ok(remoteImageUrls(markdown, { html: true }).size <= 1);
    }
  });
});
