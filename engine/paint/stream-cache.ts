/**
 * Compressed streams of earlier renders, by their uncompressed bytes: a document rendered again
 * after an edit compresses only the pages (and font subsets) the edit changed — compression was
 * a third of a warm re-render. Bounded by what the compressed streams weigh.
 */
import { createHash } from '../hash.js';
import { deflateSync } from 'node:zlib';
import { RecentlyUsed } from '../recently-used.js';
import type { DocumentInternals, StreamInternals } from './pdfkit-internals.js';

/** About 25 documents the size of the CommonMark spec (144 pages, 1.3 MB of compressed streams). */
export const MOST_STREAM_BYTES = 32 * 1024 * 1024;

export class StreamCache {
  private readonly streams = new RecentlyUsed<string, Buffer>(MOST_STREAM_BYTES, (stream) => stream.byteLength);

  /** What the cache holds, in compressed bytes: never past MOST_STREAM_BYTES. */
  get keptBytes(): number {
    return this.streams.size;
  }

  deflate(raw: Uint8Array): Buffer {
    const key = `${raw.byteLength} ${createHash('sha256').update(raw).digest('base64')}`;
    let stream = this.streams.get(key);
    if (stream === undefined) {
      stream = deflateSync(raw);
      this.streams.set(key, stream);
    }
    return stream;
  }
}

/** Makes every stream the document writes compress through `cache` (PDFKit compresses each as its object ends). */
export function compressThrough(pdf: DocumentInternals, cache: StreamCache): void {
  const ref = pdf.ref.bind(pdf);
  pdf.ref = (data) => {
    const object = ref(data) as StreamInternals;
    const finalize = object.finalize.bind(object);
    object.finalize = () => {
      if (object.compress && object.buffer.length > 0) {
        // PDFKit set the filter as the bytes were written; it now writes them as they are.
        object.buffer = [cache.deflate(Buffer.concat(object.buffer))];
        object.compress = false;
      }
      finalize();
    };
    return object;
  };
}
