import type { Font } from 'fontkit';
import type { Font as HbFont } from 'harfbuzzjs';
import { hbFont, HbFeatures, shapeText } from './harfbuzz.js';
import { tightenCaseJoins } from './case-join-kerning.js';
import type { ShapedGlyph } from './shaped-glyph.js';

export type { ShapedGlyph } from './shaped-glyph.js';

/** One glyph as shaped, in font units, with the characters it stands for (its cluster). */
export interface ShapedText {
  glyphs: ShapedGlyph[];
  /** Total advance in font units. */
  advance: number;
}

export type Direction = 'ltr' | 'rtl';
export type FeatureSet = 'text' | 'code';

/** OpenType features per kind of text (beyond HarfBuzz's defaults): code keeps every character as typed. */
const FEATURES: Record<FeatureSet, HbFeatures> = {
  text: new HbFeatures(['+kern', '+liga', '+clig']),
  code: new HbFeatures(['-kern', '-liga', '-calt', '-clig']),
};

/** Longest text whose shaping is kept, and the characters kept in all (each glyph ~100 bytes). */
const MAX_CACHED_WORD = 64;
const MAX_CACHED_CHARS = 400_000;

/**
 * A loaded font with its metrics and a shaping cache. Shaping is per word and memoised, which
 * makes it about a hundred times cheaper on real text than shaping whole strings.
 */
export class Face {
  readonly unitsPerEm: number;
  readonly ascent: number;
  readonly descent: number;
  readonly capHeight: number;
  readonly xHeight: number;
  /** Shaped words by direction and feature set, then by text. */
  private readonly cache = new Map<string, Map<string, ShapedText>>();
  /** Characters held by the cache. */
  private cachedChars = 0;
  private readonly coverage = new Map<number, boolean>();
  private printableAscii: boolean | undefined;

  private shaper: HbFont | null = null;

  /** `bytes` are the file the font came from; `index` its place in a collection. */
  constructor(
    readonly key: string,
    readonly font: Font,
    private readonly bytes: Uint8Array,
    private readonly index = 0,
  ) {
    this.unitsPerEm = font.unitsPerEm;
    const os2 = (font as unknown as { 'OS/2'?: { typoAscender: number; typoDescender: number } })['OS/2'];
    this.ascent = os2?.typoAscender || font.ascent;
    this.descent = os2?.typoDescender || font.descent;
    this.capHeight = font.capHeight || this.ascent * 0.7;
    this.xHeight = font.xHeight || this.ascent * 0.5;
  }

  has(codePoint: number): boolean {
    let known = this.coverage.get(codePoint);
    if (known === undefined) {
      known = this.font.hasGlyphForCodePoint(codePoint);
      this.coverage.set(codePoint, known);
    }
    return known;
  }

  /** Whether the face has every printable ASCII character, space to tilde (asked once). */
  coversPrintableAscii(): boolean {
    if (this.printableAscii === undefined) {
      this.printableAscii = true;
      for (let codePoint = 0x20; codePoint <= 0x7e && this.printableAscii; codePoint++) this.printableAscii = this.has(codePoint);
    }
    return this.printableAscii;
  }

  shape(text: string, direction: Direction = 'ltr', features: FeatureSet = 'text'): ShapedText {
    const kind = direction === 'ltr' ? features : `${direction}-${features}`;
    let words = this.cache.get(kind);
    if (!words) {
      words = new Map();
      this.cache.set(kind, words);
    }
    let shaped = words.get(text);
    if (!shaped) {
      shaped = this.shapeUncached(text, direction, features);
      // Words repeat, long runs rarely do; and the cache is bounded by what it holds, so endless
      // distinct words or one megabyte-long "word" cannot grow it past a few tens of megabytes.
      if (text.length <= MAX_CACHED_WORD) {
        this.cachedChars += text.length;
        if (this.cachedChars > MAX_CACHED_CHARS) {
          for (const kept of this.cache.values()) kept.clear();
          this.cachedChars = text.length;
        }
        words.set(text, shaped);
      }
    }
    return shaped;
  }

  /** Points per font unit at `size`. */
  scale(size: number): number {
    return size / this.unitsPerEm;
  }

  private shapeUncached(text: string, direction: Direction, features: FeatureSet): ShapedText {
    this.shaper ??= hbFont(this.bytes, this.index);
    const shaped = shapeText(this.shaper, text, direction === 'rtl', FEATURES[features]);
    // The first glyph of a cluster in reading order (a base before its marks) stands for the
    // cluster's characters, the others for none; right-to-left glyphs come in visual order.
    // HarfBuzz's default cluster level keeps clusters monotone, so in text order each cluster's
    // characters run to the next cluster's start.
    const count = shaped.length;
    const chars = new Array<string>(count).fill('');
    const inTextOrder = (k: number) => (direction === 'rtl' ? count - 1 - k : k);
    for (let k = 0; k < count; ) {
      const cluster = shaped[inTextOrder(k)]!.cluster;
      let next = k + 1;
      while (next < count && shaped[inTextOrder(next)]!.cluster === cluster) next++;
      chars[inTextOrder(k)] = text.slice(cluster, next < count ? shaped[inTextOrder(next)]!.cluster : text.length);
      k = next;
    }
    let advance = 0;
    const glyphs = shaped.map((glyph, i): ShapedGlyph => {
      advance += glyph.advance;
      return { id: glyph.id, advance: glyph.advance, dx: glyph.dx, dy: glyph.dy, chars: chars[i]! };
    });
    if (direction === 'ltr' && features === 'text') advance -= tightenCaseJoins(text, glyphs, this.font);
    return { glyphs, advance };
  }
}
