import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { render } from '#engine/index.js';
import { fixture } from '../../support/fixtures.js';
import { pdffonts, pdftotext, qpdfCheck } from '../../support/pdf-tools.js';
import { pageTextItems } from '../../support/pdfjs.js';
import { uncompressed } from '../../support/pdf-content.js';

const words = (text: string) =>
  text
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .split(/\s+/);

describe('text in the PDF', () => {
  it('should extract in reading order, ligatures as their letters', async () => {
    const { pdf } = await render('# Title\n\nFirst paragraph: office, affine, fluffy.\n\n- one\n- two\n\nLast paragraph.');
    const text = await pdftotext(pdf);
    assert.match(text, /Title[\s\S]*First paragraph: office, affine, fluffy\.[\s\S]*one[\s\S]*two[\s\S]*Last paragraph\./);
  });

  it('should embed every font as a subset with a ToUnicode map, and pass qpdf --check', async () => {
    const { pdf } = await render(fixture('kitchen-sink.md'));
    const fonts = await pdffonts(pdf);
    assert.ok(fonts.length >= 4, `fonts: ${fonts.map((font) => font.name).join(', ')}`);
    for (const font of fonts) {
      assert.ok(font.embedded && font.subset && font.unicode, `${font.name} embedded, subset and mapped`);
    }
    assert.ok(fonts.some((font) => /SourceSerif4/.test(font.name)));
    assert.ok(fonts.some((font) => /JetBrainsMono/.test(font.name)));
    await qpdfCheck(pdf);
  });

  it('should turn straight quotes, dashes and ellipses typographic, but never in code or URLs', async () => {
    const markdown = '"Quoted" -- and --- and... `"code" -- ...` https://example.com/a--b';
    const on = await pdftotext((await render(markdown)).pdf);
    assert.match(on, /\u201cQuoted\u201d \u2013 and \u2014 and\u2026/);
    assert.match(on, /"code" -- \.\.\./);
    assert.match(on, /https:\/\/example\.com\/a--b/);
    const off = await pdftotext((await render(markdown, { features: { smart_typography: false } })).pdf);
    assert.match(off, /"Quoted" -- and --- and\.\.\./);
  });

  it('should hyphenate justified German and still extract every word whole', async () => {
    const markdown = fixture('german.md');
    const { pdf, pages } = await render(markdown);
    assert.ok(pages >= 2);
    const extracted = new Set(words(await pdftotext(pdf)));
    const missing = words(markdown.replace(/^---[\s\S]*?---/, '')).filter((word) => !extracted.has(word));
    assert.deepEqual(missing, []);
    // pdf.js ignores ActualText, so it shows the hyphens actually drawn at line ends.
    const drawn = await pageTextItems(pdf, 1);
    const hyphenatedLines = drawn.filter((item) => item === '-').length;
    assert.ok(hyphenatedLines >= 3, `expected hyphenated lines, got ${hyphenatedLines}`);
  });

  it('should not hyphenate when the language is unknown', async () => {
    const markdown = fixture('german.md').replace('language: de\n', '');
    const { pdf } = await render(markdown);
    const drawn = await pageTextItems(pdf, 1);
    assert.equal(drawn.filter((item) => item === '-').length, 0);
  });

  it('should read Arabic and Hebrew paragraphs and mixed runs in logical order', async () => {
    const markdown = fixture('rtl.md');
    const text = (await pdftotext((await render(markdown)).pdf)).replace(/[\u200e\u200f\u202a-\u202e]/g, '');
    for (const phrase of ['مرحبا بالعالم', 'هذه فقرة عربية قصيرة لاختبار الاتجاه', 'זוהי פסקה בעברית עם כמה מילים', 'שלום', 'السلام عليكم', 'English']) {
      assert.ok(text.includes(phrase), `missing "${phrase}" in:\n${text}`);
    }
  });

  it('should draw a visible box for a character no font has, keeping it in the text', async () => {
    const result = await render('Before \u{10FFFD} after.');
    assert.match(await pdftotext(result.pdf), /Before \u{10FFFD} after\./u);
  });

  it('should keep code exactly as typed, wrapping long lines with a mark that does not extract', async () => {
    const code = '    indented = "two  spaces"\n' + 'x = ' + 'word '.repeat(40).trim();
    const { pdf } = await render('```\n' + code + '\n```');
    const text = await pdftotext(pdf);
    // Layout mode places text by position: the indentation survives as spaces.
    assert.match(await pdftotext(pdf, { layout: true }), /^ {4}indented = "two +spaces"$/m);
    assert.doesNotMatch(text, /\u21aa/);
    assert.equal(words(text).filter((word) => word === 'word').length, 40);
  });
  it("should draw a paragraph's lines and a code line's coloured tokens in one text object, setting only what changes", async () => {
    const paragraph = 'Every line of this paragraph is drawn in the same text object. '.repeat(6);
    const { pdf } = await render(`${paragraph}\n\n\`\`\`js\nconst answer = "forty-two"; // a comment\n\`\`\``);
    const content = await uncompressed(pdf);
    const sequences = [...content.matchAll(/^\/(P|Code) <<\/MCID \d+>> BDC\n([\s\S]*?)^EMC$/gm)].map((match) => ({ role: match[1], ops: match[2]! }));
    const count = (ops: string, pattern: RegExp) => ops.match(pattern)?.length ?? 0;
    const prose = sequences.find((sequence) => sequence.role === 'P')!;
    assert.ok(count(prose.ops, /^1 0 0 1 [\d.]+ [\d.]+ Tm$/gm) >= 4, 'several lines');
    assert.equal(count(prose.ops, /^(BT|ET)$/gm), 0);
    assert.equal(count(prose.ops, / Tf$/gm), 1);
    assert.equal(count(prose.ops, / rg$/gm), 1);
    const code = sequences.find((sequence) => sequence.role === 'Code')!;
    assert.equal(count(code.ops, /^(BT|ET)$/gm), 0);
    assert.ok(count(code.ops, / rg$/gm) >= 3, 'a colour per kind of token');
    // The paragraph, the code and the page number: one text object, holding their marked content whole.
    assert.equal(count(content, /^BT$/gm), 1);
    const open: string[] = [];
    for (const [op] of content.matchAll(/^(?:BT|ET|EMC|.* BDC|.* BMC)$/gm)) {
      if (op === 'ET' || op === 'EMC') assert.equal(open.pop(), op === 'ET' ? 'BT' : 'marked', `${op} ends what opened last`);
      else open.push(op === 'BT' ? 'BT' : 'marked');
    }
    assert.deepEqual(open, []);
    assert.match((await pdftotext(pdf)).replace(/\s+/g, ' '), /same text object\. Every line[\s\S]*const answer = "forty-two"; \/\/ a comment/);
    await qpdfCheck(pdf);
  });
});
