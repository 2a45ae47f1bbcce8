import { execFile } from 'node:child_process';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { promisify } from 'node:util';
import { render } from '#engine/index.js';
import { highlightCode } from '#engine/content/highlight/index.js';
import { MAX_PIECE_CHARS, pieces } from '#engine/content/highlight/pieces.js';
import { themeColors } from '#engine/content/highlight/theme.js';
import type { HighlightedLine } from '#engine/document/types.js';
import { palette } from '#engine/style/palette.js';
import type { Color } from '#engine/style/color.js';
import type { Theme } from '#engine/options.js';
import { fixture } from '../../support/fixtures.js';
import { pdffonts, pdfFile, pdftotext } from '../../support/pdf-tools.js';

const run = promisify(execFile);

const hex = (color: Color | null): string => (color ? color.map((channel) => channel.toString(16).padStart(2, '0')).join('') : 'default');

/** Colours of the tokens whose text is `text`, as hex. */
function colorsOf(lines: HighlightedLine[], text: string): string[] {
  return lines
    .flat()
    .filter((token) => token.text.trim() === text)
    .map((token) => hex(token.color));
}

function joined(lines: HighlightedLine[]): string {
  return lines.map((line) => line.map((token) => token.text).join('')).join('\n');
}

/** Every non-stroking RGB colour set with `rg` in the PDF's page content, as hex. */
async function fillColors(pdf: Uint8Array): Promise<Set<string>> {
  const file = pdfFile(pdf);
  const { stdout } = await run('qpdf', ['--qdf', '--object-streams=disable', file, '-'], { encoding: 'latin1', maxBuffer: 64 << 20 });
  const out = new Set<string>();
  for (const match of stdout.matchAll(/([\d.]+) ([\d.]+) ([\d.]+) rg/g)) {
    out.add(
      [match[1], match[2], match[3]]
        .map((value) =>
          Math.round(Number(value) * 255)
            .toString(16)
            .padStart(2, '0'),
        )
        .join(''),
    );
  }
  return out;
}

