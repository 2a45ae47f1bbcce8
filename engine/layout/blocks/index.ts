import type { Block } from '../../document/types.js';
import { throwIfAborted } from '../../errors.js';
import { box, gap, holdsOnlyDestinations, INFINITE_COST, penalty, type BlockNodes, type BoxItem, type VBox, type VNode } from '../vertical.js';
import { destination } from '../frame.js';
import type { CachedLayout } from './block-cache.js';
import type { BlockFrame, LayoutContext } from './context.js';
import { layoutCode } from './code.js';
import { layoutFigure } from './figure.js';
import { layoutHeading } from './heading.js';
import { layoutList } from './list.js';
import { layoutParagraphBlock } from './paragraph.js';
import { layoutQuote } from './quote.js';
import { layoutRule } from './rule.js';
import { layoutTable } from './table.js';
import { layoutTitle } from './title.js';
import { layoutToc } from './toc.js';
import { layoutDrawingBlock } from './drawing.js';

/** One block → its nodes and the space it wants around it. */
export function layoutBlock(block: Block, frame: BlockFrame, context: LayoutContext): BlockNodes {
  switch (block.kind) {
    case 'paragraph':
      return layoutParagraphBlock(block, frame, context);
    case 'heading':
      return layoutHeading(block, frame, context);
    case 'code':
      return layoutCode(block, frame, context);
    case 'quote':
      return layoutQuote(block, frame, context, layoutBlocks);
    case 'list':
      return layoutList(block, frame, context, layoutBlocks);
    case 'table':
      return layoutTable(block, frame, context);
    case 'rule':
      return layoutRule(frame, context);
    case 'page-break':
      // The page ends here, short and not stretched.
      return { nodes: [penalty(-INFINITE_COST, true)], spaceBefore: 0, spaceAfter: 0 };
    case 'figure':
      return layoutFigure(block, frame, context);
    case 'toc':
      return layoutToc(block, frame, context);
    case 'title':
      return layoutTitle(block, frame, context);
    case 'drawing':
      return layoutDrawingBlock(block, frame, context);
    case 'anchor':
      return { nodes: [box(0, [destination(block.name, frame.x)], frame.containers)], spaceBefore: 0, spaceAfter: 0 };
    case 'part':
      // A new page (not before the first), named for links and the outline, taking no space.
      return { nodes: [penalty(-INFINITE_COST, true), box(0, [destination(block.dest, frame.x)], frame.containers)], spaceBefore: 0, spaceAfter: 0 };
  }
}

/**
 * A sequence of blocks, separated by the larger of the space after one and the space before
 * the next (as CSS collapses margins). `cached`: the document body's blocks, reused from an
 * earlier layout (the editor's preview) where they are the same. Anchors, and blocks that hold nothing else, take no
 * space: their destinations go to the top of the next block's first box, or after the last one.
 */
export function layoutBlocks(blocks: readonly Block[], frame: BlockFrame, context: LayoutContext, cached?: CachedLayout): BlockNodes {
  const nodes: VNode[] = [];
  let spaceBefore = 0;
  let spaceAfter = 0;
  let waiting: BoxItem[] = [];
  let first = true;
  // A joined file's blocks are tagged inside a Part of their own.
  let current = frame;
  for (const block of blocks) {
    throwIfAborted(context.signal);
    if (block.kind === 'part') current = { ...frame, tag: context.tagger.add('Part', frame.tag) };
    // Cached nodes must stay as they are: a block that destinations wait for (which go into its first box) is laid out anew.
    const laid =
      cached && waiting.length === 0
        ? cached.cache.layout(block, current, context, cached.settings, (inner) => layoutBlock(block, current, inner))
        : layoutBlock(block, current, context);
    const leading = first;
    if (block.kind === 'part') {
      if (nodes.length > 0) nodes.push(laid.nodes[0]!);
      waiting.push(...(laid.nodes[1] as VBox).items);
      first = true;
      continue;
    }
    if (block.kind !== 'anchor') first = false;
    if (holdsOnlyDestinations(laid.nodes)) {
      waiting.push(...laid.nodes.flatMap((node) => (node.kind === 'box' ? node.items : [])));
      continue;
    }
    if (laid.nodes.length === 0) continue;
    const top = firstBoxOf(laid.nodes);
    if (top) {
      top.items.unshift(...waiting);
      waiting = [];
    }
    if (nodes.length === 0) spaceBefore = leading ? laid.spaceBefore : 0;
    else if (!leading) nodes.push(gap(Math.max(spaceAfter, laid.spaceBefore)));
    nodes.push(...laid.nodes);
    spaceAfter = laid.spaceAfter;
  }
  // Kept with what comes before: no page breaks between two boxes.
  if (waiting.length > 0) nodes.push(box(0, waiting, frame.containers));
  return { nodes, spaceBefore, spaceAfter };
}

/** The first box of laid-out nodes, looking inside floats and turned pages. */
function firstBoxOf(nodes: readonly VNode[]): VBox | undefined {
  for (const node of nodes) {
    if (node.kind === 'box') return node;
    const inner = node.kind === 'float' ? node.boxes[0] : node.kind === 'landscape' ? firstBoxOf(node.nodes) : undefined;
    if (inner) return inner;
  }
  return undefined;
}
