/**
 * PNG images as Quire embeds them (engine/paint/png-image.ts): grey, RGB, indexed, grey with
 * alpha and RGB with alpha, every scanline filter PNG defines (None, Sub, Up, Average, Paeth),
 * on the first row as on the others, rendered to PDF and read back with poppler's pdfimages: the colour samples and the soft mask
 * must be the very pixels encoded.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { deflateSync } from 'node:zlib';
import { render, RenderCache } from '#engine/index.js';
import { pdfFile } from '../../support/pdf-tools.js';
import { pngFile, type PngColorType } from '../../support/png-file.js';
import { cacheParts } from '#engine/cache-parts.js';

const WIDTH = 37;
const HEIGHT = 23;
const CHANNELS: Record<PngColorType, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
/** Indexed images use this palette of 16 colours. */
const PALETTE = Buffer.from(Array.from({ length: 48 }, (_, k) => (k * 53 + 17) % 256));

/** Samples that vary in every direction (so every filter predicts something), deterministic. */
function samples(colorType: PngColorType): Uint8Array {
  const channels = CHANNELS[colorType];
  const out = new Uint8Array(WIDTH * HEIGHT * channels);
  for (let y = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++) {
      for (let c = 0; c < channels; c++) {
        const value = colorType === 3 ? (x * 3 + y * 5) % 16 : (x * 29 + y * 71 + c * 101 + ((x * y) % 13) * 17) % 256;
        out[(y * WIDTH + x) * channels + c] = value;
      }
    }
  }
  return out;
}

/** The rows filtered with None, Sub, Up, Average and Paeth in turn (the first row with the filter `offset` names), then compressed. */
function encoded(pixels: Uint8Array, bpp: number, offset: number): Buffer {
  const stride = WIDTH * bpp;
  const out = Buffer.alloc((stride + 1) * HEIGHT);
  const at = (x: number, y: number) => (x < 0 || y < 0 ? 0 : pixels[y * stride + x]!);
  for (let y = 0; y < HEIGHT; y++) {
    const filter = (y + offset) % 5;
    out[y * (stride + 1)] = filter;
    for (let x = 0; x < stride; x++) {
      const [left, up, upLeft] = [at(x - bpp, y), at(x, y - 1), at(x - bpp, y - 1)];
      const predicted = [0, left, up, (left + up) >> 1, paeth(left, up, upLeft)][filter]!;
      out[y * (stride + 1) + 1 + x] = (at(x, y) - predicted) & 255;
    }
  }
  return deflateSync(out);
}

function paeth(left: number, up: number, upLeft: number): number {
  const estimate = left + up - upLeft;
  const [a, b, c] = [Math.abs(estimate - left), Math.abs(estimate - up), Math.abs(estimate - upLeft)];
  return a <= b && a <= c ? left : b <= c ? up : upLeft;
}

/** The images of a document showing `png`, as pdfimages writes them: the image, then its soft mask. */
async function imagesOf(png: Buffer): Promise<Array<{ kind: string; data: Uint8Array }>> {
  const { pdf } = await render(`![picture](data:image/png;base64,${png.toString('base64')})\n`);
  const folder = mkdtempSync(path.join(tmpdir(), 'quire-png-'));
  execFileSync('pdfimages', [pdfFile(pdf), path.join(folder, 'image')]);
  return readdirSync(folder)
    .sort()
    .map((file) => netpbm(path.join(folder, file)));
}

/** The samples of a binary PBM, PGM or PPM file written by pdfimages (a PBM's bits as grey: 1 black, 0 white). */
function netpbm(file: string): { kind: string; data: Uint8Array } {
  const bytes = readFileSync(file);
  const header = /^(?:(P4)\s+(\d+)\s+(\d+)|(P[56])\s+(\d+)\s+(\d+)\s+\d+)\s/.exec(bytes.toString('latin1', 0, 64))!;
  const [width, height] = [Number(header[2] ?? header[5]), Number(header[3] ?? header[6])];
  assert.equal(`${width}x${height}`, `${WIDTH}x${HEIGHT}`);
  const data = bytes.subarray(header[0].length);
  if (header[1] !== 'P4') return { kind: header[4]!, data };
  const rowBytes = Math.ceil(width / 8);
  const grey = Uint8Array.from({ length: width * height }, (_, k) => {
    const [x, y] = [k % width, Math.floor(k / width)];
    return (data[y * rowBytes + (x >> 3)]! >> (7 - (x & 7))) & 1 ? 0 : 255;
  });
  return { kind: 'P5', data: Buffer.from(grey) };
}

/** Samples as pdfimages writes them: a PPM (P6) holds grey as three equal samples. */
function asWritten(kind: string, samples: Uint8Array, perPixel: number): Buffer {
  return Buffer.from(kind === 'P6' && perPixel === 1 ? [...samples].flatMap((sample) => [sample, sample, sample]) : samples);
}

/** Channel `from` of `count` in each pixel. */
function channels(pixels: Uint8Array, count: number, from: number, take: number): Uint8Array {
  const out: number[] = [];
  for (let k = 0; k < pixels.length; k += count) for (let c = from; c < from + take; c++) out.push(pixels[k + c]!);
  return Uint8Array.from(out);
}

