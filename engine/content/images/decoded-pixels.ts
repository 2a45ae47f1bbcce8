import { RendererBoundError } from '../../errors.js';
import type { ImageResource } from '../../resources/image.js';

/**
 * Pixels of one document's PNG images together (GIF and WebP become PNG). PDFKit decodes a PNG
 * with transparency into buffers outside the JavaScript heap, where the worker's heap limit does
 * not reach, so the same picture embedded four hundred times must be refused here. JPEGs are
 * embedded without decoding and cost nothing.
 */
export class DecodedPixelBudget {
  private pixels = 0;

  constructor(private readonly maxPixels: number) {}

  count(image: ImageResource | null): ImageResource | null {
    if (image?.kind !== 'raster' || image.format !== 'png') return image;
    this.pixels += image.width * image.height;
    if (this.pixels > this.maxPixels) {
      throw new RendererBoundError('PreparedMemoryLimit', `the document's images have more than ${this.maxPixels} pixels together`);
    }
    return image;
  }
}
