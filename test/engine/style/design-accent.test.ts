/** `accent`: links and headings in one colour, kept readable on the page, judged on real PDFs. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FrontMatterError, render } from '#engine/index.js';
import { markedSequences } from '../../support/pdf-content.js';

type Rgb = [number, number, number];

/** WCAG 2's contrast ratio, written out here so the test does not lean on the engine's. */
function contrast(a: Rgb, b: Rgb): number {
  const lum = (c: Rgb) => {
    const [r, g, bl] = c.map((v) => (v / 255 <= 0.04045 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4)) as Rgb;
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p) as [number, number];
  return (x + 0.05) / (y + 0.05);
}

const source = (frontMatter: string) => `---\ntitle: Coloured\n${frontMatter}\n---\n\n# A heading\n\nA [link](https://example.com) in text.\n`;

/** The colours each structure role is filled with. */
async function colorsOf(pdf: Uint8Array, tag: string): Promise<string[]> {
  return [
    ...new Set((await markedSequences(pdf)).filter((sequence) => sequence.tag === tag).flatMap((sequence) => sequence.colors.map((color) => color.join()))),
  ];
}

describe('accent colour', () => {
  it('should draw headings, the title and links in the accent, body text unchanged', async () => {
    const { pdf, warnings } = await render(source('accent: "#8250df"'));
    assert.deepEqual(warnings, []);
    assert.deepEqual(await colorsOf(pdf, 'H1'), ['130,80,223']);
    assert.deepEqual(await colorsOf(pdf, 'Link'), ['130,80,223']);
    assert.deepEqual(await colorsOf(pdf, 'P'), ['31,35,40']);
  });

  it('should keep the theme’s colours without the key', async () => {
    const { pdf } = await render(source(''));
    assert.deepEqual(await colorsOf(pdf, 'H1'), ['31,35,40']);
  });

  it('should darken an accent too light to read on white, with a warning, to at least 4.5:1', async () => {
    const { pdf, warnings } = await render(source('accent: "#fd0"'));
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /accent #ffdd00 has a contrast of 1\.\d:1 on the page, below 4\.5:1: drawn as #[0-9a-f]{6}/);
    const [drawn] = await colorsOf(pdf, 'H1');
    const color = drawn!.split(',').map(Number) as Rgb;
    assert.ok(contrast(color, [255, 255, 255]) >= 4.5, `${drawn} on white`);
    assert.ok(color[0] > color[2], 'still a yellow-brown, not grey');
  });

  it('should lighten an accent too dark for the dark theme', async () => {
    const { pdf, warnings } = await render(source('theme: dark\naccent: "#1a1a80"'));
    assert.equal(warnings.length, 1);
    const [drawn] = await colorsOf(pdf, 'H1');
    assert.ok(contrast(drawn!.split(',').map(Number) as Rgb, [0x0d, 0x11, 0x17]) >= 4.5);
  });

  it('should refuse a value that is not a colour, naming the key and the value', async () => {
    await assert.rejects(
      render(source('accent: blueish')),
      (error: unknown) => error instanceof FrontMatterError && /accent must be a colour written #rrggbb or #rgb, not "blueish"/.test(error.message),
    );
  });
});
