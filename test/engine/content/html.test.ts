import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { folderLoader, render, RendererBoundError } from '#engine/index.js';
import { pageGeometry } from '#engine/style/page-geometry.js';
import { DEFAULT_DESIGN } from '#engine/style/design-settings.js';
import { fixture, FIXTURES } from '../../support/fixtures.js';
import { pdftotext, structureText } from '../../support/pdf-tools.js';
import { links } from '../../support/pdfjs.js';
import { boxOf, imageList, renderPage, wordLeft } from './images-page.js';

const loader = folderLoader(path.join(FIXTURES, 'content'));
const readme = fixture('content/html.md');
const A4 = pageGeometry(DEFAULT_DESIGN);
/** Centred text straddles the middle of the page; right-aligned text starts past it. */
const PAGE_CENTRE = A4.width / 2;

describe('HTML blocks', () => {
  it('should render a README: centred logo and badge row, heading, details open, table, list, without scripts, forms or iframes', async () => {
    const { pdf, resources } = await render(readme, { loader });
    assert.deepEqual(resources.failed, []);
    const text = await pdftotext(pdf);
    for (const expected of [
      'Quire README',
      'Markdown to PDF, without a browser',
      'Click to see the details',
      'Hidden until opened on GitHub',
      'Format',
      '1.2 KB',
      'An HTML list item with a link',
      'Right-aligned closing line.',
    ]) {
      assert.ok(text.includes(expected), expected);
    }
    assert.doesNotMatch(text, /never shown|Never|document\.write|<\w+/);
    const tree = await structureText(pdf);
    for (const element of ['H1', 'Figure', 'Table', 'TH', 'TD', 'L', 'LI', 'Link']) assert.match(tree, new RegExp(`\\b${element}\\b`), element);
    const uris = (await links(pdf)).map((link) => link.url);
    assert.ok(uris.includes('https://example.com/build') && uris.includes('https://example.com/tests'), 'badges keep their links');
    assert.ok(uris.includes('https://example.com/'), 'an HTML link');
    assert.ok(!uris.some((uri) => /^(javascript|file):/i.test(uri ?? '')), 'no javascript: link');
  });

  it('should centre and right-align as align and <center> say, Markdown inside a centred div included', async () => {
    const { pdf } = await render(readme, { loader });
    const heading = (await wordLeft(pdf, 'README'))!;
    assert.ok(heading > 250, `the centred heading starts at ${heading}`);
    const sub = (await wordLeft(pdf, 'browser'))!;
    assert.ok(sub > 300, 'Markdown in <div align="center"> is centred');
    assert.ok((await wordLeft(pdf, 'Right-aligned'))! > PAGE_CENTRE, 'right-aligned');
    assert.ok((await wordLeft(pdf, 'Press'))! < A4.marginInner + 1, 'plain Markdown stays at the left margin');
  });

  it('should draw kbd, mark, sub, sup, underline, colours from style attributes, <font> and a scoped style sheet', async () => {
    const { pdf } = await render(readme, { loader });
    const page = await renderPage(pdf);
    assert.ok(boxOf(page, [0xff, 0xf8, 0xc5], 6), '<mark> highlight');
    assert.ok(boxOf(page, [0xcf, 0x22, 0x2e], 60), 'red note from the style sheet (its id-less class rule outweighs the type rule)');
    assert.ok(boxOf(page, [0x1a, 0x7f, 0x37], 60), '<font color>');
    const text = await pdftotext(pdf);
    assert.match(text, /Press Ctrl \+ C to copy/);
    assert.match(text, /H2O and E = mc2/);
  });

  it('should apply a style sheet only within its own HTML block', async () => {
    const markdown = '<style>.x { color: #cf222e }</style>\n\n<p class="x">Outside the sheet\'s block.</p>\n';
    const page = await renderPage((await render(markdown)).pdf);
    assert.equal(boxOf(page, [0xcf, 0x22, 0x2e], 60), null);
    const inside = await renderPage((await render('<div>\n<style>.x { color: #cf222e }</style>\n<p class="x">Inside the block.</p>\n</div>\n')).pdf);
    assert.ok(boxOf(inside, [0xcf, 0x22, 0x2e], 60));
  });

  it('should size an <img> by its width, keeping proportions', async () => {
    const { pdf } = await render('<p><img src="images/alpha.png" width="32"></p>\n', { loader });
    const dot = boxOf(await renderPage(pdf), [200, 30, 60], 60)!;
    // 32 CSS pixels are 24 points; the dot fills most of its square.
    assert.ok(dot.right - dot.left >= 16 && dot.right - dot.left <= 25, `dot ${dot.right - dot.left} pt wide`);
  });

  it('should pick the <picture> source for the theme', async () => {
    const markdown = '<picture><source media="(prefers-color-scheme: dark)" srcset="images/two-frames.gif"><img src="images/alpha.png" alt="logo"></picture>\n';
    const light = await imageList((await render(markdown, { loader })).pdf);
    const dark = await imageList((await render(markdown, { loader, features: { theme: 'dark' } })).pdf);
    assert.ok(light.some((image) => image.width === 64));
    assert.ok(dark.some((image) => image.width === 48) && !dark.some((image) => image.width === 64));
  });

  it('should show HTML as literal text with html_blocks: false', async () => {
    const { pdf } = await render('<kbd>Ctrl</kbd> and <b>bold</b>\n\n<div align="center">x</div>\n', { features: { html_blocks: false } });
    const text = await pdftotext(pdf);
    assert.match(text, /<kbd>Ctrl<\/kbd> and <b>bold<\/b>/);
    assert.match(text, /<div align=.center.>x<\/div>/);
  });

  it('should refuse HTML nested past the depth bound quickly', async () => {
    const deep = `<div>\n${'<span>'.repeat(100_000)}x\n</div>\n`;
    await assert.rejects(render(deep), (error: unknown) => error instanceof RendererBoundError && error.bound === 'DepthLimit');
  });
});
