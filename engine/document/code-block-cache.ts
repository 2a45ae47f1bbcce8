import { drawingWeight } from '../drawing/drawing.js';
import type { Features } from '../options.js';
import type { Theme } from '../style/theme.js';
import { RecentlyUsed } from '../recently-used.js';
import type { Block } from './types.js';

/** What the kept blocks may hold together, in characters of text and path data. */
const MAX_WEIGHT = 32_000_000;

/**
 * Fenced blocks as an earlier render of the document made them — diagrams drawn, code
 * highlighted — by their text, language and the settings that shape them, so that an edit
 * elsewhere does not draw a document's diagrams again (a Mermaid diagram takes 10–50 ms each
 * time). Only blocks made whole are kept: a block whose drawing failed is tried again at the next
 * render. The blocks are shared between renders and never changed after they are made.
 */
export class CodeBlockCache {
  private readonly blocks = new RecentlyUsed<string, Block>(MAX_WEIGHT, blockWeight);
  /** Blocks taken from the cache and blocks made, since it was created. */
  readonly counts = { reused: 0, made: 0 };

  /** The block kept under `key`, else the one `make` makes (kept when it was made whole). */
  async block(key: string, make: () => Promise<Block>): Promise<Block> {
    const kept = this.blocks.get(key);
    if (kept) {
      this.counts.reused++;
      return kept;
    }
    const block = await make();
    this.counts.made++;
    if (block.kind !== 'code' || block.note === null) this.blocks.set(key, block);
    return block;
  }
}

/** The key of a fenced block: everything `codeBlock` reads. */
export function codeBlockKey(text: string, language: string | null, features: Features, theme: Theme): string {
  const switches = [features.mermaid, features.mermaid_appendix, features.math, features.barcode, features.highlight, features.emoji].map(Number).join('');
  return `${switches} ${theme} ${language ?? ''}\n${text}`;
}

function blockWeight(block: Block): number {
  if (block.kind === 'drawing') return drawingWeight(block.drawing) + block.alt.length;
  if (block.kind !== 'code') return 0;
  let weight = block.text.length;
  for (const line of block.lines ?? []) weight += 64 * line.length;
  return weight;
}
