import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { render, type RenderResult } from '#engine/index.js';
import { landscape, pageGeometry } from '#engine/style/page-geometry.js';
import { METRICS } from '#engine/style/metrics.js';
import { DEFAULT_DESIGN } from '#engine/style/design-settings.js';
import { fixture } from '../../support/fixtures.js';
import { pageSizes, pdftotext, structureText, wordBoxes } from '../../support/pdf-tools.js';
import { pageTextItems } from '../../support/pdfjs.js';

const UPRIGHT = pageGeometry(DEFAULT_DESIGN);
const TURNED = landscape(UPRIGHT);

const WEBCRYPTO = fixture('webcrypto/webcrypto.md');
const MATRIX_HEADER = [
  'Algorithm',
  'generateKey',
  'exportKey',
  'importKey',
  'encrypt',
  'decrypt',
  'wrapKey',
  'unwrapKey',
  'deriveBits',
  'deriveKey',
  'sign',
  'verify',
  'digest',
];

/** The words of every cell of the Markdown tables in a document, markup left out. */
function tableWords(markdown: string): string[] {
  const rows = markdown.split('\n').filter((line) => line.startsWith('|') && !/^\|[\s|:-]+\|$/.test(line));
  const cells = rows.flatMap((line) => line.slice(1, -1).split('|'));
  const text = cells.map((cell) =>
    cell
      .replace(/<span[^>]*><\/span>/g, '')
      .replace(/\[\^\d+\]/g, '')
      .replaceAll('`', ''),
  );
  return [...new Set(text.flatMap((cell) => cell.trim().split(/\s+/)).filter(Boolean))];
}

/** Words as pdftotext extracts them (it reads ActualText: a hyphenated word comes out whole). */
async function extractedWords(pdf: Uint8Array, options: { first?: number; last?: number } = {}): Promise<Set<string>> {
  return new Set((await pdftotext(pdf, options)).split(/\s+/));
}

/** The glyphs drawn on a page, as pdf.js reads them (ignoring ActualText), run together. */
async function drawnText(pdf: Uint8Array, page: number): Promise<string> {
  return (await pageTextItems(pdf, page)).join('');
}

/** The word as drawn when cut across lines: its letters with hyphens between some of them. */
function drawnCut(word: string): RegExp {
  return new RegExp([...word].map((char) => char.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('-?'));
}

/**
 * Every word drawn past the side margins (of the upright page, or the turned one; `reach` further
 * out, as code blocks may go) or off the page, of `only` those words when given.
 * (Vertically, poppler's boxes span the font's whole ascent and descent, which may reach into the
 * top margin: the page is the bound.)
 */
async function wordsOutsideContent(pdf: Uint8Array, options: { reach?: number; only?: ReadonlySet<string> } = {}): Promise<string[]> {
  const outside: string[] = [];
  for (const [index, page] of (await wordBoxes(pdf)).entries()) {
    const side = (page.width > page.height ? TURNED : UPRIGHT).marginInner - (options.reach ?? 0);
    for (const word of page.words) {
      if (options.only && !options.only.has(word.text)) continue;
      const inside = word.xMin >= side - 0.5 && word.xMax <= page.width - side + 0.5 && word.yMin >= 0 && word.yMax <= page.height;
      if (!inside) outside.push(`page ${index + 1}: ${word.text} at x ${word.xMin}–${word.xMax}, y ${word.yMin}–${word.yMax}`);
    }
  }
  return outside;
}

/** The first Table element of `pdfinfo -struct-text`'s tree: its line and the lines indented under it. */
function firstTable(tree: string): string {
  const lines = tree.split('\n');
  const start = lines.findIndex((line) => line.trim().startsWith('Table'));
  const indent = (line: string) => line.length - line.trimStart().length;
  const end = lines.findIndex((line, index) => index > start && line.trim() !== '' && indent(line) <= indent(lines[start]!));
  return lines.slice(start, end).join('\n');
}

function wideTable(columns: number, rows: number, cell: (row: number, column: number) => string): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  const indexes = Array.from({ length: columns }, (_, column) => column);
  return [
    line(indexes.map((column) => `Col${column}`)),
    `|${'---|'.repeat(columns)}`,
    ...Array.from({ length: rows }, (_, row) => line(indexes.map((column) => cell(row, column)))),
  ].join('\n');
}

