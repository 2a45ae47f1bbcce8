import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { NO_MARKS, type Inline } from '#engine/document/types.js';
import type { LaidLine } from '#engine/layout/inline/line-items.js';
import { layoutParagraph, type ParagraphSettings } from '#engine/layout/inline/paragraph.js';
import { plainLine } from '#engine/layout/inline/plain-line.js';
import { Tagger } from '#engine/layout/structure.js';
import { palette } from '#engine/style/palette.js';
import { fontLibrary } from '#engine/text/font-library.js';
import { harfBuzzReady } from '#engine/text/harfbuzz.js';

const env = { fonts: fontLibrary, palette: palette('light'), tagger: new Tagger(null) };
const settings: ParagraphSettings = {
  base: { font: { family: 'mono', weight: 'regular', italic: false }, size: 8.75, color: [31, 35, 40], features: 'code' },
  width: 300,
  x: 72,
  leading: 11.75,
  align: 'start',
  hyphenator: null,
  tag: null,
  preserveSpaces: true,
};

function token(text: string, options: { color?: [number, number, number]; bold?: boolean } = {}): Inline {
  return {
    kind: 'text',
    text,
    marks: { ...NO_MARKS, bold: options.bold ?? false },
    link: null,
    code: null,
    ...(options.color ? { color: options.color } : {}),
  };
}

/** The line with every number rounded: the two paths add the same widths in different groups. */
function rounded(line: LaidLine | undefined): unknown {
  return JSON.parse(JSON.stringify(line, (_key, value: unknown) => (typeof value === 'number' ? Math.round(value * 1e6) / 1e6 : value)));
}

describe('a plain line of code', () => {
  it('should be laid out as the general paragraph layout lays it out: glyphs, colours, runs, positions', async () => {
    await harfBuzzReady;
    const keyword: [number, number, number] = [207, 34, 46];
    const cases: Inline[][] = [
      [token('const answer = compute(42);')],
      [token('return', { color: keyword }), token(' a-b/c(d) + '), token('"text"', { color: [10, 48, 105] }), token(' // done  ')],
      [token('fn', { color: keyword, bold: true }), token(' main() {}')],
      [token('x'.repeat(57))],
    ];
    for (const inlines of cases) {
      const plain = plainLine(inlines, settings, env);
      assert.ok(plain, `taken by the plain path: ${JSON.stringify(inlines.map((inline) => (inline as { text: string }).text))}`);
      const general = layoutParagraph(inlines, settings, env);
      assert.equal(general.length, 1);
      assert.deepEqual(rounded(plain), rounded(general[0]));
    }
  });

  it('should leave to the general layout what it does not handle: a line too long, other characters, a leading space, a link', async () => {
    await harfBuzzReady;
    assert.equal(layoutParagraph([token('x'.repeat(58))], settings, env).length, 2, 'the longest case above is the longest that fits');
    assert.equal(plainLine([token('x'.repeat(58))], settings, env), null);
    assert.equal(plainLine([token('naïve → café')], settings, env), null);
    assert.equal(plainLine([token('tab\there')], settings, env), null);
    assert.equal(plainLine([token('  indented')], settings, env), null);
    const link: Inline = {
      kind: 'text',
      text: 'https://example.com',
      marks: NO_MARKS,
      link: { target: { kind: 'uri', uri: 'https://example.com' }, description: 'example' },
      code: null,
    };
    assert.equal(plainLine([link], settings, env), null);
    assert.equal(plainLine([token('centred')], { ...settings, align: 'center' }, env), null);
  });
});
