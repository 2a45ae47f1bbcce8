import type { Hash } from 'node:crypto';
import { createHash, EMPTY_SHA256 } from '../hash.js';
import { ResourceBudgetError, ResourceError, throwIfAborted } from '../errors.js';
import type { ResourceMode } from '../options.js';
import { decodeDataUri, isDataUri } from './data-uri.js';
import type { ImageResource } from './image.js';
import { ResourceLoadError, type LoadedResource, type ResourceLoader } from './loader.js';
import type { ResourceOutcome } from './outcome.js';

export interface ResourceSettings {
  mode: ResourceMode;
  budgetBytes: number;
  signal: AbortSignal | undefined;
  /** Loaded bytes → an image to place (null: left out), throwing ResourceLoadError when unreadable. */
  decode(id: string, bytes: Uint8Array, mediaType: string | undefined): Promise<ImageResource | null>;
}

/**
 * Loads every resource of one render in document order, giving each its position id, counting
 * bytes against the budget, and applying the strict or lenient rule to failures.
 */
export class ResourceTracker {
  private count = 0;
  private bytes = 0;
  private readonly failed: string[] = [];
  /** What was loaded, hashed as it comes (none yet: null). */
  private content: Hash | null = null;

  constructor(private readonly settings: ResourceSettings) {}

  /**
   * The image at `url` from `loader`, a placeholder for a failure in lenient mode (told to
   * `warn`, for people), or null when it is left out.
   */
  async loadImage(url: string, loader: ResourceLoader, warn: (message: string) => void): Promise<ImageResource | null> {
    const id = String(++this.count);
    throwIfAborted(this.settings.signal);
    try {
      const loaded = await this.fetch(url, loader);
      this.bytes += loaded.bytes.length;
      (this.content ??= createHash('sha256')).update(`${id}:${loaded.bytes.length}\n`).update(loaded.bytes);
      if (this.bytes > this.settings.budgetBytes) throw new ResourceBudgetError(this.settings.budgetBytes);
      return await this.settings.decode(id, loaded.bytes, loaded.mediaType);
    } catch (error) {
      if (!(error instanceof ResourceLoadError)) throw error;
      if (this.settings.mode === 'strict')
        throw new ResourceError(id, error.reason, `resource ${id} could not be loaded: ${error.message}`, isDataUri(url) ? undefined : url);
      this.failed.push(id);
      warn(`image ${id} (${shownUrl(url)}) could not be loaded: ${error.reason} (${error.message}); drawn as a placeholder`);
      return { kind: 'failed', id, reason: error.reason };
    }
  }

  outcome(): ResourceOutcome {
    return { total: this.count, failed: [...this.failed], bytes: this.bytes, digest: this.content?.copy().digest('hex') ?? EMPTY_SHA256 };
  }

  private async fetch(url: string, loader: ResourceLoader): Promise<LoadedResource> {
    const remainingBytes = Math.max(0, this.settings.budgetBytes - this.bytes);
    if (isDataUri(url)) return decodeDataUri(url);
    return loader.load(url, { signal: this.settings.signal, remainingBytes });
  }
}

const SHOWN_URL_CHARS = 80;

/** A URL as a warning names it: data URIs by their kind only, long URLs cut in the middle. */
function shownUrl(url: string): string {
  if (isDataUri(url)) return 'a data: URI';
  if (url.length <= SHOWN_URL_CHARS) return url;
  const half = SHOWN_URL_CHARS / 2;
  return `${url.slice(0, half)}…${url.slice(-half + 1)}`;
}
