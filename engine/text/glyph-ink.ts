import type { Font, Glyph } from 'fontkit';

/**
 * Where a glyph's ink lies, band by band up its height: the leftmost and rightmost outline point
 * in each horizontal band of BANDS_PER_EM. Enough to tell how close two glyphs set side by side
 * come (a band's extremes may lie at different heights within it, so the answer errs towards
 * "closer").
 */
/** Band index → [leftmost x, rightmost x], in font units from the glyph's origin. */
type InkProfile = Map<number, [number, number]>;

const BANDS_PER_EM = 50;
/** Straight pieces a curve is cut into: plenty at a fiftieth of an em. */
const CURVE_STEPS = 8;

const profiles = new WeakMap<Font, Map<number, InkProfile>>();

/**
 * The least horizontal distance, in font units, between the ink of glyph `left` and that of
 * glyph `right` drawn `offset` units to the right of it, over the heights where both have ink;
 * Infinity when their ink shares no height.
 */
export function inkGap(font: Font, left: number, right: number, offset: number): number {
  const a = profileOf(font, left);
  const b = profileOf(font, right);
  let gap = Number.POSITIVE_INFINITY;
  for (const [band, [, rightmost]] of a) {
    const other = b.get(band);
    if (other) gap = Math.min(gap, offset + other[0] - rightmost);
  }
  return gap;
}

function profileOf(font: Font, id: number): InkProfile {
  let byGlyph = profiles.get(font);
  if (!byGlyph) profiles.set(font, (byGlyph = new Map()));
  let profile = byGlyph.get(id);
  if (!profile) byGlyph.set(id, (profile = trace(font.getGlyph(id), font.unitsPerEm / BANDS_PER_EM)));
  return profile;
}

function trace(glyph: Glyph, bandHeight: number): InkProfile {
  const bands = new Map<number, [number, number]>();
  const mark = (band: number, x: number) => {
    const extent = bands.get(band);
    if (!extent) bands.set(band, [x, x]);
    else if (x < extent[0]) extent[0] = x;
    else if (x > extent[1]) extent[1] = x;
  };
  const segment = (x0: number, y0: number, x1: number, y1: number) => {
    const low = Math.min(y0, y1);
    const high = Math.max(y0, y1);
    const xAt = (y: number) => (y1 === y0 ? x0 : x0 + ((x1 - x0) * (y - y0)) / (y1 - y0));
    for (let band = Math.floor(low / bandHeight); band <= Math.floor(high / bandHeight); band++) {
      mark(band, xAt(Math.max(low, band * bandHeight)));
      mark(band, xAt(Math.min(high, (band + 1) * bandHeight)));
      if (y1 === y0) mark(band, x1);
    }
  };
  let [startX, startY, x, y] = [0, 0, 0, 0];
  const lineTo = (nextX: number, nextY: number) => {
    segment(x, y, nextX, nextY);
    [x, y] = [nextX, nextY];
  };
  for (const { command, args } of glyph.path.commands) {
    if (command === 'moveTo') [startX, startY, x, y] = [args[0]!, args[1]!, args[0]!, args[1]!];
    else if (command === 'lineTo') lineTo(args[0]!, args[1]!);
    else if (command === 'closePath') lineTo(startX, startY);
    else {
      const [x0, y0] = [x, y];
      const points = command === 'quadraticCurveTo' ? quadraticAsCubic(x0, y0, args) : [x0, y0, ...args];
      for (let step = 1; step <= CURVE_STEPS; step++) lineTo(...cubicAt(points, step / CURVE_STEPS));
    }
  }
  return bands;
}

/** The cubic Bézier that draws the same curve as a quadratic from (x0, y0) through control [cx, cy] to [x, y]. */
function quadraticAsCubic(x0: number, y0: number, [cx, cy, x, y]: number[]): number[] {
  const third = (from: number, to: number) => from + ((to - from) * 2) / 3;
  return [x0, y0, third(x0, cx!), third(y0, cy!), third(x!, cx!), third(y!, cy!), x!, y!];
}

/** A point on a cubic Bézier [x0 y0 x1 y1 x2 y2 x3 y3]. */
function cubicAt(p: number[], t: number): [number, number] {
  const u = 1 - t;
  const [a, b, c, d] = [u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t];
  return [a * p[0]! + b * p[2]! + c * p[4]! + d * p[6]!, a * p[1]! + b * p[3]! + c * p[5]! + d * p[7]!];
}
