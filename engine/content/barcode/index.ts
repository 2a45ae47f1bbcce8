import { QuireError, throwIfAborted } from '../../errors.js';
import type { ContentOptions, ContentResult } from '../result.js';
import { bwipReason } from './bwip.js';
import { readBarcode, type BarcodeFence } from './syntax.js';

export type { BarcodeFence } from './syntax.js';

/**
 * A ```qr or ```barcode block → a vector symbol a scanner reads, with the symbology and data as
 * its text alternative and an optional caption. Unreadable options or data the symbology cannot
 * encode (a wrong check digit, lower case in Code 39) answer why; the builder shows the block as
 * code with that note.
 */
export async function renderBarcode(fence: BarcodeFence, source: string, options: ContentOptions): Promise<ContentResult> {
  throwIfAborted(options.signal);
  const read = readBarcode(fence, source);
  if (!read.ok) return read;
  const { request } = read;
  try {
    const { drawSymbol } = await import('./symbol-drawing.js');
    const drawing = await drawSymbol(request);
    return { ok: true, drawing, alt: `${request.symbology.label}: ${request.data.replace(/\s+/g, ' ').trim()}`, caption: request.caption };
  } catch (error) {
    if (error instanceof QuireError) throw error;
    return { ok: false, reason: bwipReason(error) };
  }
}
