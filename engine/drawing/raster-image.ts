export type RasterFormat = 'png' | 'jpeg';

/**
 * A PNG or JPEG ready to place, its pixels' size known and its bytes untouched: an image resource,
 * or an image inside a drawing (an SVG's `<image>`).
 */
export interface RasterImage {
  kind: 'raster';
  id: string;
  format: RasterFormat;
  bytes: Uint8Array;
  width: number;
  height: number;
}
