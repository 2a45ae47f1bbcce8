/** What a RenderCache keeps, beside it: the engine reaches it here, its users never do. */
import { CodeBlockCache } from './document/code-block-cache.js';
import { BlockCache } from './layout/blocks/block-cache.js';
import { SplitImageCache } from './paint/png-image.js';
import { StreamCache } from './paint/stream-cache.js';
import type { RenderCache } from './render-cache.js';

export interface CacheParts {
  readonly blocks: BlockCache;
  readonly codeBlocks: CodeBlockCache;
  readonly streams: StreamCache;
  readonly splitImages: SplitImageCache;
}

const kept = new WeakMap<RenderCache, CacheParts>();

/** The parts of `cache`, made on its first render. */
export function cacheParts(cache: RenderCache): CacheParts {
  let parts = kept.get(cache);
  if (!parts) {
    parts = { blocks: new BlockCache(), codeBlocks: new CodeBlockCache(), streams: new StreamCache(), splitImages: new SplitImageCache() };
    kept.set(cache, parts);
  }
  return parts;
}
