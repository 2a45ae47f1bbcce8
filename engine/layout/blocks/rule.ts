import { METRICS } from '../../style/metrics.js';
import { box, type BlockNodes } from '../vertical.js';
import type { BlockFrame, LayoutContext } from './context.js';

/** A thematic break: a thin centred line, page furniture rather than content. */
export function layoutRule(frame: BlockFrame, context: LayoutContext): BlockNodes {
  const height = METRICS.bodyLeading;
  const y = height / 2;
  const line = { kind: 'line' as const, x1: frame.x, y1: y, x2: frame.x + frame.width, y2: y, width: METRICS.ruleWidth, color: context.palette.rule };
  return { nodes: [box(height, [line], frame.containers)], spaceBefore: METRICS.paragraphGap, spaceAfter: METRICS.paragraphGap };
}
