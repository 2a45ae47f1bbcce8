import type { Align, Block } from '../../document/types.js';
import type { Alignment } from '../inline/paragraph.js';
import { METRICS } from '../../style/metrics.js';
import { linesToNodes, type BlockNodes } from '../vertical.js';
import type { BlockFrame, LayoutContext } from './context.js';
import { textLines } from './text-block.js';

export function layoutParagraphBlock(block: Block & { kind: 'paragraph' }, frame: BlockFrame, context: LayoutContext): BlockNodes {
  const tag = context.tagger.add('P', frame.tag);
  const look = block.align ? { ...context.body, align: alignment(block.align) } : context.body;
  const lines = textLines(block.content, look, frame, tag, context);
  const gap = frame.tight ? 0 : METRICS.paragraphGap;
  return { nodes: linesToNodes(lines), spaceBefore: gap, spaceAfter: gap };
}

/** HTML's left, right and center as the line breaker's start, end and center. */
export function alignment(align: NonNullable<Align>): Alignment {
  return align === 'left' ? 'start' : align === 'right' ? 'end' : 'center';
}
