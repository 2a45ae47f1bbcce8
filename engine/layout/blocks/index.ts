import type { Block } from '../../document/types.js';
import { throwIfAborted } from '../../errors.js';
import { gap, type BlockNodes, type VNode } from '../vertical.js';
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
      return layoutQuote(block, frame, context);
    case 'list':
      return layoutList(block, frame, context);
    case 'table':
      return layoutTable(block, frame, context);
    case 'rule':
      return layoutRule(frame, context);
    case 'figure':
      return layoutFigure(block, frame, context);
    case 'toc':
      return layoutToc(block, frame, context);
    case 'title':
      return layoutTitle(block, frame, context);
    case 'drawing':
      return layoutDrawingBlock(block, frame, context);
  }
}

/**
 * A sequence of blocks, separated by the larger of the space after one and the space before
 * the next (as CSS collapses margins).
 */
export function layoutBlocks(blocks: readonly Block[], frame: BlockFrame, context: LayoutContext): BlockNodes {
  const nodes: VNode[] = [];
  let spaceBefore = 0;
  let spaceAfter = 0;
  blocks.forEach((block, index) => {
    throwIfAborted(context.signal);
    const laid = layoutBlock(block, frame, context);
    if (laid.nodes.length === 0) return;
    if (nodes.length === 0) spaceBefore = index === 0 ? laid.spaceBefore : 0;
    else nodes.push(gap(Math.max(spaceAfter, laid.spaceBefore)));
    nodes.push(...laid.nodes);
    spaceAfter = laid.spaceAfter;
  });
  return { nodes, spaceBefore, spaceAfter };
}
