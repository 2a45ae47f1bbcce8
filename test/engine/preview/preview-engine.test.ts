/**
 * The preview engine: pages laid out incrementally (blocks reused from earlier previews) must be
 * the pages a fresh, tagged layout of the same text makes — the PDF's — page for page, after
 * edits of every kind; and an edit redraws only the pages it changed.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { PNG } from 'pngjs';
import { folderLoader, renderPreview, type ResourceLoader } from '#engine/index.js';
import { layOutSources } from '#engine/pipeline.js';
import { pageFingerprint } from '#engine/preview/page-fingerprint.js';
import { DRAWN_AROUND, MOST_PAGE_PIXELS, type PreviewPage } from '#engine/preview/preview.js';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../../..');
const ZOOM = 1.5;

async function freshHashes(markdown: string, loader: ResourceLoader): Promise<{ hashes: string[]; warnings: string[] }> {
  const { laidOut, document } = await layOutSources([{ markdown, path: null, loader }], { resources: 'lenient' });
  return { hashes: laidOut.pages.map((page) => pageFingerprint(page, laidOut.pageColor, ZOOM)), warnings: [...document.warnings, ...laidOut.warnings] };
}

/** Edits of several kinds at a paragraph break near `share` of the text. */
function edits(markdown: string, share: number): string[] {
  const at = markdown.indexOf('\n\n', Math.floor(markdown.length * share));
  const before = markdown.slice(0, at);
  const after = markdown.slice(at);
  return [
    `${before} and a few more words typed here${after}`,
    `${before}\n\n## A heading inserted\n\nWith a paragraph under it.${after}`,
    `${before}${after.replace(/\n\n[^\n]*\n/, '\n\n')}`,
    `${before}\n\n$$\n\\frac{1}{\n$$${after}`,
    markdown,
  ];
}

describe('incremental preview layout', () => {
  for (const file of [
    'README.md',
    'docs/markdown.md',
    'fixtures/kitchen-sink.md',
    'fixtures/german.md',
    'fixtures/images.md',
    'fixtures/rtl.md',
    'fixtures/table-200.md',
  ]) {
    it(`should draw ${file} after each edit exactly as a fresh layout does`, async () => {
      const markdown = readFileSync(path.join(ROOT, file), 'utf8');
      const loader = folderLoader(path.dirname(path.join(ROOT, file)));
      const first = await renderPreview(markdown, { loader, pixelsPerPoint: ZOOM });
      let known = first.pages.map((page) => page.hash);
      for (const [index, edited] of [...edits(markdown, 0.3), ...edits(markdown, 0.7)].entries()) {
        const preview = await renderPreview(edited, { loader, pixelsPerPoint: ZOOM, knownPages: known });
        const fresh = await freshHashes(edited, loader);
        assert.deepEqual(
          preview.pages.map((page) => page.hash),
          fresh.hashes,
          `edit ${index}: the same pages`,
        );
        assert.deepEqual(preview.warnings, fresh.warnings, `edit ${index}: the same warnings`);
        const drawn = preview.pages.filter((page) => page.png !== null);
        const lacking = preview.pages.filter((page) => !known.includes(page.hash));
        assert.deepEqual(
          drawn,
          lacking.filter((page) => preview.pages.indexOf(page) <= DRAWN_AROUND),
        );
        known = [...known, ...drawn.map((page) => page.hash)];
      }
    });
  }

  it('should redraw one page of a long document for a word typed on it', async () => {
    const markdown = readFileSync(path.join(ROOT, 'docs/markdown.md'), 'utf8');
    const loader = folderLoader(path.join(ROOT, 'docs'));
    const first = await renderPreview(markdown, { loader });
    assert.ok(first.pages.length > 10);
    const known = first.pages.map((page) => page.hash);
    // A word typed at a sentence's end past the middle, at the first such place where it stays on
    // its line (where it adds one, the pages after reflow and are rightly drawn again).
    const changed: number[][] = [];
    for (let from = Math.floor(markdown.length / 2); changed.length < 8 && changed.at(-1)?.length !== 1; ) {
      const cut = markdown.indexOf('.\n', from);
      const edited = `${markdown.slice(0, cut)} word${markdown.slice(cut)}`;
      const unseen = (await renderPreview(edited, { loader, knownPages: known })).pages.flatMap((page, index) => (known.includes(page.hash) ? [] : [index]));
      changed.push(unseen);
      if (unseen.length === 1) {
        // In view, that page alone is drawn.
        const shown = await renderPreview(edited, { loader, knownPages: known, focusPage: unseen[0]! });
        assert.deepEqual(
          shown.pages.flatMap((page, index) => (page.png === null ? [] : [index])),
          unseen,
        );
      }
      from = cut + 2;
    }
    assert.equal(changed.at(-1)?.length, 1, `pages changed by a word typed at successive places: ${changed.map((pages) => pages.length).join(', ')}`);
  });

  it("should draw an edit's band over the picture shown, with the whole page's pixels there", async () => {
    for (const file of ['README.md', 'fixtures/kitchen-sink.md', 'fixtures/german.md']) {
      const loader = folderLoader(path.dirname(path.join(ROOT, file)));
      let markdown = readFileSync(path.join(ROOT, file), 'utf8');
      let previous = await renderPreview(markdown, { loader, pixelsPerPoint: ZOOM, focusPage: 0 });
      const pictures = new Map<string, PNG>(previous.pages.flatMap((page) => (page.png ? [[page.hash, PNG.sync.read(Buffer.from(page.png))] as const] : [])));
      let bands = 0;
      for (const word of ['Zebra ', 'Q', 'Quokkas and a longer run of words, enough to reflow the lines after them. ']) {
        // Typed at the start of the first paragraph on page 0.
        const at = markdown.search(/\n\n[A-Z][a-z]+ [a-z]/) + 2;
        markdown = `${markdown.slice(0, at)}${word}${markdown.slice(at)}`;
        const shown = previous.pages.map((page) => page.hash);
        const edited = await renderPreview(markdown, { loader, pixelsPerPoint: ZOOM, focusPage: 0, knownPages: [...pictures.keys()], shownPages: shown });
        const whole = await renderPreview(markdown, { loader, pixelsPerPoint: ZOOM, focusPage: 0 });
        for (const [index, page] of edited.pages.entries()) {
          if (page.png === null) continue;
          const expected = PNG.sync.read(Buffer.from(whole.pages[index]!.png!));
          const picture = page.band ? laidOver(pictures.get(page.band.base)!, page) : PNG.sync.read(Buffer.from(page.png));
          if (page.band) {
            bands += 1;
            assert.equal(page.band.base, shown[index], `${file}: the band lies over the picture shown as page ${index + 1}`);
            assert.ok(page.band.height < page.height * 0.6, `${file}: a band of ${page.band.height} pt`);
          }
          const { differing, most } = difference(picture, expected);
          // The scale is the same to a float's precision: a handful of edge pixels may differ by a shade.
          assert.ok(
            differing < picture.width * picture.height * 0.001 && most <= 32,
            `${file}, page ${index + 1}: ${differing} pixels differ, by up to ${most}`,
          );
          pictures.set(page.hash, picture);
        }
        previous = edited;
      }
      assert.ok(bands >= 2, `${file}: ${bands} edits drawn as bands`);
    }
  });

  it('should draw only the pages around the one in view', async () => {
    const markdown = readFileSync(path.join(ROOT, 'fixtures/table-200.md'), 'utf8').repeat(8);
    const first = await renderPreview(markdown, { focusPage: 20 });
    assert.ok(first.pages.length > 20 + 2 * DRAWN_AROUND, `${first.pages.length} pages`);
    const drawn = first.pages.flatMap((page, index) => (page.png === null ? [] : [index]));
    assert.deepEqual(
      drawn,
      Array.from({ length: 2 * DRAWN_AROUND + 1 }, (_, i) => 20 - DRAWN_AROUND + i),
    );
    // Scrolled to the end: the pages there are drawn, those known are not drawn again.
    const known = first.pages.filter((page) => page.png !== null).map((page) => page.hash);
    const last = first.pages.length - 1;
    const later = await renderPreview(markdown, { focusPage: last, knownPages: known });
    assert.deepEqual(
      later.pages.flatMap((page, index) => (page.png === null ? [] : [index])),
      Array.from({ length: DRAWN_AROUND + 1 }, (_, i) => last - DRAWN_AROUND + i).filter((index) => !known.includes(later.pages[index]!.hash)),
    );
  });
});

