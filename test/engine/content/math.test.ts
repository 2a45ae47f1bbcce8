import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { render, RendererBoundError, type Features } from '#engine/index.js';
import { renderMath } from '#engine/content/math/index.js';
import { fixture } from '../../support/fixtures.js';
import { pdffonts, pdftotext } from '../../support/pdf-tools.js';
import { paintedContent, rasterImageCount, structureAlts } from '../../support/pdf-content.js';

const LIGHT_TEXT = [0x1f, 0x23, 0x28];
const DARK_TEXT = [0xe6, 0xed, 0xf3];
const TEX_RED = [0xcf, 0x22, 0x2e];

async function pdf(markdown: string, features: Partial<Features> = {}): Promise<Uint8Array> {
  return (await render(markdown, { features })).pdf;
}

function hasColor(colors: Array<[number, number, number]>, wanted: number[]): boolean {
  return colors.some((color) => color.every((channel, i) => Math.abs(channel - wanted[i]!) <= 1));
}

describe('math', () => {
  it('typesets the fixture as vector paths, each formula tagged Formula with its TeX as Alt', async () => {
    const bytes = await pdf(fixture('content/math.md'));
    const alts = await structureAlts(bytes, 'Formula');
    assert.ok(alts.includes('E = mc^2'), 'inline formula with its source');
    assert.ok(alts.includes('\\int_{-\\infty}^{\\infty} e^{-x^2}\\,dx = \\sqrt{\\pi}'), 'display formula with its source');
    assert.ok(
      alts.some((alt) => alt.startsWith('\\begin{aligned}')),
      'math fence with its source',
    );
    assert.ok(alts.includes('e^{i\\pi} + 1 = 0 \\tag{1}'), 'tagged equation');
    assert.ok(alts.includes('\\ce{2 H2 + O2 -> 2 H2O}'), 'mhchem');
    const { fills } = await paintedContent(bytes);
    assert.ok(fills > 100, `glyphs are filled paths (${fills})`);
    assert.equal(await rasterImageCount(bytes), 0);
    const text = await pdftotext(bytes);
    assert.doesNotMatch(text, /mc\^2|\\sqrt|\\int/, 'typeset formulas are not text');
  });

  it('shows invalid TeX as red source inline and as code with a note on its own line', async () => {
    const bytes = await pdf(fixture('content/math.md'));
    const text = await pdftotext(bytes);
    assert.match(text, /\\frac\{1\}\{/);
    assert.match(text, /Formula not typeset: Undefined control sequence \\undefinedcommand/);
    assert.match(text, /\\undefinedcommand\{x\}/);
    assert.ok(hasColor((await paintedContent(bytes)).colors, TEX_RED));
  });

  it('colours formulas with the theme text colour, light and dark', async () => {
    const markdown = '$$\n\\sum_{k=0}^{n} \\binom{n}{k} = 2^n\n$$';
    const light = (await paintedContent(await pdf(markdown))).colors;
    const dark = (await paintedContent(await pdf(markdown, { theme: 'dark' }))).colors;
    assert.ok(hasColor(light, LIGHT_TEXT) && !hasColor(light, DARK_TEXT));
    assert.ok(hasColor(dark, DARK_TEXT) && !hasColor(dark, LIGHT_TEXT));
    assert.deepEqual(await structureAlts(await pdf(markdown, { theme: 'dark' }), 'Formula'), ['\\sum_{k=0}^{n} \\binom{n}{k} = 2^n']);
  });

  it('math: false leaves dollars and math fences as typed', async () => {
    const markdown = 'Euler: $e^{i\\pi} + 1 = 0$.\n\n$$\nx^2\n$$\n\n```math\ny^2\n```\n';
    const off = await pdf(markdown, { math: false });
    const text = await pdftotext(off);
    assert.match(text, /\$e\^\{i\\pi\} \+ 1 = 0\$/);
    assert.match(text, /\$\$\s*x\^2\s*\$\$/);
    assert.match(text, /y\^2/);
    assert.deepEqual(await structureAlts(off, 'Formula'), []);
    assert.ok(
      (await pdffonts(off)).some((font) => /JetBrainsMono/.test(font.name)),
      'the math fence is code',
    );
    assert.equal((await structureAlts(await pdf(markdown), 'Formula')).length, 3);
  });

  it('sets inline formulas on the baseline in units of 1/1000 em at the body size', async () => {
    const result = await renderMath('x', { theme: 'light', signal: undefined, display: false });
    assert.ok(result.ok);
    const { drawing } = result;
    assert.equal(drawing.unit, 10.5 / 1000);
    assert.ok(Math.abs(drawing.baseline - 442) < 1, `baseline at the x-height (${drawing.baseline})`);
    assert.ok(drawing.height - drawing.baseline < 20, 'x barely descends');
    const fraction = await renderMath('\\frac{a}{b}', { theme: 'light', signal: undefined, display: true });
    assert.ok(fraction.ok && fraction.drawing.height - fraction.drawing.baseline > 500, 'the denominator hangs below the baseline');
  });

  it('sets an equation tag after its equation at a fixed width, at the top or inside a formula', async () => {
    for (const tex of ['E = mc^2 \\tag{3}', '\\begin{align} a &= b \\tag{1} \\end{align} + x']) {
      const result = await renderMath(tex, { theme: 'light', signal: undefined, display: true });
      assert.ok(result.ok, tex);
      assert.ok(result.drawing.width > 3000 && result.drawing.width < 8000, `${tex}: ${result.drawing.width} units wide`);
    }
  });

  it('keeps each formula to itself: macros defined in one are unknown in the next and in later renders', async () => {
    const options = { theme: 'light' as const, signal: undefined, display: false };
    const defined = await renderMath('\\newcommand{\\R}{\\mathbb{R}} x \\in \\R', options);
    assert.ok(defined.ok);
    const later = await renderMath('\\R', options);
    assert.equal(later.ok, false);
    assert.match(!later.ok ? later.reason : '', /Undefined control sequence \\R/);
    const first = await pdf('$\\def\\x{y}\\x$ and $\\x$');
    const second = await pdf('$\\def\\x{y}\\x$ and $\\x$');
    assert.deepEqual(first, second, 'the same document renders byte for byte the same');
  });

  it('reuses a formula typeset before, keyed by source, display and theme', async () => {
    const options = { theme: 'light' as const, signal: undefined, display: true };
    const once = await renderMath('\\oint_C \\omega', options);
    const twice = await renderMath('\\oint_C \\omega', options);
    assert.ok(once.ok && twice.ok && once.drawing === twice.drawing);
    const dark = await renderMath('\\oint_C \\omega', { ...options, theme: 'dark' });
    assert.ok(dark.ok && dark.drawing !== once.drawing);
  });

  it('answers a recursive macro with MathJax’s limit: the source in red, the document rendered', async () => {
    const bytes = await pdf(fixture('content/math-hostile-macros.md'));
    const text = await pdftotext(bytes);
    assert.match(text, /\\def\\loop\{\\loop\\loop\}\\loop/);
    assert.match(text, /Formula not typeset: MathJax maximum substitution count exceeded/);
  });

  it('refuses groups nested past the bound with DepthLimit before typesetting', async () => {
    await assert.rejects(
      pdf(fixture('content/math-hostile-nesting.md')),
      (error: unknown) => error instanceof RendererBoundError && error.bound === 'DepthLimit',
    );
  });

  it('stops a macro that nests itself with DepthLimit', async () => {
    await assert.rejects(
      pdf(fixture('content/math-hostile-recursion.md')),
      (error: unknown) => error instanceof RendererBoundError && error.bound === 'DepthLimit',
    );
  });

  it('stops a formula that macros grow past the node bound with ElementLimit', async () => {
    await assert.rejects(
      pdf(fixture('content/math-hostile-nodes.md')),
      (error: unknown) => error instanceof RendererBoundError && error.bound === 'ElementLimit',
    );
  });
});
