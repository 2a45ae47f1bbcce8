/**
 * Laid-out top-level blocks kept between layouts of a document being edited (the editor's
 * preview), by their content and the document's settings: an edit lays out again only the blocks
 * it changed, then the pages are cut anew from all the blocks' nodes.
 *
 * In a tagged layout a block keeps the structure nodes its layout added (numbered after the
 * tree's last, under its frame's element): reused, they are added to the new tree, renumbered
 * when they land elsewhere. Never for blocks whose layout reaches outside itself: footnote
 * references (their notes' heights), diagrams repeated in the appendix. Warnings a block gave
 * are given again on a hit.
 */
import { createHash } from '../../hash.js';
import type { Block } from '../../document/types.js';
import type { BlockNodes } from '../vertical.js';
import { RecentlyUsed } from '../../recently-used.js';
import type { StructId, StructNode, StructTree } from '../structure.js';
import type { BlockFrame, LayoutContext } from './context.js';
import { retagged, tagsOf } from './retag.js';

/**
 * The cache's budget in characters of the blocks' JSON its keys digest, least recently used
 * dropped first. Laid-out nodes weigh about 15 times their JSON (the CommonMark spec: 1.7 M
 * characters, 27 MB kept), so this keeps ~130 MB at most, room for four such documents,
 * whatever one sends.
 */
export const MOST_KEY_CHARACTERS = 8_000_000;

/** The cache with the settings of the layout under way: everything besides a block and its frame that its layout reads. */
export interface CachedLayout {
  cache: BlockCache;
  /** A digest of the settings (they include whether the document is tagged). */
  settings: string;
}

interface Entry {
  laid: BlockNodes;
  warnings: string[];
  keyCharacters: number;
  /**
   * In a tagged layout: the nodes the block added, and the element they were added under (a
   * tagged layout's settings, and so its keys, are never an untagged one's).
   */
  structure: { nodes: StructNode[]; parent: StructId | null } | null;
}

export class BlockCache {
  private readonly entries = new RecentlyUsed<string, Entry>(MOST_KEY_CHARACTERS, (entry) => entry.keyCharacters);
  /** Keys served in the layout under way: identical blocks twice in one document get nodes of their own. */
  private served = new Set<string>();
  /** Blocks of the layout under way (or last) reused from an earlier one, and laid out anew. */
  readonly counts = { reused: 0, laidOut: 0 };

  /** What the cache holds, in characters of its blocks' JSON: never past MOST_KEY_CHARACTERS. */
  get keptCharacters(): number {
    return this.entries.size;
  }

  /** Called as a layout starts. */
  startLayout(): void {
    this.served = new Set();
    this.counts.reused = 0;
    this.counts.laidOut = 0;
  }

  /**
   * The block's nodes, laid out now or before. Nodes come back as they were stored — the same
   * objects, so the identities pagination relies on (a table's header box) hold — and the caller
   * must not change them.
   */
  layout(block: Block, frame: BlockFrame, context: LayoutContext, settings: string, lay: (context: LayoutContext) => BlockNodes): BlockNodes {
    const content = cacheableContent(block);
    if (content === null) return this.layNow(context, lay);
    // A digest: the blocks' JSON is most of the document's size, too long to copy into keys and hash again.
    const key = createHash('sha256')
      .update(settings)
      .update('\u0000')
      .update(lookOf(context))
      .update(`\u0000${frame.x} ${frame.width}\u0000`)
      .update(content)
      .digest('base64');
    if (this.served.has(key)) return this.layNow(context, lay);
    this.served.add(key);
    const tree = context.tagger.tree;
    const cached = this.entries.get(key);
    if (cached) {
      for (const warning of cached.warnings) context.warn(warning);
      if (tree && cached.structure) adoptStructure(cached, tree, frame.tag);
      this.counts.reused += 1;
      return cached.laid;
    }
    const warnings: string[] = [];
    const firstNode = tree?.nodes.length ?? 0;
    const laid = this.layNow(
      {
        ...context,
        warn: (message) => {
          warnings.push(message);
          context.warn(message);
        },
      },
      lay,
    );
    const structure = tree ? ownStructure(laid, tree, firstNode, frame.tag) : null;
    if (tree === null || structure !== null) this.entries.set(key, { laid, warnings, keyCharacters: content.length, structure });
    return laid;
  }

  private layNow(context: LayoutContext, lay: (context: LayoutContext) => BlockNodes): BlockNodes {
    this.counts.laidOut += 1;
    return lay(context);
  }
}

/**
 * The structure nodes the block added (from `first`), when they hang from its frame's element
 * and its items carry only their ids or that element's: null when not, and it is not kept.
 */
function ownStructure(laid: BlockNodes, tree: StructTree, first: number, parent: StructId | null): Entry['structure'] {
  const nodes = tree.nodes.slice(first);
  const own = (id: StructId) => id >= first || id === parent;
  if (!nodes.every((node) => node.parent !== null && own(node.parent))) return null;
  for (const tag of tagsOf(laid)) if (!own(tag)) return null;
  return { nodes, parent };
}

/**
 * Adds a cached block's nodes to the tree: as they were when they land where they were laid out,
 * else renumbered, with the block's items copied to carry the new ids (kept for the next hit).
 */
function adoptStructure(entry: Entry, tree: StructTree, parent: StructId | null): void {
  const structure = entry.structure!;
  const first = structure.nodes[0]?.id ?? tree.nodes.length;
  const offset = tree.nodes.length - first;
  if (offset !== 0 || parent !== structure.parent) {
    const map = (id: StructId) => (id === structure.parent && id < first ? parent! : id + offset);
    structure.nodes = structure.nodes.map((node) => ({ ...node, id: node.id + offset, parent: map(node.parent!) }));
    structure.parent = parent;
    entry.laid = retagged(entry.laid, map);
  }
  tree.adopt(structure.nodes);
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
