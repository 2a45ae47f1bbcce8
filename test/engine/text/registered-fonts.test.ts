/**
 * Fonts given to a render (the `fonts` option): chosen by family like the bundled ones, from
 * bytes, through the loader and in front matter, their faces found by weight and slant from their
 * own tables; refused when their licence bits forbid embedding, when they are no fonts, and past
 * their size bound before they are read. Judged on real PDFs (pdffonts, pdf.js).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  FontError,
  FrontMatterError,
  InvalidOptionError,
  RenderCache,
  folderLoader,
  render,
  renderPreview,
  type LoadContext,
  type ResourceLoader,
} from '#engine/index.js';
import { bundledFont, collectionOf, FONTS, withFsType } from '../../support/font-files.js';
import { FIXTURES } from '../../support/fixtures.js';
import { pdffonts } from '../../support/pdf-tools.js';
import { pageTextFonts } from '../../support/pdfjs.js';

const REGULAR = bundledFont('dejavu/DejaVuSans.ttf');
const BOLD = bundledFont('dejavu/DejaVuSans-Bold.ttf');
const MONO = bundledFont('jetbrains-mono/JetBrainsMono_400Regular.ttf');

const source = (frontMatter: string) => `---\ntitle: Families\n${frontMatter}\n---\n\n# A heading\n\nBody text with *italic* and **bold** and \`code\`.\n`;

/** The embedded fonts' names without their subset prefixes. */
async function fontNames(pdf: Uint8Array): Promise<string[]> {
  return [...new Set((await pdffonts(pdf)).map((font) => font.name.replace(/^[A-Z]{6}\+/, '')))].sort();
}

/** The font the first text item holding `text` on page 1 is set in. */
async function fontOf(pdf: Uint8Array, text: string): Promise<string> {
  const item = (await pageTextFonts(pdf, 1)).find((candidate) => candidate.text.includes(text));
  assert.ok(item, `no text item with ${text}`);
  return item.font;
}

/** Body, bold and headings in the registered family; code in the bundled mono; no Source Serif anywhere. */
async function assertSetIn(pdf: Uint8Array): Promise<void> {
  const names = await fontNames(pdf);
  assert.deepEqual(names, ['DejaVuSans', 'DejaVuSans-Bold', 'JetBrainsMono-Regular'], names.join());
  const rows = await pdffonts(pdf);
  assert.ok(
    rows.every((row) => row.embedded && row.subset && row.unicode),
    'embedded, subset, with ToUnicode',
  );
  assert.equal(await fontOf(pdf, 'Body text'), 'DejaVuSans');
  // Headings ask for semibold: the nearest heavier face, the bold one (read as 700 from its OS/2 table).
  assert.equal(await fontOf(pdf, 'A heading'), 'DejaVuSans-Bold');
  assert.equal(await fontOf(pdf, 'Families'), 'DejaVuSans-Bold');
  assert.equal(await fontOf(pdf, 'bold'), 'DejaVuSans-Bold');
  // The family has no italic face: italic text is set upright in the regular one.
  assert.equal(await fontOf(pdf, 'italic'), 'DejaVuSans');
}

/** A loader over the bundled fonts' folder that records what it was asked for and the bound it was given. */
function countingLoader(): ResourceLoader & { asked: Array<{ url: string; remainingBytes: number }> } {
  const folder = folderLoader(FONTS);
  const asked: Array<{ url: string; remainingBytes: number }> = [];
  return {
    asked,
    load(url: string, context: LoadContext) {
      asked.push({ url, remainingBytes: context.remainingBytes });
      return folder.load(url, context);
    },
  };
}

function refusedWith(reason: string, pattern: RegExp) {
  return (error: unknown) => {
    assert.ok(error instanceof FontError, String(error));
    assert.equal(error.reason, reason);
    assert.match(error.message, pattern);
    return true;
  };
}

