import { constants, createInflate } from 'node:zlib';
import type { RendererBounds } from '../../options.js';
import { checkImageBounds } from '../../resources/image.js';
import { ResourceLoadError } from '../../resources/loader.js';
import { readImageHeader, type ImageHeader } from './header.js';
import { declaredPixelDataBytes, readPngChunks } from './png-chunks.js';

/**
 * A raster image's header, checked before anything decodes the image — the one check every
 * raster passes, in a document or inside an SVG: a known format, a size within the bounds
 * (RendererBoundError past them), some pixels, and for PNG whole chunks and pixel data that
 * inflates to no more than its header declares. The declared size is each decoder's output
 * budget: GIF and WebP decoders allocate for the declared canvas, and PDFKit inflates a PNG with
 * no limit of its own (a 1 MB PNG declaring 64×64 pixels can inflate to a gigabyte).
 */
export async function checkRaster(bytes: Uint8Array, bounds: RendererBounds): Promise<ImageHeader> {
  const header = readImageHeader(bytes);
  if (!header) throw new ResourceLoadError('unreadable', 'not a PNG, JPEG, GIF, WebP or SVG image');
  checkImageBounds(header, bounds);
  if (header.width === 0 || header.height === 0) throw new ResourceLoadError('unreadable', 'an image of no pixels');
  if (header.format === 'png') await checkPngPixelData(bytes);
  return header;
}

async function checkPngPixelData(bytes: Uint8Array): Promise<void> {
  const layout = readPngChunks(bytes);
  if (!layout) throw new ResourceLoadError('unreadable', 'a PNG cut short or with broken chunks');
  const declared = declaredPixelDataBytes(layout);
  if (declared === null) throw new ResourceLoadError('unreadable', 'a PNG of an unknown colour type');
  const inflated = await inflatedBytes(layout.imageData, declared);
  if (inflated === null) throw new ResourceLoadError('unreadable', 'a PNG whose pixel data is not a zlib stream');
  if (inflated > declared) throw new ResourceLoadError('unreadable', 'a PNG whose pixel data inflates past the size its header declares');
}

/**
 * How many bytes the zlib stream inflates to, counted as it streams and given up just past
 * `limit`, so nothing the size of the output is ever held; null when it is not zlib. A stream
 * cut short counts what it gave (PDFKit draws such pixel data as far as it goes).
 */
function inflatedBytes(parts: readonly Uint8Array[], limit: number): Promise<number | null> {
  return new Promise((resolve) => {
    const inflate = createInflate({ finishFlush: constants.Z_SYNC_FLUSH });
    let total = 0;
    inflate.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (total > limit) {
        inflate.destroy();
        resolve(total);
      }
    });
    inflate.on('end', () => resolve(total));
    inflate.on('error', () => resolve(null));
    for (const part of parts) inflate.write(part);
    inflate.end();
  });
}
