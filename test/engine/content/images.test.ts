import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { folderLoader, render, RendererBoundError } from '#engine/index.js';
import { fixture, FIXTURES } from '../../support/fixtures.js';
import { pdftotext, structureText } from '../../support/pdf-tools.js';
import { boxOf, imageList, renderPage } from './images-page.js';

const loader = folderLoader(path.join(FIXTURES, 'content'));
const RED: [number, number, number] = [0xcf, 0x22, 0x2e];
const BLUE: [number, number, number] = [0x1f, 0x6f, 0xeb];

function dataUri(type: string, bytes: Uint8Array | string): string {
  return `data:${type};base64,${Buffer.from(bytes).toString('base64')}`;
}

/** A PNG that is only a header (signature and IHDR) declaring its size. */
function pngHeader(width: number, height: number): Uint8Array {
  const bytes = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(bytes, 0);
  bytes.writeUInt32BE(13, 8);
  bytes.write('IHDR', 12, 'latin1');
  bytes.writeUInt32BE(width, 16);
  bytes.writeUInt32BE(height, 20);
  bytes[24] = 8;
  bytes[25] = 6;
  return bytes;
}

async function refusal(markdown: string): Promise<string> {
  try {
    await render(markdown, { loader });
  } catch (error) {
    assert.ok(error instanceof RendererBoundError, `expected a renderer bound, got ${String(error)}`);
    return error.bound;
  }
  assert.fail('the document was rendered');
}

function svgImage(svg: string): string {
  return `![hostile](${dataUri('image/svg+xml', svg)})\n`;
}