describe('tables that never overflow and never cut a word without a hyphen', () => {
  let webcrypto: RenderResult;
  before(async () => {
    webcrypto = await render(WEBCRYPTO);
  });

  it("should keep every word of Node's webcrypto tables whole in the extracted text, and every word inside the content box", async () => {
    const words = await extractedWords(webcrypto.pdf);
    const cut = tableWords(WEBCRYPTO).filter((word) => !words.has(word));
    assert.deepEqual(cut, [], 'every cell word extracts whole');
    assert.ok(!words.has('Algorit') && !words.has("'Ed255"), 'no word is cut between letters');
    assert.deepEqual(await wordsOutsideContent(webcrypto.pdf, { only: new Set(tableWords(WEBCRYPTO)) }), [], 'table words within the text block');
    assert.deepEqual(await wordsOutsideContent(webcrypto.pdf, { reach: METRICS.codeMarginReach }), [], 'nothing past where code blocks may reach');
  });

  it('should set the 13-column algorithm matrix on a landscape page of its own, reading in order and numbered in sequence', async () => {
    const sizes = await pageSizes(webcrypto.pdf);
    const turned = sizes.flatMap((size, index) => (size.width > size.height ? [index + 1] : []));
    const withMatrix = [];
    for (const number of turned)
      if (new RegExp(MATRIX_HEADER.join('\\s+')).test(await pdftotext(webcrypto.pdf, { first: number, last: number, layout: true }))) withMatrix.push(number);
    assert.equal(withMatrix.length, 1, 'the matrix on one landscape page');
    const page = withMatrix[0]!;
    assert.deepEqual(sizes[page - 1], { width: 841.89, height: 595.276, rotation: 0 }, 'A4 turned: a landscape MediaBox, not /Rotate');
    assert.deepEqual({ ...sizes[page - 2] }, { width: 595.276, height: 841.89, rotation: 0 });
    assert.deepEqual({ ...sizes[page] }, { width: 595.276, height: 841.89, rotation: 0 });

    const text = await pdftotext(webcrypto.pdf, { first: page, last: page, layout: true });
    assert.match(text, new RegExp(MATRIX_HEADER.join('\\s+')), 'the header row reads left to right');
    const algorithms = ["'RSASSA-PKCS1-v1_5'", "'RSA-PSS'", "'Ed25519'", "'X448'", "'AES-KW'", "'PBKDF2'", "'SHA-1'", "'SHA-512'"];
    const positions = algorithms.map((name) => text.indexOf(name));
    assert.ok(
      positions.every((position, i) => position >= 0 && (i === 0 || position > positions[i - 1]!)),
      `rows in order: ${positions}`,
    );
    assert.equal(text.trim().split('\n').at(-1)!.trim(), String(page), 'the page number in its foot');
    assert.match(await pdftotext(webcrypto.pdf, { first: page - 1, last: page - 1 }), /Algorithm matrix\s+The table details/);
    assert.match(await pdftotext(webcrypto.pdf, { first: page + 1, last: page + 1 }), /^Class: Crypto/);
    for (let number = 1; number <= sizes.length; number++) {
      const last = (await pdftotext(webcrypto.pdf, { first: number, last: number })).trim().split('\n').at(-1)!.trim();
      assert.equal(last, String(number), `page ${number} is numbered ${number}`);
    }

    const cells = [...firstTable(await structureText(webcrypto.pdf)).matchAll(/"([^"]*)"/g)].map((match) => match[1]);
    assert.deepEqual(cells.slice(0, 13), MATRIX_HEADER, 'the tagged header row');
    assert.deepEqual(
      cells.filter((cell) => cell!.startsWith("'")),
      [
        "'RSASSA-PKCS1-v1_5'",
        "'RSA-PSS'",
        "'RSA-OAEP'",
        "'ECDSA'",
        "'Ed25519'",
        "'Ed448'",
        "'ECDH'",
        "'X25519'",
        "'X448'",
        "'AES-CTR'",
        "'AES-CBC'",
        "'AES-GCM'",
        "'AES-KW'",
        "'HMAC'",
        "'HKDF'",
        "'PBKDF2'",
        "'SHA-1'",
        "'SHA-256'",
        "'SHA-384'",
        "'SHA-512'",
      ],
      'the tagged rows in order',
    );
  });

  it('should set a table too wide even for a landscape page smaller, with a warning, and draw nothing past the content box', async () => {
    const { pdf, warnings } = await render(`Before the table.\n\n${wideTable(60, 4, (row, column) => `r${row}c${column}`)}\n\nAfter the table.\n`);
    assert.deepEqual(warnings, ['a table of 60 columns is too wide for a landscape page at 7 pt: set at 5 pt, its longest words cut to the columns']);
    assert.deepEqual(
      (await pageSizes(pdf)).map((size) => size.width > size.height),
      [false, true, false],
    );
    assert.deepEqual(await wordsOutsideContent(pdf), []);
    const words = await extractedWords(pdf);
    assert.ok(
      ['Col0', 'Col59', 'r0c0', 'r3c59'].every((word) => words.has(word)),
      'cut words still extract whole',
    );

    const crowded = await render(`${wideTable(300, 2, (row, column) => `r${row}c${column}`)}\n`);
    assert.deepEqual(
      crowded.warnings,
      ['a table of 300 columns is too wide for a landscape page at 7 pt: set at 1.2 pt, its longest words cut to the columns'],
      'below 5 pt only when not even one em a column would fit',
    );
    assert.deepEqual(await wordsOutsideContent(crowded.pdf), []);
  });

  for (const [language, name, words] of [
    ['de', 'a German', ['Haftpflichtversicherung', 'Berufsunfähigkeitsversicherung', 'Kraftfahrzeughaftpflichtversicherung', 'Bundesversicherungsamt']],
    ['en', 'an English', ['Internationalization', 'Telecommunications', 'Incomprehensibility', 'representatives']],
  ] as const) {
    it(`should hyphenate the words of narrow columns in ${name} table, drawing the hyphens and extracting the words whole`, async () => {
      const table = wideTable(7, 2, (row, column) => (column === 0 ? String(row + 1) : `${words[(row + column) % words.length]} ${column}`));
      const { pdf } = await render(`---\nlanguage: ${language}\n---\n\n${table}\n`);
      assert.deepEqual(await pageSizes(pdf), [{ width: 595.276, height: 841.89, rotation: 0 }], 'hyphenated, the table fits the upright page');
      const extracted = await extractedWords(pdf);
      const drawn = await drawnText(pdf, 1);
      for (const word of words) {
        assert.ok(extracted.has(word), `${word} extracts whole`);
        assert.match(drawn.match(drawnCut(word))?.[0] ?? '', /-/, `${word} is drawn hyphenated`);
      }
      assert.deepEqual(await wordsOutsideContent(pdf), []);
    });
  }

  it('should cut a word too long for any column with a drawn hyphen at each cut, extracting it whole', async () => {
    const word = 'Pneumonoultramicroscopicsilicovolcanoconiosis'.repeat(4);
    const { pdf } = await render(`${wideTable(30, 1, (_, column) => (column === 0 ? word : `c${column}`))}\n`);
    assert.ok((await extractedWords(pdf)).has(word), 'the word extracts whole');
    const drawn = (await drawnText(pdf, 1)).match(drawnCut(word))?.[0] ?? '';
    assert.ok(drawn.split('-').length >= 3, `cut at least twice, each cut hyphenated: ${drawn}`);
    assert.deepEqual(await wordsOutsideContent(pdf), []);
  });

  it('should wrap a code token too long for its line after the continuation mark, drawing no hyphen and extracting the token whole', async () => {
    const token = 'QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo'.repeat(5);
    const { pdf } = await render(`\`\`\`\nconst key = ${token};\n\`\`\`\n`);
    assert.ok((await extractedWords(pdf)).has(`${token};`), 'the token extracts whole');
    assert.doesNotMatch(await drawnText(pdf, 1), /-/, 'no hyphen in code');
    assert.deepEqual(await wordsOutsideContent(pdf, { reach: METRICS.codeMarginReach }), []);
  });

  it('should carry a heading kept with a wide table onto its landscape page, and set a wide table opening a list item there too', async () => {
    const table = wideTable(16, 2, (row, column) => `entry${row}x${column}`);
    const { pdf } = await render(`# Report\n\nOpening paragraph.\n\n## Matrix\n\n${table}\n\n- ${table.replaceAll('\n', '\n  ')}\n\nClosing paragraph.\n`);
    assert.deepEqual(
      (await pageSizes(pdf)).map((size) => size.width > size.height),
      [false, true, false],
    );
    assert.match(await pdftotext(pdf, { first: 1, last: 1 }), /^Report\s+Opening paragraph\.\s+1\s*$/);
    assert.match(await pdftotext(pdf, { first: 2, last: 2 }), /^Matrix\s+Col0\s+Col1[\s\S]*entry1x15[\s\S]*Col0[\s\S]*entry1x15\s+2\s*$/);
    assert.match(await pdftotext(pdf, { first: 3, last: 3 }), /^Closing paragraph\./);
  });

  it('should keep a table in a footnote at the foot of the upright page, however wide', async () => {
    const { pdf, warnings } = await render(`A claim.[^1]\n\n[^1]: ${wideTable(20, 1, (_, column) => `note${column}`).replaceAll('\n', '\n    ')}\n`);
    assert.deepEqual(warnings.length, 1);
    assert.match(warnings[0]!, /^a table of 20 columns is too wide for the page at 7 pt: set at [\d.]+ pt/);
    assert.deepEqual(
      (await pageSizes(pdf)).map((size) => size.width > size.height),
      [false],
    );
    assert.ok((await extractedWords(pdf)).has('note19'));
    assert.deepEqual(await wordsOutsideContent(pdf), []);
  });
});
