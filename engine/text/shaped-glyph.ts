/** A glyph as HarfBuzz shaped it, in font units: what a face hands layout and what case-join kerning adjusts. */
export interface ShapedGlyph {
  id: number;
  advance: number;
  dx: number;
  dy: number;
  /** The characters this glyph represents; empty for the second and later glyphs of a cluster. */
  chars: string;
}
