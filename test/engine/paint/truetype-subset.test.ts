/** Quire's own TrueType subsetter: the subset draws every kept glyph exactly as the font does. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import * as fontkit from 'fontkit';
import { advanceWidths, type TrueTypeSource } from '#engine/paint/font-tables.js';
import { subsetTrueType } from '#engine/paint/truetype-subset.js';

const fontFile = (name: string) => readFileSync(new URL(`../../../../engine/fonts/${name}`, import.meta.url));
const open = (bytes: Buffer) => fontkit.create(bytes) as unknown as Font;

interface Glyph {
  id: number;
  advanceWidth: number;
  path: { toSVG(): string };
  _decode(): { numberOfContours: number } | null;
}
type Font = Omit<fontkit.Font, 'getGlyph'> & TrueTypeSource & { getGlyph(id: number): Glyph; numGlyphs: number };

function subsetOf(font: Font, ids: number[]): { subset: Font; glyphs: number[] } {
  const glyphs = [0, ...ids];
  const include = (id: number) => {
    const known = glyphs.indexOf(id);
    if (known >= 0) return known;
    glyphs.push(id);
    return glyphs.length - 1;
  };
  const subset = open(Buffer.from(subsetTrueType(font, glyphs, include)));
  return { subset, glyphs };
}

function assertSameGlyphs(font: Font, subset: Font, glyphs: number[]): void {
  assert.equal(subset.numGlyphs, glyphs.length);
  glyphs.forEach((id, newId) => {
    const original = font.getGlyph(id);
    const copy = subset.getGlyph(newId);
    assert.equal(copy.path.toSVG(), original.path.toSVG(), `outline of glyph ${id}`);
    assert.equal(copy.advanceWidth, original.advanceWidth, `advance of glyph ${id}`);
  });
}

describe('TrueType subsets', () => {
  for (const file of ['source-serif-4/SourceSerif4_400Regular.ttf', 'jetbrains-mono/JetBrainsMono_400Regular.ttf', 'dejavu/DejaVuSans.ttf']) {
    it(`should keep outlines and advances of ${file}, composites with their components`, () => {
      const font = open(fontFile(file));
      const text = font.layout('Quire — Ærøskøbing, ﬁne naïve façade κόσμε Привет ½ №').glyphs.map((glyph) => glyph.id);
      const ids = [...new Set(text)];
      const { subset, glyphs } = subsetOf(font, ids);
      const composites = ids.filter((id) => (font.getGlyph(id)._decode()?.numberOfContours ?? 0) < 0);
      assert.ok(composites.length > 0 || file.includes('mono'), 'the text exercises composite glyphs');
      assert.ok(glyphs.length >= ids.length + 1, 'components joined the subset');
      assertSameGlyphs(font, subset, glyphs);
    });
  }

  it('should write a file whose checksums add up and whose glyph count is the subset', () => {
    const font = open(fontFile('source-serif-4/SourceSerif4_400Regular.ttf'));
    const bytes = subsetTrueType(font, [0, 36, 37], () => assert.fail('no composites here'));
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let sum = 0;
    for (let at = 0; at + 4 <= bytes.length; at += 4) sum = (sum + view.getUint32(at)) >>> 0;
    assert.equal(sum, 0xb1b0afba, 'whole-file checksum with checkSumAdjustment');
    assert.equal(open(Buffer.from(bytes)).numGlyphs, 3);
  });

  it('should leave the source font untouched', () => {
    const font = open(fontFile('jetbrains-mono/JetBrainsMono_400Regular.ttf'));
    const before = Buffer.from(font.stream.buffer);
    subsetTrueType(font, [0, 40, 41], (id) => id);
    assert.ok(before.equals(Buffer.from(font.stream.buffer)));
  });

  it("should read every glyph's advance width as fontkit does, and the glyphs past the long metrics fontkit cannot", () => {
    for (const name of [
      'source-serif-4/SourceSerif4_400Regular.ttf',
      'jetbrains-mono/JetBrainsMono_700Bold.ttf',
      'noto-sans-arabic/NotoSansArabic_400Regular.ttf',
    ]) {
      const font = open(fontFile(name));
      const advance = advanceWidths(font)!;
      let answered = 0;
      for (let id = 0; id < font.numGlyphs; id++) {
        const mine = advance(id);
        let expected: number;
        try {
          expected = font.getGlyph(id).advanceWidth;
        } catch {
          // fontkit reads past its hmtx bearings for the last glyph of JetBrains Mono Bold.
          continue;
        }
        assert.equal(mine, expected, `${name} glyph ${id}`);
        answered++;
      }
      assert.ok(answered >= font.numGlyphs - 1, `${name}: ${answered} of ${font.numGlyphs}`);
    }
  });
});