describe('registered fonts', () => {
  it('should set body and headings in a family given as bytes, named by the font itself', async () => {
    const { pdf } = await render(source(''), { fonts: [{ data: REGULAR }, { data: BOLD }], design: { fonts: 'DejaVu Sans' } });
    await assertSetIn(pdf);
  });

  it('should read a family by path through the loader, and let front matter choose it by the name given', async () => {
    const loader = countingLoader();
    const { pdf } = await render(source('fonts:\n  body: house sans\n  heading: House  Sans'), {
      fonts: [
        { family: 'House Sans', path: 'dejavu/DejaVuSans.ttf' },
        { family: 'House Sans', path: 'dejavu/DejaVuSans-Bold.ttf' },
      ],
      loader,
    });
    await assertSetIn(pdf);
    assert.deepEqual(
      loader.asked.map((ask) => ask.url),
      ['dejavu/DejaVuSans.ttf', 'dejavu/DejaVuSans-Bold.ttf'],
    );
  });

  it('should set code in a registered family given as mono, and keep the bundled text face', async () => {
    const { pdf } = await render(source('fonts:\n  mono: Code Face'), { fonts: [{ family: 'Code Face', data: REGULAR }] });
    assert.equal(await fontOf(pdf, 'code'), 'DejaVuSans');
    assert.equal(await fontOf(pdf, 'Body text'), 'SourceSerif4-Regular');
  });

  it('should take every face of a collection, and one when an index picks it', async () => {
    const collection = collectionOf([REGULAR, BOLD]);
    const { pdf } = await render(source('fonts: DejaVu Sans'), { fonts: [{ data: collection }] });
    await assertSetIn(pdf);
    const one = await render(source('fonts: Bold Only'), { fonts: [{ family: 'Bold Only', data: collection, index: 1 }] });
    assert.equal(await fontOf(one.pdf, 'Body text'), 'DejaVuSans-Bold');
    await assert.rejects(
      render('Text.', { fonts: [{ data: collection, index: 2 }] }),
      (error: unknown) => error instanceof InvalidOptionError && error.key === 'fonts[0].index',
    );
  });

  it('should take weight and style given over the font’s own', async () => {
    // The regular file registered as the family's bold: bold text and headings are set in it.
    const { pdf } = await render(source('fonts: Given'), {
      fonts: [
        { family: 'Given', data: MONO },
        { family: 'Given', data: REGULAR, weight: 'bold' },
      ],
    });
    assert.equal(await fontOf(pdf, 'Body'), 'JetBrainsMono-Regular');
    assert.equal(await fontOf(pdf, 'A heading'), 'DejaVuSans');
    await assert.rejects(
      render('Text.', {
        fonts: [
          { family: 'Twice', data: REGULAR },
          { family: 'Twice', data: MONO },
        ],
      }),
      refusedWith('duplicate_face', /Twice already has an upright face of weight 400/),
    );
  });

  it('should refuse a font whose OS/2 fsType asks for restricted licence embedding, naming the font and the rule', async () => {
    await assert.rejects(
      render('Text.', { fonts: [{ family: 'Locked', data: withFsType(REGULAR, 0x0002) }] }),
      refusedWith(
        'embedding_restricted',
        /^font "Locked" \(fonts\[0\]\): DejaVuSans may not be embedded: its OS\/2 fsType 0x0002 asks for restricted licence embedding \(0x0002\)/,
      ),
    );
    const loader: ResourceLoader = { load: async () => ({ bytes: withFsType(REGULAR, 0x0002) }) };
    await assert.rejects(
      render('Text.', { fonts: [{ path: 'fonts/locked.ttf' }], loader }),
      refusedWith('embedding_restricted', /^font "fonts\/locked.ttf" \(fonts\[0\]\)/),
    );
    await assert.rejects(render('Text.', { fonts: [{ data: withFsType(REGULAR, 0x0200) }] }), refusedWith('bitmap_only', /bitmap embedding only \(0x0200\)/));
    await assert.rejects(render('Text.', { fonts: [{ data: withFsType(REGULAR, 0x0100) }] }), refusedWith('no_subsetting', /forbids subsetting \(0x0100\)/));
    // Preview & print (0x0004), and restricted with it (older fonts set several bits: the least restrictive counts), embed.
    for (const fsType of [0x0004, 0x0006, 0x0008]) {
      const { pdf } = await render(source('fonts: DejaVu Sans'), { fonts: [{ data: withFsType(REGULAR, fsType) }] });
      assert.equal(await fontOf(pdf, 'Body text'), 'DejaVuSans', `fsType ${fsType}`);
    }
  });

  it('should refuse what is not a font, naming it', async () => {
    const loader = folderLoader(FIXTURES);
    await assert.rejects(
      render('Text.', { fonts: [{ path: 'images/dot.png' }], loader }),
      refusedWith('not_a_font', /^font "images\/dot.png" \(fonts\[0\]\): is not a TrueType or OpenType font/),
    );
    await assert.rejects(render('Text.', { fonts: [{ family: 'Empty', data: new Uint8Array(0) }] }), refusedWith('not_a_font', /^font "Empty"/));
    const woff = new Uint8Array(REGULAR);
    woff.set([0x77, 0x4f, 0x46, 0x46]); // wOFF
    await assert.rejects(render('Text.', { fonts: [{ data: woff }] }), refusedWith('unsupported_format', /WOFF web font/));
    // A font's head whose tables lie past its end.
    await assert.rejects(render('Text.', { fonts: [{ data: REGULAR.slice(0, 4096) }] }), refusedWith('not_a_font', /fonts\[0\]/));
    await assert.rejects(render('Text.', { fonts: [{ path: 'nowhere.ttf' }], loader }), refusedWith('unreadable', /not_found/));
  });

  it('should refuse a font over its size bound before the loader reads it, and bytes over it before parsing', async () => {
    const loader = countingLoader();
    await assert.rejects(
      render('Text.', { fonts: [{ path: 'dejavu/DejaVuSans.ttf' }], loader, limits: { bounds: { maxFontBytes: 100_000 } } }),
      refusedWith('too_large', /larger than 100000 bytes/),
    );
    assert.deepEqual(loader.asked, [{ url: 'dejavu/DejaVuSans.ttf', remainingBytes: 100_000 }]);
    await assert.rejects(render('Text.', { fonts: [{ data: REGULAR }], limits: { bounds: { maxFontBytes: 100_000 } } }), refusedWith('too_large', /100000/));
    await assert.rejects(
      render('Text.', { fonts: [{ data: REGULAR }, { data: BOLD }], limits: { bounds: { maxFonts: 1 } } }),
      refusedWith('too_many', /more than 1 faces/),
    );
  });

  it('should refuse a family nobody registered, naming those that are, and malformed entries by key', async () => {
    await assert.rejects(
      render(source('fonts: Inter'), { fonts: [{ family: 'House', data: REGULAR }] }),
      (error: unknown) => error instanceof FrontMatterError && /fonts must be serif, sans or a registered family \("House"\).*not "Inter"/.test(error.message),
    );
    await assert.rejects(
      render('Text.', { design: { fonts: 'House' } }),
      (error: unknown) => error instanceof InvalidOptionError && error.key === 'design.fonts',
    );
    const refusedKey = (fonts: unknown, key: string) =>
      assert.rejects(render('Text.', { fonts: fonts as never }), (error: unknown) => error instanceof InvalidOptionError && error.key === key);
    await refusedKey({ data: REGULAR }, 'fonts');
    await refusedKey([{ family: 'Both', data: REGULAR, path: 'a.ttf' }], 'fonts[0]');
    await refusedKey([{ family: 'Serif', data: REGULAR }], 'fonts[0].family');
    await refusedKey([{ data: 'not bytes' }], 'fonts[0].data');
    await refusedKey([{ data: REGULAR, weight: 1200 }], 'fonts[0].weight');
    await refusedKey([{ data: REGULAR, style: 'oblique' }], 'fonts[0].style');
    await refusedKey([{ data: REGULAR, colour: 'red' }], 'fonts[0].colour');
  });

  it('should not reuse laid-out blocks set in another font of the same family name', async () => {
    const cache = new RenderCache();
    const first = await render(source('fonts: House'), { fonts: [{ family: 'House', data: REGULAR }], cache });
    assert.equal(await fontOf(first.pdf, 'Body text'), 'DejaVuSans');
    const second = await render(source('fonts: House'), { fonts: [{ family: 'House', data: MONO }], cache });
    assert.equal(await fontOf(second.pdf, 'Body'), 'JetBrainsMono-Regular');
    const again = await render(source('fonts: House'), { fonts: [{ family: 'House', data: REGULAR }], cache });
    assert.deepEqual(again.pdf, (await render(source('fonts: House'), { fonts: [{ family: 'House', data: REGULAR }] })).pdf);
  });

  it('should draw a preview in a registered family', async () => {
    const preview = await renderPreview(source('fonts: DejaVu Sans'), { fonts: [{ data: REGULAR }, { data: BOLD }] });
    assert.equal(preview.pages.length, 1);
    assert.ok(preview.pages[0]!.png && preview.pages[0]!.png.length > 1000);
  });
});