/** WCAG 2 contrast ratio of two sRGB colours. */
function contrast(a: Color, b: Color): number {
  const luminance = (color: Color) => {
    const [r, g, bl] = color.map((channel) => {
      const c = channel / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

const TS = `/** Greets someone. */
export function greet(name: string): string {
  return "Hello, " + name; // a comment
}
`;

describe('code highlighting', () => {
  it('should colour TypeScript with the light theme: keywords red, strings dark blue, comments grey, titles purple', async () => {
    const lines = (await highlightCode(TS, 'typescript', 'light'))!;
    assert.deepEqual(colorsOf(lines, 'export'), ['cf222e']);
    assert.deepEqual(colorsOf(lines, '"Hello, "'), ['0a3069']);
    assert.deepEqual(colorsOf(lines, '// a comment'), ['59636e']);
    assert.deepEqual(colorsOf(lines, 'greet'), ['8250df']);
    assert.ok(colorsOf(lines, '+').every((color) => color === 'default' || color === '0550ae'));
  });

  it('should colour the same code with the dark theme when the theme is dark', async () => {
    const lines = (await highlightCode(TS, 'typescript', 'dark'))!;
    assert.deepEqual(colorsOf(lines, 'export'), ['ff7b72']);
    assert.deepEqual(colorsOf(lines, '"Hello, "'), ['a5d6ff']);
    assert.deepEqual(colorsOf(lines, '// a comment'), ['8b949e']);
    assert.deepEqual(colorsOf(lines, 'greet'), ['d2a8ff']);
  });

  it('should give tokens that join to exactly the source lines, for every fixture language', async () => {
    const blocks = [...fixture('content/highlight.md').matchAll(/```(\w+)\n([\s\S]*?)```/g)];
    assert.ok(blocks.length >= 12);
    for (const [, language, code] of blocks) {
      const lines = await highlightCode(code!, language!, 'light');
      if (language === 'klingon') continue;
      assert.ok(lines, `${language} is highlighted`);
      assert.equal(joined(lines), code!.replace(/\n$/, ''), language);
    }
  });

  it('should find languages by alias (js, py, sh, yml, html) and mark up nested languages', async () => {
    for (const alias of ['js', 'py', 'sh', 'yml', 'html', 'c++', 'golang']) assert.ok(await highlightCode('x = 1', alias, 'light'), alias);
    const html = (await highlightCode('<script>let x = 1;</script>', 'html', 'light'))!;
    assert.deepEqual(colorsOf(html, 'script'), ['116329', '116329']);
    assert.deepEqual(colorsOf(html, 'let'), ['cf222e']);
  });

  it('should return null (plain code) for unknown languages and for plain text', async () => {
    assert.equal(await highlightCode('Qapla!', 'klingon', 'light'), null);
    assert.equal(await highlightCode('just words', 'text', 'light'), null);
    assert.equal(await highlightCode('just words', 'plaintext', 'dark'), null);
    assert.equal(await highlightCode('x', '../../../etc/passwd', 'light'), null);
  });

  it('should keep every theme colour at WCAG AA contrast (4.5:1) on the code panel', () => {
    for (const theme of ['light', 'dark'] as Theme[]) {
      const background = palette(theme).codeBackground;
      for (const color of [...themeColors(theme), palette(theme).codeText]) {
        assert.ok(contrast(color, background) >= 4.5, `${theme} ${hex(color)} on ${hex(background)}: ${contrast(color, background).toFixed(2)}`);
      }
    }
  });

  for (const theme of ['light', 'dark'] as Theme[]) {
    it(`should paint the ${theme} theme's colours in the PDF, with the code text extractable`, async () => {
      const { pdf } = await render(fixture('content/highlight.md'), { features: { theme } });
      const colors = await fillColors(pdf);
      const used = themeColors(theme)
        .map(hex)
        .filter((color) => colors.has(color));
      assert.ok(used.length >= 8, `theme colours painted: ${used.join(' ')}`);
      const other = themeColors(theme === 'light' ? 'dark' : 'light')
        .map(hex)
        .filter((color) => colors.has(color) && !themeColors(theme).map(hex).includes(color));
      assert.deepEqual(other, []);
      const text = await pdftotext(pdf);
      assert.match(text, /export async function greet\(name: string, times = 3\): Promise<string> \{/);
      assert.match(text, /SELECT id, name FROM accounts WHERE plan = 'pro'/);
    });
  }

  it('should paint code in one colour with highlight off, and unknown languages in one colour with it on', async () => {
    const code = '```ts\nconst a = "x"; // note\n```\n\n```klingon\nQapla\'\n```\n';
    // The page number is painted in the muted grey that comments share.
    const syntax = themeColors('light')
      .map(hex)
      .filter((color) => color !== hex(palette('light').muted));
    const off = await fillColors((await render(code, { features: { highlight: false } })).pdf);
    assert.deepEqual(
      syntax.filter((color) => off.has(color)),
      [],
    );
    const plain = await fillColors((await render('```klingon\nconst a = "x"; // note\n```\n')).pdf);
    assert.deepEqual(
      syntax.filter((color) => plain.has(color)),
      [],
    );
    const on = await fillColors((await render(code)).pdf);
    assert.ok(['cf222e', '0a3069'].every((color) => on.has(color)));
  });

  it('should set bold scopes (a Markdown heading) in the bold code face', async () => {
    const { pdf } = await render('```markdown\n# Heading\n```\n');
    assert.ok((await pdffonts(pdf)).some((font) => /JetBrainsMono.*Bold/i.test(font.name)));
    const plain = await render('```\n# Heading\n```\n');
    assert.ok(!(await pdffonts(plain.pdf)).some((font) => /JetBrainsMono.*Bold/i.test(font.name)));
  });

  it('should highlight long code in pieces cut at top-level blank lines, still joining exactly', async () => {
    const unit = 'function f(a) {\n  /* comment */\n  return a + 1;\n}\n\n';
    const code = unit.repeat(Math.ceil((5 * MAX_PIECE_CHARS) / unit.length));
    const parts = pieces(code);
    assert.ok(parts.length >= 5 && parts.every((part) => part.length <= MAX_PIECE_CHARS));
    assert.equal(parts.join(''), code);
    assert.ok(
      parts.slice(0, -1).every((part) => part.endsWith('}\n\n')),
      'cuts fall between functions',
    );
    const lines = (await highlightCode(code, 'javascript', 'light'))!;
    assert.equal(joined(lines), code.replace(/\n$/, ''));
    assert.equal(new Set(colorsOf(lines, '/* comment */')).size, 1);
  });

  it('should cut a line longer than a piece anywhere but inside a surrogate pair', () => {
    const line = 'x'.repeat(MAX_PIECE_CHARS - 1) + '😀' + 'y'.repeat(10);
    const parts = pieces(line);
    assert.equal(parts.join(''), line);
    assert.ok(parts.every((part) => !/[\ud800-\udbff]$/.test(part)));
  });

  it('should stay bounded on hostile text (one 60 KB word) and show blocks over 64 KB plain', async () => {
    const word = 'a'.repeat(60_000);
    const lines = (await highlightCode(word, 'java', 'light'))!;
    assert.equal(joined(lines), word);
    assert.equal(await highlightCode('a'.repeat(64 * 1024 + 1), 'java', 'light'), null);
  });
});