/** The picture `under` with the page's band laid over its rows. */
function laidOver(under: PNG, page: PreviewPage): PNG {
  const band = PNG.sync.read(Buffer.from(page.png!));
  const picture = new PNG({ width: under.width, height: under.height });
  under.data.copy(picture.data);
  const top = Math.round(page.band!.top * ZOOM);
  assert.equal(band.width, under.width);
  assert.equal(Math.round(page.band!.height * ZOOM), band.height);
  band.data.copy(picture.data, top * under.width * 4);
  return picture;
}

function difference(a: PNG, b: PNG): { differing: number; most: number } {
  assert.deepEqual([a.width, a.height], [b.width, b.height]);
  let differing = 0;
  let most = 0;
  for (let i = 0; i < a.data.length; i += 1) {
    const by = Math.abs(a.data[i]! - b.data[i]!);
    if (by > 0) differing += 1;
    most = Math.max(most, by);
  }
  return { differing: differing / 4, most };
}

describe('what a preview draws of a very large page', () => {
  it('should draw a poster-sized page within its pixel budget, and a page too dense to draw in full greeked, with a warning', async () => {
    const words = 'Words set small on a very large sheet, again and again. '.repeat(1800);
    const markdown = `---\npaper: [60in, 60in]\nmargin: 1in\n---\n\n# Poster\n\n${words}`;
    const { pages, warnings } = await renderPreview(markdown, { resources: 'lenient' });
    assert.equal(pages.length, 1);
    const png = PNG.sync.read(Buffer.from(pages[0]!.png!));
    assert.ok(png.width * png.height <= MOST_PAGE_PIXELS * 1.01, `${png.width} × ${png.height}`);
    assert.ok(Math.abs(png.width / png.height - 1) < 0.01, 'drawn at one scale both ways');
    assert.match(warnings.join('\n'), /page 1 holds too much to preview in full/);
    // Greeked, the text still inks the page: its bars are there.
    let inked = 0;
    for (let i = 0; i < png.data.length; i += 4) if (png.data[i]! < 200) inked += 1;
    assert.ok(inked > (png.width * png.height) / 50, `${inked} inked pixels`);
    const small = await renderPreview('---\npaper: [60in, 60in]\n---\n\n# Poster\n\nA few words.', { resources: 'lenient' });
    assert.doesNotMatch(small.warnings.join('\n'), /too much to preview/);
  });
});
