/**
 * Bare autolinks follow GitHub's rules (GFM spec, "Autolinks (extension)"): the spec's examples,
 * read from the parsed tree as (text, URL) pairs, and the links the PDF carries.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Nodes } from 'mdast';
import { render } from '#engine/index.js';
import { DEFAULT_BOUNDS, DEFAULT_FEATURES } from '#engine/options.js';
import { parseMarkdown } from '#engine/parse/markdown.js';
import { links } from '../../support/pdfjs.js';

type Found = [text: string, url: string];

function linksIn(markdown: string): Found[] {
  const found: Found[] = [];
  const visit = (node: Nodes): void => {
    if (node.type === 'link') found.push([node.children.map((child) => ('value' in child ? child.value : '')).join(''), node.url]);
    else if ('children' in node) for (const child of node.children) visit(child);
  };
  visit(parseMarkdown(markdown, DEFAULT_FEATURES, DEFAULT_BOUNDS).tree);
  return found;
}

const same = (...urls: string[]): Found[] => urls.map((url) => [url, url]);
const www = (...texts: string[]): Found[] => texts.map((text) => [text, `http://${text}`]);
const mail = (...texts: string[]): Found[] => texts.map((text) => [text, `mailto:${text}`]);

/** [Markdown, the links it holds] — the GFM spec's examples first. */
const CASES: Array<[string, Found[]]> = [
  ['www.commonmark.org', www('www.commonmark.org')],
  ['Visit www.commonmark.org/help for more information.', www('www.commonmark.org/help')],
  ['Visit www.commonmark.org.', www('www.commonmark.org')],
  ['Visit www.commonmark.org/a.b.', www('www.commonmark.org/a.b')],
  ['Visit www.commonmark.org/~jm/foo/bar.pdf.', www('www.commonmark.org/~jm/foo/bar.pdf')],
  ['www.google.com/search?q=Markup+(business)', www('www.google.com/search?q=Markup+(business)')],
  ['www.google.com/search?q=Markup+(business)))', www('www.google.com/search?q=Markup+(business)')],
  ['(www.google.com/search?q=Markup+(business))', www('www.google.com/search?q=Markup+(business)')],
  ['(www.google.com/search?q=Markup+(business)', www('www.google.com/search?q=Markup+(business)')],
  ['www.google.com/search?q=(business))+ok', www('www.google.com/search?q=(business))+ok')],
  ['www.google.com/search?q=commonmark&hl=en', www('www.google.com/search?q=commonmark&hl=en')],
  ['www.google.com/search?q=commonmark&hl;', www('www.google.com/search?q=commonmark')],
  ['www.commonmark.org/he<lp', www('www.commonmark.org/he')],
  ['http://commonmark.org', same('http://commonmark.org')],
  ['(Visit https://encrypted.google.com/search?q=Markup+(business))', same('https://encrypted.google.com/search?q=Markup+(business)')],
  ['Anonymous FTP is available at ftp://foo.bar.baz.', same('ftp://foo.bar.baz')],
  ['foo@bar.baz', mail('foo@bar.baz')],
  ["hello@mail+xyz.example isn't valid, but hello+xyz@mail.example is.", mail('hello+xyz@mail.example')],
  ['a.b-c_d@a.b', mail('a.b-c_d@a.b')],
  ['a.b-c_d@a.b.', mail('a.b-c_d@a.b')],
  ['a.b-c_d@a.b-', []],
  ['a.b-c_d@a.b_', []],
  ['mailto:foo@bar.baz', same('mailto:foo@bar.baz')],
  ['mailto:a.b-c_d@a.b.', same('mailto:a.b-c_d@a.b')],
  ['mailto:a.b-c_d@a.b/', same('mailto:a.b-c_d@a.b')],
  ['mailto:a.b-c_d@a.b-', []],
  ['xmpp:foo@bar.baz.', same('xmpp:foo@bar.baz')],
  ['xmpp:foo@bar.baz/txt@bin.com', same('xmpp:foo@bar.baz/txt@bin.com')],
  ['xmpp:foo@bar.baz/txt/bin', same('xmpp:foo@bar.baz/txt')],
  ['[a link](http://www.google.com/)stuff?', [['a link', 'http://www.google.com/']]],
  // Underscores: allowed in a domain except in its last two segments.
  ['www._xxx.yyy.zzz', www('www._xxx.yyy.zzz')],
  ['www.xxx._yyy.zzz and www.xxx.yyy._zzz', []],
  // Where a www or URL link may begin: start, after white space, `*`, `_`, `~` or `(`.
  ['x www.a.org *www.b.org* ~~www.c.org~~ (www.d.org)', www('www.a.org', 'www.b.org', 'www.c.org', 'www.d.org')],
  ['awww.a.org, :www.b.org, /https://c.org', []],
  // Beyond the spec's examples: a URL may name a single host, and a link ends at any white space.
  ['Run it on http://localhost:8080/docs.', same('http://localhost:8080/docs')],
  ['https://example.org/a\u00a0b', same('https://example.org/a')],
  ['https://example.org/a_b_c_ and https://example.org/*x*', same('https://example.org/a_b_c', 'https://example.org/*x')],
  ['Unicode hosts: https://bücher.example/straße.', [['https://bücher.example/straße', 'https://xn--bcher-kva.example/stra%C3%9Fe']]],
  ['`www.in-code.org` stays code', []],
  // A text's links do not depend on the rest of its paragraph; GitHub's `www.` is lower case.
  ['_foo@bar.baz_ and *www.a.org*', [...mail('foo@bar.baz'), ...www('www.a.org')]],
  ['WWW.A.ORG', []],
  // An address's scheme only must not continue a word; an xmpp resource of dots is no resource.
  ['"mailto:a@b.cd" and xmailto:c@d.ef', [...same('mailto:a@b.cd'), ...mail('c@d.ef')]],
  ['xmpp:foo@bar.baz/.', same('xmpp:foo@bar.baz')],
  ['A bare domain like example.com is not a link, nor is www. alone', []],
  [
    'Write to support@example.com, sales@example.org or http://example.net.',
    [...mail('support@example.com', 'sales@example.org'), ...same('http://example.net')],
  ],
];

describe('bare autolinks (GFM)', () => {
  for (const [markdown, expected] of CASES) {
    it(JSON.stringify(markdown), () => {
      assert.deepEqual(linksIn(markdown), expected);
    });
  }

  it('links a www address in the PDF with http://', async () => {
    const { pdf } = await render('See www.example.org/docs or write to mailto:team@example.org.');
    assert.deepEqual(
      (await links(pdf)).map((link) => link.url),
      ['http://www.example.org/docs', 'mailto:team@example.org'],
    );
  });
});
