import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { folderLoader, render } from '#engine/index.js';
import { fixture, FIXTURES } from '../../support/fixtures.js';
import { pdfFile, pdftotext, structureText } from '../../support/pdf-tools.js';

describe('images and wide tables', () => {
  it('should load local images through the folder loader, with alt text, caption and transparency', async () => {
    const { pdf, resources } = await render(fixture('images.md'), { loader: folderLoader(FIXTURES) });
    assert.deepEqual(resources.failed, []);
    assert.equal(resources.total, 2);
    const images = execFileSync('pdfimages', ['-list', pdfFile(pdf)], { encoding: 'utf8' });
    assert.match(images, /\s1200\s+600\s+rgb/);
    assert.match(images, /\s64\s+64\s+rgb[\s\S]*\s64\s+64\s+gray/, 'the transparent PNG keeps its alpha as a soft mask');
    const tree = await structureText(pdf);
    assert.match(tree, /Figure/);
    assert.match(Buffer.from(pdf).toString('latin1'), /\/Alt \(A gradient from black to magenta\)/);
    assert.match(await pdftotext(pdf), /A gradient, scaled to fit/);
  });

  it('should refuse to read outside the loader folder', async () => {
    await assert.rejects(render('![x](../package.json)', { loader: folderLoader(FIXTURES) }), /could not be loaded/);
  });

  it('should keep short words of a too-wide table whole, breaking only the longest', async () => {
    const { pdf } = await render(fixture('images.md'), { loader: folderLoader(FIXTURES) });
    const text = await pdftotext(pdf, { layout: true });
    for (const word of ['cannot', 'their', 'natural', 'width', 'columns', 'many']) assert.match(text, new RegExp(`\\b${word}\\b`), word);
  });
});
