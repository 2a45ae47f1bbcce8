import type { RendererBounds } from '../../options.js';

/** Rasters of vector content are made at twice CSS resolution (192 dpi): sharp in print. */
const PIXELS_PER_POINT = 2 / 0.75;
/** resvg has no memory limits of its own: its canvas is never wider or taller than this. */
const MAX_RASTER_SIDE = 2_048;

/**
 * Pixel size of a raster for something `width` × `height` points large, with at most
 * `maxPixels` pixels, within the bounds.
 */
export function rasterSize(width: number, height: number, maxPixels: number, bounds: RendererBounds): { width: number; height: number } {
  const pixelsWide = Math.max(width * PIXELS_PER_POINT, 1);
  const pixelsHigh = Math.max(height * PIXELS_PER_POINT, 1);
  const side = Math.min(MAX_RASTER_SIDE, bounds.maxImageSide);
  const area = Math.min(maxPixels, bounds.maxImagePixels);
  const shrink = Math.min(1, side / pixelsWide, side / pixelsHigh, Math.sqrt(area / (pixelsWide * pixelsHigh)));
  return { width: Math.max(1, Math.round(pixelsWide * shrink)), height: Math.max(1, Math.round(pixelsHigh * shrink)) };
}
