/** `fonts`: the bundled families of the text and the headings, judged on real PDFs. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FrontMatterError, render } from '#engine/index.js';
import { pdffonts } from '../../support/pdf-tools.js';
import { pageTextFonts } from '../../support/pdfjs.js';

const source = (frontMatter: string) => `---\ntitle: Families\n${frontMatter}\n---\n\n# A heading\n\nBody text with *italic* and **bold** and \`code\`.\n`;

/** The embedded fonts' names without their subset prefixes. */
async function fontNames(pdf: Uint8Array): Promise<string[]> {
  return [...new Set((await pdffonts(pdf)).map((font) => font.name.replace(/^[A-Z]{6}\+/, '')))].sort();
}

/** The font each text item of page 1 is set in, by its text. */
async function fontOf(pdf: Uint8Array, text: string): Promise<string> {
  const items = await pageTextFonts(pdf, 1);
  const item = items.find((candidate) => candidate.text.includes(text));
  assert.ok(item, `no text item with ${text}`);
  return item.font;
}

describe('fonts', () => {
  it('should set everything but code in Source Serif 4 by default', async () => {
    const names = await fontNames((await render(source(''))).pdf);
    assert.ok(
      names.every((name) => /SourceSerif4|JetBrainsMono/.test(name)),
      names.join(),
    );
  });

  it('should set the body in Source Sans 3 and keep serif headings when asked', async () => {
    const { pdf } = await render(source('fonts:\n  body: sans\n  heading: serif\n  mono: mono'));
    const names = await fontNames(pdf);
    for (const face of ['SourceSans3-Regular', 'SourceSans3-It', 'SourceSans3-Bold', 'SourceSerif4-SemiBold', 'JetBrainsMono-Regular']) {
      assert.ok(
        names.some((name) => name.startsWith(face)),
        `${face} in ${names.join()}`,
      );
    }
    assert.ok(!names.some((name) => name === 'SourceSerif4-Regular'), 'no serif body text');
    const pdffontsRows = await pdffonts(pdf);
    assert.ok(
      pdffontsRows.every((row) => row.embedded && row.subset && row.unicode),
      'embedded, subset, with ToUnicode',
    );
  });

  it('should set headings and the title in the sans with `fonts: sans`', async () => {
    const { pdf } = await render(source('fonts: sans'));
    const names = await fontNames(pdf);
    assert.ok(
      names.some((name) => name.startsWith('SourceSans3-Semibold')),
      names.join(),
    );
    assert.ok(!names.some((name) => name.startsWith('SourceSerif4')), names.join());
    assert.notEqual(await fontOf(pdf, 'Families'), await fontOf(pdf, 'Body text'), 'title semibold, body regular');
  });

  it('should refuse a family it does not bundle, naming the key and the value', async () => {
    const refused = async (frontMatter: string, pattern: RegExp) =>
      assert.rejects(render(source(frontMatter)), (error: unknown) => error instanceof FrontMatterError && pattern.test(error.message));
    await refused('fonts: comic', /fonts must be serif or sans, or a map of body and heading .*, not "comic"/);
    await refused('fonts:\n  body: Helvetica', /fonts must be .* not \{"body":"Helvetica"\}/);
    await refused('fonts:\n  mono: courier', /not \{"mono":"courier"\}/);
    await refused('fonts:\n  caption: sans', /not \{"caption":"sans"\}/);
  });
});
