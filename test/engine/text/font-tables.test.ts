/** The PostScript name the painter gives PDFKit, read without fontkit's decoding of the whole name table. */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import * as fontkit from 'fontkit';
import { render } from '#engine/index.js';
import { postscriptName, type TrueTypeSource } from '#engine/paint/font-tables.js';
import { pdffonts } from '../../support/pdf-tools.js';

const FONTS = new URL('../../../../engine/fonts/', import.meta.url);

describe('PostScript names', () => {
  it("should be fontkit's for every bundled font", () => {
    const files = readdirSync(FONTS, { recursive: true, encoding: 'utf8' }).filter((file) => /\.(ttf|otf)$/.test(file));
    assert.ok(files.length >= 16, `bundled fonts: ${files.length}`);
    for (const file of files) {
      const font = fontkit.create(readFileSync(new URL(file, FONTS))) as fontkit.Font & TrueTypeSource;
      assert.equal(postscriptName(font), font.postscriptName, file);
    }
  });

  it('should be the base name of each embedded subset font', async () => {
    const { pdf } = await render('Serif *italic* **bold** `mono` مرحبا');
    const names = (await pdffonts(pdf)).map((font) => font.name.replace(/^[A-Z]{6}\+/, ''));
    for (const expected of ['SourceSerif4-Regular', 'SourceSerif4-Italic', 'SourceSerif4-Bold', 'JetBrainsMono-Regular', 'NotoSansArabic-Regular']) {
      assert.ok(names.includes(expected), `${expected} in ${names.join(', ')}`);
    }
  });
});
