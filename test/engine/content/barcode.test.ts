import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { render, type Features } from '#engine/index.js';
import { renderBarcode } from '#engine/content/barcode/index.js';
import { fixture } from '../../support/fixtures.js';
import { pdftotext } from '../../support/pdf-tools.js';
import { paintedContent, rasterImageCount, scanPage, structureAlts } from '../../support/pdf-content.js';

const OPTIONS = { theme: 'light' as const, signal: undefined };

async function pdf(markdown: string, features: Partial<Features> = {}): Promise<Uint8Array> {
  return (await render(markdown, { features })).pdf;
}

describe('barcodes and QR codes', () => {
  for (const theme of ['light', 'dark'] as const) {
    it(`draws symbols a scanner decodes, as vectors black on a white quiet zone (${theme})`, async () => {
      const bytes = await pdf(fixture('content/barcode.md'), { theme });
      const scanned = (await scanPage(bytes, 1)) + (await scanPage(bytes, 2));
      assert.match(scanned, /^QR-Code:https:\/\/quire\.example\/docs$/m);
      assert.match(scanned, /^EAN-13:9780201379624$/m);
      assert.match(scanned, /^CODE-128:QUIRE-2026-0042$/m);
      assert.match(scanned, /^CODE-39:QUIRE 39$/m);
      assert.match(scanned, /^EAN-13:0036000291452$/m, 'UPC-A reads as EAN-13 with a leading zero');
      assert.match(scanned, /^QR-Code:BEGIN:VCARD\nVERSION:3\.0\nFN:Ada Lovelace\nEND:VCARD$/m);
      assert.equal(await rasterImageCount(bytes), 0);
      const { fills, colors } = await paintedContent(bytes);
      assert.ok(fills > 10, 'modules and plates are filled paths');
      assert.ok(
        colors.some((color) => color.join() === '255,255,255'),
        'a white plate',
      );
      assert.ok(
        colors.some((color) => color.join() === '0,0,0'),
        'black bars',
      );
    });
  }

  it('tags each symbol as a Figure whose Alt names the symbology and the data, with its caption', async () => {
    const bytes = await pdf(fixture('content/barcode.md'));
    const alts = await structureAlts(bytes, 'Figure');
    assert.deepEqual(alts.slice(0, 3), ['QR code: https://quire.example/docs', 'EAN-13 barcode: 9780201379624', 'Code 128 barcode: QUIRE-2026-0042']);
    assert.ok(alts.includes('Data Matrix code: Quire Data Matrix'));
    assert.ok(alts.includes('PDF417 code: Quire PDF417 sample'));
    const text = await pdftotext(bytes);
    assert.match(text, /ISBN 978-0-201-37962-4/);
    assert.match(text, /Contact card/);
  });

  it('shows data the symbology cannot encode as code with a note', async () => {
    const text = await pdftotext(await pdf(fixture('content/barcode.md')));
    assert.match(text, /Barcode not drawn: Incorrect EAN-13 check digit provided/);
    assert.match(text, /ean13: 9780201379625/);
  });

  it('answers unreadable blocks with why, quickly, and draws the largest data accepted', async () => {
    const text = await pdftotext(await pdf(fixture('content/barcode-hostile.md')));
    for (const note of [
      /Barcode not drawn: Code 39 must contain only digits, capital letters/,
      /Barcode not drawn: unknown symbology "maxicode"/,
      /Barcode not drawn: size must be a length from 5mm to 500mm/,
      /Barcode not drawn: height applies to linear barcodes/,
      /Barcode not drawn: the data is longer than 3000 characters/,
    ])
      assert.match(text, note);
    assert.doesNotMatch(text, /type: azteccode/, 'the 2,900-character Aztec code is drawn');
  });

  it('barcode: false leaves the blocks as code', async () => {
    const bytes = await pdf(fixture('content/barcode.md'), { barcode: false });
    const text = await pdftotext(bytes);
    assert.match(text, /ean13: 9780201379624/);
    assert.match(text, /https:\/\/quire\.example\/docs/);
    assert.equal(await scanPage(bytes), '');
    assert.deepEqual(await structureAlts(bytes, 'Figure'), []);
  });

  it('reads the syntax: symbology lines, key lines, data after the options, aliases', async () => {
    const drawn = async (fence: 'qr' | 'barcode', source: string) => {
      const result = await renderBarcode(fence, source, OPTIONS);
      return result.ok ? { alt: result.alt, caption: result.caption ?? null } : { reason: result.reason };
    };
    assert.deepEqual(await drawn('barcode', 'EAN-13: 4006381333931\n'), { alt: 'EAN-13 barcode: 4006381333931', caption: null });
    assert.deepEqual(await drawn('barcode', 'type: Code 128\ncaption: Box 7\n\nBOX-7\n'), { alt: 'Code 128 barcode: BOX-7', caption: 'Box 7' });
    assert.deepEqual(await drawn('barcode', 'qr: hello\n'), { alt: 'QR code: hello', caption: null });
    assert.deepEqual(await drawn('qr', 'data: caption: not an option\n'), { alt: 'QR code: caption: not an option', caption: null });
    assert.deepEqual(await drawn('barcode', 'code128: A\ncode128: B\n'), { reason: '"type" is given twice' });
    assert.deepEqual(await drawn('barcode', 'data: 123\n'), { reason: 'no symbology: begin with a line such as "code128: DATA" or "type: ean13"' });
    assert.deepEqual(await drawn('qr', 'ecc: X\nhello'), { reason: 'ecc must be L, M, Q or H' });
    assert.deepEqual(await drawn('barcode', 'code128: A\nstray line'), { reason: 'unexpected line after the options: "stray line"' });
    assert.deepEqual(await drawn('qr', '\n\n'), { reason: 'no data to encode' });
  });

  it('sizes the symbol by its width and keeps its bars at the height asked', async () => {
    const natural = await renderBarcode('barcode', 'code128: QUIRE', OPTIONS);
    const sized = await renderBarcode('barcode', 'code128: QUIRE\nsize: 50mm\nheight: 10mm', OPTIONS);
    assert.ok(natural.ok && sized.ok);
    assert.equal(natural.drawing.unit, 1, 'a bwip-js unit is a point at natural size');
    const quiet = 2 * 10;
    const symbolWidth = (sized.drawing.width - quiet) * sized.drawing.unit;
    assert.ok(Math.abs(symbolWidth - (50 * 72) / 25.4) < 0.5, `50 mm wide (${symbolWidth} pt)`);
    assert.ok(sized.drawing.height < natural.drawing.height, 'shorter bars');
  });
});
