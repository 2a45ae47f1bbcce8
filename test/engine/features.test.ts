import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { render, type Features } from '#engine/index.js';
import { pdffonts, pdftotext, pixel } from '../support/pdf-tools.js';
import { links } from '../support/pdfjs.js';

async function text(markdown: string, features: Partial<Features> = {}): Promise<string> {
  return pdftotext((await render(markdown, { features })).pdf);
}

async function usesMono(markdown: string, features: Partial<Features> = {}): Promise<boolean> {
  return (await pdffonts((await render(markdown, { features })).pdf)).some((font) => /JetBrainsMono/.test(font.name));
}

describe('feature switches that act on Markdown', () => {
  it('indented_code: four-space blocks are code when on, a paragraph when off', async () => {
    const markdown = 'Intro.\n\n    indented line\n';
    assert.equal(await usesMono(markdown), true);
    assert.equal(await usesMono(markdown, { indented_code: false }), false);
    assert.match(await text(markdown, { indented_code: false }), /indented line/);
  });

  it('bare_autolinks: bare URLs and emails are links only when on', async () => {
    const markdown = 'Visit https://example.org/page or write to someone@example.org.';
    const on = await links((await render(markdown)).pdf);
    assert.deepEqual(
      on.map((link) => link.url),
      ['https://example.org/page', 'mailto:someone@example.org'],
    );
    const off = await links((await render(markdown, { features: { bare_autolinks: false } })).pdf);
    assert.deepEqual(off, []);
    assert.match(await text(markdown, { bare_autolinks: false }), /https:\/\/example\.org\/page/);
  });

  it('tasks: task items are checkboxes when on, literal brackets when off', async () => {
    const markdown = '- [ ] open\n- [x] done';
    const on = await text(markdown);
    assert.doesNotMatch(on, /\[ \]|\[x\]/);
    assert.match(on, /open[\s\S]*done/);
    assert.match(await text(markdown, { tasks: false }), /\[ \] open[\s\S]*\[x\] done/);
  });

  it('html_blocks: HTML is rendered when on and shown literally when off', async () => {
    const markdown = '<div align="center">\n\n<b>Centred</b> words <!-- hidden -->\n\n</div>\n\nInline <kbd>Ctrl</kbd> key.';
    const on = await text(markdown);
    assert.match(on, /Centred words/);
    assert.doesNotMatch(on, /<b>|<div|hidden/);
    const off = await text(markdown, { html_blocks: false });
    assert.match(off, /<b>Centred<\/b> words/);
    assert.match(off, /<kbd>Ctrl<\/kbd>/);
  });

  it('math: dollar math is typeset when on and left as typed when off', async () => {
    const markdown = 'Euler: $e^{i\\pi} + 1 = 0$.';
    assert.doesNotMatch(await text(markdown), /\$|e\^\{i/);
    assert.equal(await usesMono(markdown, { math: false }), false);
    assert.match(await text(markdown, { math: false }), /\$e\^\{i\\pi\} \+ 1 = 0\$/);
  });

  it('theme: dark paints the page; front matter theme overrides the switch', async () => {
    const light = await pixel((await render('Text.')).pdf, 5, 5);
    assert.deepEqual(light, [255, 255, 255]);
    const dark = await pixel((await render('Text.', { features: { theme: 'dark' } })).pdf, 5, 5);
    assert.ok(
      dark.every((channel) => channel < 40),
      `dark page: ${dark}`,
    );
    const overridden = await pixel((await render('---\ntheme: light\n---\n\nText.', { features: { theme: 'dark' } })).pdf, 5, 5);
    assert.deepEqual(overridden, [255, 255, 255]);
  });
});
