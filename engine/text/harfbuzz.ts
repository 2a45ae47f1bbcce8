import type * as HarfBuzz from 'harfbuzzjs';

/**
 * HarfBuzz (WebAssembly) does the shaping: glyph for glyph what fontkit gives on Latin, Arabic,
 * Indic and the rest, and about ten times faster on a document's first pass through its words.
 * One buffer is reused for every call (shaping is synchronous).
 *
 * The package as published starts its WebAssembly while it is imported (a top-level await), so
 * it is imported here, at once but not statically: no module of the engine then holds a
 * top-level await, and CommonJS can `require()` the engine. The CLI's CommonJS bundle exports the
 * start as `ready` instead, made synchronous so that it never waits behind the main thread's work
 * (scripts/bundle.mjs). Nothing here touches HarfBuzz before `harfBuzzReady` has settled.
 */
let hb: typeof HarfBuzz;
export const harfBuzzReady: Promise<void> = import('harfbuzzjs').then(async (module) => {
  await (module as { ready?: Promise<void> }).ready;
  hb = module;
});

let sharedBuffer: HarfBuzz.Buffer | undefined;

/** OpenType features from `+liga`/`-kern` strings, parsed on first use. */
export class HbFeatures {
  private parsed: HarfBuzz.Feature[] | undefined;

  constructor(private readonly list: readonly string[]) {}

  get features(): HarfBuzz.Feature[] {
    return (this.parsed ??= this.list.map((text) => {
      const feature = hb.Feature.fromString(text);
      if (!feature) throw new Error(`bad OpenType feature "${text}"`);
      return feature;
    }));
  }
}

export interface HbGlyph {
  id: number;
  /** UTF-16 offset of the glyph's cluster in the shaped text. */
  cluster: number;
  advance: number;
  dx: number;
  dy: number;
}

/** A font as HarfBuzz sees it, made from the same bytes fontkit read (face `index` of a collection). */
export function hbFont(bytes: Uint8Array, index: number): HarfBuzz.Font {
  return new hb.Font(new hb.Face(new hb.Blob(bytes), index));
}

export function shapeText(font: HarfBuzz.Font, text: string, rtl: boolean, featureSet: HbFeatures): HbGlyph[] {
  const buffer = (sharedBuffer ??= new hb.Buffer());
  buffer.clearContents();
  // Left to right, marks keep clusters of their own (HarfBuzz's level 1): a letter and an accent
  // the font has no precomposed glyph for (decomposed Greek) stay two glyphs, each standing for
  // its own character, so the letter's glyph extracts as itself wherever it is used (a PDF maps
  // each glyph to one text). Right to left, glyphs come in visual order and extractors read a
  // mark placed over its letter as a word of its own: there the letter carries its marks (level 0).
  buffer.setClusterLevel(rtl ? hb.ClusterLevel.MONOTONE_GRAPHEMES : hb.ClusterLevel.MONOTONE_CHARACTERS);
  buffer.addText(text);
  buffer.setDirection(rtl ? hb.Direction.RTL : hb.Direction.LTR);
  buffer.guessSegmentProperties();
  hb.shape(font, buffer, featureSet.features);
  const infos = buffer.getGlyphInfos();
  const positions = buffer.getGlyphPositions();
  return infos.map((info, i) => {
    const position = positions[i]!;
    return { id: info.codepoint, cluster: info.cluster, advance: position.xAdvance, dx: position.xOffset, dy: position.yOffset };
  });
}
