import type { Block } from '../document/types.js';
import type { Columns } from '../style/columns.js';
import { PageLimitError } from '../errors.js';
import { shiftBoxItem } from './box-items.js';
import type { CachedLayout } from './blocks/block-cache.js';
import { layoutBlocks } from './blocks/index.js';
import type { BlockFrame, LayoutContext } from './blocks/context.js';
import type { CutPage } from './column-regions.js';
import { paginate, type PaginateSettings } from './paginate.js';
import { INFINITE_COST, type BoxItem, type VNode } from './vertical.js';

/** Most of the first page a title block and contents may take above two columns; longer, they get pages of their own. */
const SPAN_SHARE = 0.6;

/**
 * The document's blocks laid out and cut into pages: in one column, or in two, where a leading
 * title block and contents span both columns at the top of the first page (or, when they need a
 * page of their own, fill full-width pages before the columns start).
 */
export function cutPages(
  blocks: readonly Block[],
  frame: BlockFrame,
  context: LayoutContext,
  base: Omit<PaginateSettings, 'columns'>,
  columns: Columns,
  cached?: CachedLayout,
): CutPage[] {
  if (columns.count === 1) {
    const body = layoutBlocks(blocks, frame, context, cached);
    return paginate([...body.nodes, ...context.appendix.nodes(frame, context)], { ...base, columns: null });
  }
  const column = columnFrame(frame, columns);
  const step = column.width + columns.gap;
  const spanning = leadingSpan(blocks);
  const span = layoutBlocks(blocks.slice(0, spanning), frame, context, cached);
  const body = layoutBlocks(blocks.slice(spanning), column, context, cached);
  const bodyNodes = [...body.nodes, ...context.appendix.nodes(column, context)];
  if (span.nodes.length === 0) return paginate(bodyNodes, { ...base, columns: { step, firstPageTop: 0 } });
  const height = sharedHeight(span.nodes);
  if (height !== null && height + span.spaceAfter <= base.geometry.contentHeight * SPAN_SHARE) {
    const pages = paginate(bodyNodes, { ...base, columns: { step, firstPageTop: height + span.spaceAfter } });
    const first = pages[0]!;
    pages[0] = { ...first, items: [...stacked(span.nodes, base.geometry.marginTop), ...first.items] };
    return pages;
  }
  const pages = paginate(span.nodes, { ...base, columns: null });
  if (bodyNodes.length > 0) pages.push(...paginate(bodyNodes, { ...base, columns: { step, firstPageTop: 0 } }));
  if (base.maxPages !== undefined && pages.length > base.maxPages) throw new PageLimitError(base.maxPages, pages.length);
  return pages;
}

/** The frame of the first column; the second is the same moved right by its width and the gap. */
export function columnFrame(frame: BlockFrame, columns: Columns): BlockFrame {
  return columns.count === 1 ? frame : { ...frame, width: (frame.width - columns.gap) / 2 };
}

/** How many leading blocks span both columns: the title block and contents, with the anchors among them. */
function leadingSpan(blocks: readonly Block[]): number {
  let count = 0;
  let spans = false;
  for (const block of blocks) {
    if (block.kind === 'title' || block.kind === 'toc') spans = true;
    else if (block.kind !== 'anchor' && !(block.kind === 'part' && count === 0)) break;
    count++;
  }
  return spans ? count : 0;
}

/**
 * The height of nodes that can share the first page with the columns: boxes and space only, no
 * forced break (a title page), no footnote, nothing that floats or turns the page; null otherwise.
 */
function sharedHeight(nodes: readonly VNode[]): number | null {
  let height = 0;
  for (const node of nodes) {
    if (node.kind === 'box') {
      if (node.footnotes.length > 0) return null;
      height += node.height;
    } else if (node.kind === 'glue') height += node.height;
    else if (node.kind === 'penalty') {
      if (node.cost <= -INFINITE_COST) return null;
    } else return null;
  }
  return height;
}

/** The nodes' items one under another from `top`. */
function stacked(nodes: readonly VNode[], top: number): BoxItem[] {
  const items: BoxItem[] = [];
  let y = top;
  for (const node of nodes) {
    if (node.kind === 'box') {
      for (const item of node.items) items.push(shiftBoxItem(item, y));
      y += node.height;
    } else if (node.kind === 'glue') y += node.height;
  }
  return items;
}
