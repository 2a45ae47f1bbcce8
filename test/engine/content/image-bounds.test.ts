/**
 * What an image can make the renderer read or allocate: SVG namespaces resolved as resvg resolves
 * them, so no link hides under another prefix; every decoder's output bounded by the size its
 * header declares.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { PNG } from 'pngjs';
import { render, ResourceError } from '#engine/index.js';
import { pdftotext } from '../../support/pdf-tools.js';
import { pngFile } from '../../support/png-file.js';
import { boxOf, imageList, renderPage } from './images-page.js';

const SVG = 'http://www.w3.org/2000/svg';
const XLINK = 'http://www.w3.org/1999/xlink';
const BLUE: [number, number, number] = [0x1f, 0x6f, 0xeb];
const RED: [number, number, number] = [0xff, 0x00, 0x00];

function dataUri(type: string, bytes: Uint8Array | string): string {
  return `data:${type};base64,${Buffer.from(bytes).toString('base64')}`;
}

function solidPng(width: number, height: number, [r, g, b]: readonly number[]): Buffer {
  const png = new PNG({ width, height });
  for (let i = 0; i < png.data.length; i += 4) png.data.set([r!, g!, b!, 255], i);
  return PNG.sync.write(png);
}

/** A PNG declaring `width`×`height` RGBA pixels whose pixel data inflates to `inflated` bytes. */
function inflatingPng(width: number, height: number, inflated: number): Buffer {
  return pngFile(width, height, 6, deflateSync(Buffer.alloc(inflated), { level: 9 }));
}

const svgMarkdown = (svg: string) => `![svg](${dataUri('image/svg+xml', svg)})\n`;

describe('image bounds', () => {
  it('should draw an embedded picture linked under any prefix bound to XLink, and no file a link names', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'quire-svg-'));
    const secret = path.join(folder, 'secret.png');
    writeFileSync(secret, solidPng(8, 8, RED));
    const blue = dataUri('image/png', solidPng(6, 6, BLUE));
    // A blur sends the picture through resvg, which resolves links by itself.
    const svg = `<svg xmlns="${SVG}" xmlns:x="${XLINK}" width="200" height="100"><filter id="f"><feGaussianBlur stdDeviation="0.1"/></filter>
      <g filter="url(#f)"><switch><image x:href="${blue}" width="100" height="100"/></switch>
      <image xmlns:foo="${XLINK}" foo:href="${secret}" x="100" width="100" height="100"/><s:image xmlns:s="${SVG}" href="file://${secret}" x="100" width="100" height="100"/></g></svg>`;
    const page = await renderPage((await render(svgMarkdown(svg))).pdf);
    assert.ok(boxOf(page, BLUE, 40), 'the embedded picture is drawn');
    assert.equal(boxOf(page, RED, 60), null, 'the file named by the links is not');
  });

  it('should draw elements under a prefix bound to SVG and leave out those of other namespaces', async () => {
    const svg = `<svg xmlns="${SVG}" width="300" height="100"><s:rect xmlns:s="${SVG}" width="100" height="100" fill="#1f6feb"/>
      <o:rect xmlns:o="urn:other" x="100" width="100" height="100" fill="#ff0000"/><g xmlns="urn:other"><rect x="200" width="100" height="100" fill="#ff0000"/></g></svg>`;
    const page = await renderPage((await render(svgMarkdown(svg))).pdf);
    assert.ok(boxOf(page, BLUE, 40), 'the prefixed SVG rectangle');
    assert.equal(boxOf(page, RED, 60), null, 'no rectangle of another namespace');
  });

  it('should answer a PNG whose pixel data inflates past its declared size as unreadable, and draw an honest one', async () => {
    const bomb = inflatingPng(64, 64, 32 << 20);
    await assert.rejects(
      render(`![bomb](${dataUri('image/png', bomb)})\n`),
      (error: unknown) => error instanceof ResourceError && error.reason === 'unreadable',
    );
    const lenient = await render(`![bomb](${dataUri('image/png', bomb)})\n`, { resources: 'lenient' });
    assert.deepEqual(lenient.resources.failed, ['1'], 'a placeholder in lenient mode');
    const honest = await render(`![fits](${dataUri('image/png', inflatingPng(64, 64, 64 * (64 * 4 + 1)))})\n`);
    assert.ok(
      (await imageList(honest.pdf)).some((image) => image.width === 64 && image.height === 64),
      'a PNG holding exactly its rows is placed',
    );
  });

  it('should leave a PNG bomb inside an SVG out of the picture', async () => {
    const svg = `<svg xmlns="${SVG}" width="100" height="100"><image href="${dataUri('image/png', inflatingPng(64, 64, 32 << 20))}" width="100" height="100"/></svg>`;
    const { pdf } = await render(svgMarkdown(svg));
    assert.equal((await imageList(pdf)).length, 0);
  });

  it('should draw an SVG with more text than resvg outlines in bounded time directly, its text as text', async () => {
    const words = Array.from({ length: 30_000 }, (_, i) => `w${i}`).join(' ');
    const svg = `<svg xmlns="${SVG}" width="400" height="100"><filter id="f"><feGaussianBlur stdDeviation="1"/></filter><text y="20" filter="url(#f)">marker ${words}</text></svg>`;
    const { pdf } = await render(svgMarkdown(svg));
    assert.equal((await imageList(pdf)).length, 0, 'no raster made by resvg');
    assert.match(await pdftotext(pdf), /marker w0 w1/);
  });

  it('should place a minimal lossless WebP of 28 bytes', async () => {
    const webp = Buffer.from('UklGRhQAAABXRUJQVlA4TAgAAAAvAAAAAIiICA==', 'base64');
    assert.equal(webp.length, 28);
    const { pdf } = await render(`![one pixel](${dataUri('image/webp', webp)})\n`);
    assert.ok((await imageList(pdf)).some((image) => image.width === 1 && image.height === 1));
  });
});
