/**
 * Laid-out top-level blocks kept between layouts of a document being edited (the editor's
 * preview), by their content and the document's settings: an edit lays out again only the blocks
 * it changed, then the pages are cut anew from all the blocks' nodes.
 *
 * Only for untagged layouts (a cached block would carry the structure ids of an earlier tree),
 * and never for blocks whose layout reaches outside itself: footnote references (their notes'
 * heights), diagrams repeated in the appendix. Warnings a block gave are given again on a hit.
 */
import { createHash } from 'node:crypto';
import type { Block } from '../../document/types.js';
import type { BlockNodes } from '../vertical.js';
import { RecentlyUsed } from '../../recently-used.js';
import type { BlockFrame, LayoutContext } from './context.js';

/**
 * The cache's budget in characters of its keys (the blocks as JSON), least recently used dropped
 * first. Laid-out nodes weigh about 15 times their key (the CommonMark spec: 1.7 M characters,
 * 27 MB kept), so this keeps ~130 MB at most, room for four such documents, whatever one sends.
 */
export const MOST_KEY_CHARACTERS = 8_000_000;

/** The cache with the settings of the layout under way: everything besides a block and its frame that its layout reads. */
export interface CachedLayout {
  cache: BlockCache;
  settings: string;
}

interface Entry {
  laid: BlockNodes;
  warnings: string[];
  keyCharacters: number;
}

export class BlockCache {
  private readonly entries = new RecentlyUsed<string, Entry>(MOST_KEY_CHARACTERS, (entry) => entry.keyCharacters);
  /** Keys served in the layout under way: identical blocks twice in one document get nodes of their own. */
  private served = new Set<string>();

  /** What the cache holds, in characters of its keys: never past MOST_KEY_CHARACTERS. */
  get keptCharacters(): number {
    return this.entries.size;
  }

  /** Called as a layout starts. */
  startLayout(): void {
    this.served = new Set();
  }

  /**
   * The block's nodes, laid out now or before. Nodes come back as they were stored — the same
   * objects, so the identities pagination relies on (a table's header box) hold — and the caller
   * must not change them.
   */
  layout(block: Block, frame: BlockFrame, context: LayoutContext, settings: string, lay: (context: LayoutContext) => BlockNodes): BlockNodes {
    const content = cacheableContent(block);
    if (content === null) return lay(context);
    const key = `${settings}\u0000${lookOf(context)}\u0000${frame.x} ${frame.width}\u0000${content}`;
    if (this.served.has(key)) return lay(context);
    this.served.add(key);
    const cached = this.entries.get(key);
    if (cached) {
      for (const warning of cached.warnings) context.warn(warning);
      return cached.laid;
    }
    const warnings: string[] = [];
    const laid = lay({
      ...context,
      warn: (message) => {
        warnings.push(message);
        context.warn(message);
      },
    });
    this.entries.set(key, { laid, warnings, keyCharacters: key.length });
    return laid;
  }
}

/** The block as a key, or null when its layout depends on more than itself. */
function cacheableContent(block: Block): string | null {
  let cacheable = true;
  const text = JSON.stringify(block, (key, value: unknown) => {
    if (value instanceof Uint8Array) return `bytes ${digestOf(value)}`;
    if (key === 'kind' && (value === 'footnote-ref' || value === 'toc')) cacheable = false;
    if (key === 'appendix' && value === true) cacheable = false;
    return value;
  });
  return cacheable ? text : null;
}

/** The running text's look (footnotes and body differ), as part of the key. */
const looks = new WeakMap<object, string>();

function lookOf(context: LayoutContext): string {
  let look = looks.get(context.body);
  if (look === undefined) {
    look = JSON.stringify(context.body);
    looks.set(context.body, look);
  }
  return look;
}

const digests = new WeakMap<Uint8Array, string>();

function digestOf(bytes: Uint8Array): string {
  let digest = digests.get(bytes);
  if (digest === undefined) {
    digest = createHash('sha256').update(bytes).digest('hex');
    digests.set(bytes, digest);
  }
  return digest;
}
