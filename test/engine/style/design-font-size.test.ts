/** `font_size`: the body size, with everything typographic following it, judged on real PDFs. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FrontMatterError, render } from '#engine/index.js';
import { pageSizes, wordBoxes, type WordBox } from '../../support/pdf-tools.js';
import { destinationPlace, links } from '../../support/pdfjs.js';

const MM = 72 / 25.4;
const PARAGRAPH = 'The quick brown fox jumps over the lazy dog near the riverbank at dawn. '.repeat(40);
const source = (frontMatter: string) => `---\n${frontMatter}\n---\n\n# Heading\n\n${PARAGRAPH}\n\n## Second {#second}\n\nSee [the second](#second).\n`;

const height = (word: WordBox) => word.yMax - word.yMin;

async function measure(frontMatter: string) {
  const { pdf, pages } = await render(source(frontMatter));
  const sheets = await wordBoxes(pdf);
  const words = sheets[0]!.words;
  const quick = words.find((word) => word.text === 'quick')!;
  const right = Math.max(...words.filter((word) => Math.abs(word.yMin - quick.yMin) > 1).map((word) => word.xMax));
  const left = Math.min(...words.filter((word) => Math.abs(word.yMin - quick.yMin) < 1).map((word) => word.xMin));
  return { pdf, pages, sheets, quick, left, right };
}

describe('font size', () => {
  it('should scale the body type, and with it the measure, while the paper keeps its size', async () => {
    const normal = await measure('title: Sized');
    const large = await measure('title: Sized\nfont_size: 12');
    const ratio = height(large.quick) / height(normal.quick);
    assert.ok(Math.abs(ratio - 12 / 10.5) < 0.03, `type ${ratio.toFixed(3)}× as tall`);
    const measureRatio = (large.right - large.left) / (normal.right - normal.left);
    assert.ok(Math.abs(measureRatio - 12 / 10.5) < 0.03, `measure ${measureRatio.toFixed(3)}× as wide: still about 72 characters`);
    const [size] = await pageSizes(large.pdf);
    assert.ok(Math.abs(size!.width - 210 * MM) < 0.5 && Math.abs(size!.height - 297 * MM) < 0.5);
    assert.ok(large.pages >= normal.pages);
  });

  it('should keep margins given in lengths, and set small type with them', async () => {
    const small = await measure('margin: 1in\nfont_size: 8');
    assert.ok(Math.abs(small.left - 72) < 1, `left edge at ${small.left}`);
    // Ragged right (no language, so no hyphenation): lines end short of the margin, never past it.
    assert.ok(small.right <= 210 * MM - 72 + 0.5 && small.right > 210 * MM - 72 - 30, `right edge at ${small.right}`);
    const normal = await measure('margin: 1in');
    assert.ok(Math.abs(height(small.quick) / height(normal.quick) - 8 / 10.5) < 0.03);
  });

  it('should keep links landing on their headings and the page number centred', async () => {
    const { pdf, sheets } = await measure('font_size: 13');
    const second = await destinationPlace(pdf, 'second');
    const link = (await links(pdf)).find((found) => found.dest === 'second');
    assert.ok(second && link, 'the destination and its link');
    const page = sheets[second.page - 1]!;
    const heading = page.words.find((word) => word.text === 'Second')!;
    assert.ok(Math.abs(page.height - second.top - heading.yMin) < 20, `destination at ${page.height - second.top}, heading at ${heading.yMin}`);
    const footer = sheets[0]!.words.at(-1)!;
    assert.equal(footer.text, '1');
    assert.ok(Math.abs((footer.xMin + footer.xMax) / 2 - sheets[0]!.width / 2) < 1);
  });

  it('should refuse sizes outside 8–14 pt, naming the key and value', async () => {
    for (const bad of ['7', '15', 'big', '12px']) {
      await assert.rejects(
        render(source(`font_size: ${bad}`)),
        (error: unknown) => error instanceof FrontMatterError && /font_size must be a size in points from 8 to 14, not/.test(error.message),
        bad,
      );
    }
  });
});
