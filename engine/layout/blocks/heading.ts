import type { Block } from '../../document/types.js';
import { stackBoxes } from '../box-items.js';
import { METRICS } from '../../style/metrics.js';
import { box, INFINITE_COST, penalty, type BlockNodes } from '../vertical.js';
import type { BlockFrame, LayoutContext } from './context.js';
import { headingLook } from './looks.js';
import { alignment } from './paragraph.js';
import { textLines } from './text-block.js';

/**
 * A heading is one unbreakable box, kept with what follows it, carrying its destination. A page
 * may end short before a top-level heading, as before a chapter.
 */
export function layoutHeading(block: Block & { kind: 'heading' }, frame: BlockFrame, context: LayoutContext): BlockNodes {
  const look = block.align ? { ...headingLook(block.level, context.palette), align: alignment(block.align) } : headingLook(block.level, context.palette);
  const tag = context.tagger.add(`H${block.level}`, frame.tag);
  const lines = textLines(block.content, look, frame, tag, context);
  const { height, items } = stackBoxes(lines);
  items.unshift({ kind: 'dest', name: block.id, x: frame.x, y: 0 });
  const heading = box(
    height,
    items,
    frame.containers,
    lines[0]?.baseline ?? height,
    lines.flatMap((line) => line.footnotes),
  );
  return {
    nodes: block.level === 1 ? [penalty(0, true), heading, penalty(INFINITE_COST)] : [heading, penalty(INFINITE_COST)],
    spaceBefore: METRICS.bodyLeading * METRICS.headingSpaceAbove[block.level - 1]!,
    spaceAfter: METRICS.bodyLeading * METRICS.headingSpaceBelow,
  };
}
