import type { Block } from '../../document/types.js';
import { METRICS } from '../../style/metrics.js';
import { container, type BlockNodes } from '../vertical.js';
import { indented, type BlockFrame, type LayoutBlocks, type LayoutContext } from './context.js';
import { layoutAlert } from './alert.js';

/** A block quote: its blocks indented beside a rule, in the muted colour. */
export function layoutQuote(block: Block & { kind: 'quote' }, frame: BlockFrame, context: LayoutContext, layoutBlocks: LayoutBlocks): BlockNodes {
  if (block.alert) return layoutAlert(block, block.alert, frame, context, layoutBlocks);
  const tag = context.tagger.add('BlockQuote', frame.tag);
  const rule = container({ kind: 'rule', x: frame.x, width: METRICS.quoteRuleWidth, color: context.palette.quoteRule });
  const inner = indented(frame, METRICS.quoteIndent, { containers: [...frame.containers, rule], tag, tight: false });
  const muted = { ...context, body: { ...context.body, color: context.palette.muted } };
  const laid = layoutBlocks(block.children, inner, muted);
  return { nodes: laid.nodes, spaceBefore: METRICS.paragraphGap, spaceAfter: METRICS.paragraphGap };
}
