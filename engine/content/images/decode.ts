import type { RendererBounds } from '../../options.js';
import type { ImageResource } from '../../resources/image.js';
import { ResourceLoadError } from '../../resources/loader.js';
import { SvgError } from '../svg/svg-error.js';
import { jpegOrientation, swapsSides } from './jpeg-orientation.js';
import { checkRaster } from './raster-check.js';

/** An SVG document, possibly after a byte order mark, an XML declaration or comments. */
function looksLikeSvg(bytes: Uint8Array): boolean {
  const head = Buffer.from(bytes.subarray(0, 1024))
    .toString('utf8')
    .replace(/^\ufeff/, '')
    .trimStart();
  return head.startsWith('<') && /<svg[\s>]/i.test(head);
}

export interface DecodeSettings {
  bounds: RendererBounds;
  /** When off, vector images are left out (`svg: false`). */
  svg: boolean;
}

/**
 * Loaded bytes → an image to place, bounded before anything decodes it. Null when the image is
 * to be left out. PNG and JPEG are placed as they are (PDFKit applies a JPEG's EXIF
 * orientation when painting; its size here is the turned one); GIF (first frame) and WebP are
 * decoded and re-encoded as PNG, which PDF can hold; SVG is drawn as vectors where it can be.
 */
export async function decodeImage(id: string, bytes: Uint8Array, settings: DecodeSettings): Promise<ImageResource | null> {
  if (looksLikeSvg(bytes)) {
    if (!settings.svg) return null;
    try {
      // The SVG, resvg and codec modules load only when a document has such an image.
      const { svgImage } = await import('./svg-image.js');
      return await svgImage(id, Buffer.from(bytes).toString('utf8'), settings.bounds);
    } catch (error) {
      if (error instanceof SvgError) throw new ResourceLoadError('unreadable', `unreadable SVG: ${error.message}`);
      throw error;
    }
  }
  const header = await checkRaster(bytes, settings.bounds);
  const { width, height } = header;
  switch (header.format) {
    case 'png':
      return { kind: 'raster', id, format: 'png', bytes, width, height };
    case 'jpeg': {
      const turned = swapsSides(jpegOrientation(bytes));
      return { kind: 'raster', id, format: 'jpeg', bytes, width: turned ? height : width, height: turned ? width : height };
    }
    case 'gif': {
      const { gifToPng } = await import('./gif.js');
      return { kind: 'raster', id, format: 'png', bytes: await gifToPng(bytes, header), width, height };
    }
    case 'webp': {
      const { webpToPng } = await import('./webp.js');
      return { kind: 'raster', id, format: 'png', bytes: await webpToPng(bytes), width, height };
    }
  }
}