// Images with alpha are unfiltered by Quire: each filter is also tried on the first row, where the row above counts as zeros.
const CASES = [0, 2, 3, 4, 6].flatMap((colorType) =>
  (colorType === 4 || colorType === 6 ? [0, 1, 2, 3, 4] : [0]).map((offset) => ({ colorType: colorType as PngColorType, offset })),
);

for (const { colorType, offset } of CASES) {
  test(`a PNG of colour type ${colorType} (first row filtered by filter ${offset}) is drawn with exactly its pixels`, async () => {
    const pixels = samples(colorType);
    const png = pngFile(WIDTH, HEIGHT, colorType, encoded(pixels, CHANNELS[colorType], offset), colorType === 3 ? { palette: PALETTE } : {});
    const files = await imagesOf(png);
    const alpha = colorType === 4 || colorType === 6;
    assert.equal(files.length, alpha ? 2 : 1, 'the image, and its soft mask when it has alpha');
    const colors = colorType === 2 || colorType === 6 ? 3 : 1;
    const expected =
      colorType === 3
        ? Uint8Array.from([...pixels].flatMap((index) => [...PALETTE.subarray(index * 3, index * 3 + 3)]))
        : channels(pixels, CHANNELS[colorType], 0, colors);
    assert.deepEqual(files[0]!.data, asWritten(files[0]!.kind, expected, colorType === 3 ? 3 : colors), 'the colour samples');
    if (alpha) assert.deepEqual(files[1]!.data, asWritten(files[1]!.kind, channels(pixels, CHANNELS[colorType], colors, 1), 1), 'the soft mask');
  });
}

test('an indexed PNG with transparent palette entries is drawn with its colours and a soft mask of their alpha', async () => {
  const pixels = samples(3);
  // Alpha for the first 10 of the 16 entries; the others are opaque.
  const alphas = Buffer.from(Array.from({ length: 10 }, (_, entry) => entry * 25));
  const png = pngFile(WIDTH, HEIGHT, 3, encoded(pixels, 1, 2), { palette: PALETTE, transparency: alphas });
  const files = await imagesOf(png);
  assert.equal(files.length, 2);
  assert.deepEqual(files[0]!.data, Buffer.from([...pixels].flatMap((index) => [...PALETTE.subarray(index * 3, index * 3 + 3)])));
  assert.deepEqual(
    files[1]!.data,
    asWritten(
      files[1]!.kind,
      pixels.map((index) => alphas[index] ?? 255),
      1,
    ),
  );
});

test('PNGs of fewer than 8 bits a sample (grey and indexed, 1, 2 and 4 bits) are drawn with exactly their pixels', async () => {
  for (const [colorType, bitDepth] of [
    [0, 1],
    [0, 2],
    [0, 4],
    [3, 2],
    [3, 4],
  ] as const) {
    const levels = 2 ** bitDepth;
    const values = Uint8Array.from({ length: WIDTH * HEIGHT }, (_, k) => ((k % WIDTH) * 7 + Math.floor(k / WIDTH) * 3) % levels);
    const packed = Buffer.concat(
      Array.from({ length: HEIGHT }, (_, y) => {
        const row = Buffer.alloc(1 + Math.ceil((WIDTH * bitDepth) / 8));
        for (let x = 0; x < WIDTH; x++) row[1 + Math.floor((x * bitDepth) / 8)]! |= values[y * WIDTH + x]! << (8 - bitDepth - ((x * bitDepth) % 8));
        return row;
      }),
    );
    const png = pngFile(WIDTH, HEIGHT, colorType, deflateSync(packed), { bitDepth, ...(colorType === 3 && { palette: PALETTE.subarray(0, levels * 3) }) });
    const files = await imagesOf(png);
    assert.equal(files.length, 1, `${colorType}/${bitDepth}`);
    const expected =
      colorType === 3
        ? [...values].flatMap((index) => [...PALETTE.subarray(index * 3, index * 3 + 3)])
        : [...values].map((value) => (value * 255) / (levels - 1));
    assert.deepEqual(
      files[0]!.data,
      asWritten(files[0]!.kind, Uint8Array.from(expected), colorType === 3 ? 3 : 1),
      `colour type ${colorType}, ${bitDepth} bits`,
    );
  }
});

test('an image with alpha is split once across renders that share a RenderCache, into the same PDF a fresh render writes', async () => {
  const pixels = samples(6);
  const png = pngFile(WIDTH, HEIGHT, 6, encoded(pixels, 4, 0));
  const markdown = (words: string) => `${words}\n\n![picture](data:image/png;base64,${png.toString('base64')})\n`;
  const cache = new RenderCache();
  await render(markdown('First.'), { cache });
  const edited = await render(markdown('Second, edited.'), { cache });
  assert.deepEqual(cacheParts(cache).splitImages.counts, { reused: 1, split: 1 });
  const fresh = await render(markdown('Second, edited.'));
  assert.equal(Buffer.compare(Buffer.from(edited.pdf), Buffer.from(fresh.pdf)), 0);
});