describe('images', () => {
  it('should place PNG and JPEG as they are and re-encode GIF and WebP as PNG, keeping transparency', async () => {
    const { pdf, resources } = await render(fixture('content/images.md'), { loader });
    assert.deepEqual(resources.failed, []);
    const images = await imageList(pdf);
    assert.ok(
      images.some((image) => image.type === 'image' && image.width === 60 && image.height === 40 && image.encoding === 'jpeg'),
      'the JPEG is embedded untouched',
    );
    for (const [width, height] of [
      [48, 48],
      [64, 64],
    ]) {
      assert.ok(
        images.some((image) => image.type === 'smask' && image.width === width && image.height === height),
        `a ${width}×${height} image keeps its alpha`,
      );
    }
    assert.ok(
      images.some((image) => image.width === 64 && image.height === 32 && image.encoding === 'image'),
      'the lossy WebP becomes a PNG',
    );
    assert.equal(images.filter((image) => image.type === 'smask' && image.width === 48).length, 2, 'the GIF and the WebP both keep their transparency');
    const tree = await structureText(pdf);
    assert.match(tree, /Figure/);
    assert.match(Buffer.from(pdf).toString('latin1'), /\/Alt \(A photo turned by its EXIF orientation\)/);
    assert.match(await pdftotext(pdf), /EXIF orientation 6/, 'the title is the caption');
  });

  it('should turn a JPEG by its EXIF orientation: the red corner, top left as stored, is drawn top right', async () => {
    const { pdf } = await render('![turned](images/exif-6.jpg)\n', { loader });
    const page = await renderPage(pdf);
    const red = boxOf(page, RED, 60)!;
    const blue = boxOf(page, BLUE, 60)!;
    assert.ok(blue.bottom - blue.top > blue.right - blue.left, 'the 60×40 image stands 40 wide and 60 tall');
    assert.ok(red.left > (blue.left + blue.right) / 2 - 1, 'red is on the right half');
    assert.ok(red.bottom < (blue.top + blue.bottom) / 2 + 1, 'red is on the top half');
  });

  it('should draw the first frame of a GIF', async () => {
    const { pdf } = await render('![gif](images/two-frames.gif)\n', { loader });
    const page = await renderPage(pdf);
    assert.ok(boxOf(page, RED, 60), 'the red first frame');
    assert.equal(boxOf(page, [0x2d, 0xa4, 0x4e], 40), null, 'never the green second frame');
  });

  it('should draw SVG as vectors with its text as text, CSS, custom properties and <use> resolved', async () => {
    const { pdf } = await render('![shapes](images/vector.svg)\n', { loader });
    assert.equal((await imageList(pdf)).length, 0, 'no raster');
    assert.match(await pdftotext(pdf), /Vector caption/);
    const page = await renderPage(pdf);
    assert.ok(boxOf(page, [0xfb, 0x85, 0x00], 30), 'the id rule outweighs the class rule: an orange sun');
    assert.ok(boxOf(page, [0x2d, 0xa4, 0x4e], 30), 'dots coloured by a custom property through <use>');
    assert.ok(boxOf(page, [0xbf, 0x87, 0x00], 30), 'a star from a <symbol>');
  });

  it('should draw markers through resvg simplified SVG, still as vectors', async () => {
    const { pdf } = await render('![arrow](images/marker.svg)\n', { loader });
    assert.equal((await imageList(pdf)).length, 0);
    assert.ok(boxOf(await renderPage(pdf), RED, 40), 'the red arrowhead');
  });

  it('should fall back to a raster for a filter, which vectors cannot carry', async () => {
    const { pdf } = await render('![shadow](images/filter.svg)\n', { loader });
    const images = await imageList(pdf);
    assert.equal(images.filter((image) => image.type === 'image').length, 1);
    assert.ok(boxOf(await renderPage(pdf), [0x09, 0x69, 0xda], 40), 'the blue box is in the raster');
  });

  it('should leave vector images out with svg: false and every image out with images: false', async () => {
    const noSvg = await render(fixture('content/images.md'), { loader, features: { svg: false } });
    assert.doesNotMatch(await pdftotext(noSvg.pdf), /Vector caption/);
    assert.ok(
      (await imageList(noSvg.pdf)).some((image) => image.encoding === 'jpeg'),
      'rasters stay',
    );
    assert.ok(!(await imageList(noSvg.pdf)).some((image) => image.width === 400), 'no raster made from an SVG');
    const none = await render(fixture('content/images.md'), { loader, features: { images: false } });
    assert.equal((await imageList(none.pdf)).length, 0);
    assert.equal(none.resources.total, 0, 'nothing is even loaded');
  });

  it('should refuse images too large from their headers, before decoding', async () => {
    assert.equal(await refusal(`![x](${dataUri('image/png', pngHeader(100_000, 100_000))})\n`), 'ImageDimensionsTooLarge');
    assert.equal(await refusal(`![x](${dataUri('image/png', pngHeader(15_000, 15_000))})\n`), 'ImageTooManyPixels');
    const gif = Buffer.from([...Buffer.from('GIF89a'), 0xff, 0xff, 0xff, 0xff, 0, 0, 0]);
    assert.equal(await refusal(`![x](${dataUri('image/gif', gif)})\n`), 'ImageDimensionsTooLarge');
    const webp = Buffer.alloc(30);
    webp.write('RIFF', 0, 'latin1');
    webp.writeUInt32LE(22, 4);
    webp.write('WEBPVP8X', 8, 'latin1');
    webp.writeUInt32LE(10, 16);
    webp.writeUIntLE(0xffffff, 24, 3);
    webp.writeUIntLE(0xffffff, 27, 3);
    assert.equal(await refusal(`![x](${dataUri('image/webp', webp)})\n`), 'ImageDimensionsTooLarge');
  });

  it('should refuse SVG entities, recursive <use>, a billion-element bomb and deep nesting by their bounds', async () => {
    const svg = (body: string) => `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10">${body}</svg>`;
    assert.equal(await refusal(svgImage(`<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa">]>${svg('<text>&a;</text>')}`)), 'SvgWorkLimit');
    assert.equal(await refusal(svgImage(svg('<g id="a"><use href="#b"/></g><g id="b"><use xlink:href="#a"/></g>'))), 'DepthLimit');
    let levels = '<rect id="l0" width="1" height="1"/>';
    for (let level = 1; level <= 9; level++) levels += `<g id="l${level}">${`<use href="#l${level - 1}"/>`.repeat(10)}</g>`;
    // Hidden in <defs> and used once: 10^9 rectangles once expanded.
    assert.equal(await refusal(svgImage(svg(`<defs>${levels}</defs><use href="#l9"/>`))), 'SvgWorkLimit');
    assert.equal(await refusal(svgImage(svg(`${'<g>'.repeat(100_000)}<rect width="1" height="1"/>${'</g>'.repeat(100_000)}`))), 'DepthLimit');
  });

  it('should tame filter parameters that would never finish, and never let resvg read a file an SVG names', async () => {
    const local = path.join(FIXTURES, 'content/images/alpha.png');
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="600" viewBox="0 0 100 100">
      <filter id="f" filterUnits="userSpaceOnUse" x="-1e7" y="-1e7" width="2e7" height="2e7"><feTurbulence baseFrequency="0.05" numOctaves="100000"/><feMorphology radius="1000000"/><feConvolveMatrix order="300" kernelMatrix="1"/></filter>
      <rect width="100" height="50" fill="#0969da" filter="url(#f)"/>
      <image href="${local}" x="0" y="50" width="50" height="50"/><image href="file://${local}" x="50" y="50" width="50" height="50"/>
    </svg>`;
    const { pdf } = await render(svgImage(svg), { loader });
    assert.equal(boxOf(await renderPage(pdf), [200, 30, 60], 30), null, 'the local PNG was not drawn');
  });
});
