import { NO_MARKS, type Block } from '../../document/types.js';
import { drawingItems } from '../drawing-items.js';
import { drawingTextSetter } from '../inline/paragraph.js';
import { METRICS } from '../../style/metrics.js';
import { box, figureNodes, type BlockNodes, type VBox } from '../vertical.js';
import { mayFloat, type BlockFrame, type LayoutContext } from './context.js';
import { smallLook } from './looks.js';
import { textLines } from './text-block.js';

/** Drawings may take most of a page, leaving room for a caption. */
export const MAX_PAGE_SHARE = 0.85;

/**
 * A formula, diagram or barcode on its own: centred, at natural size unless wider than the
 * measure or taller than the page allows, in one box that never splits.
 */
export function layoutDrawingBlock(block: Block & { kind: 'drawing' }, frame: BlockFrame, context: LayoutContext): BlockNodes {
  const drawing = block.drawing;
  const natural = drawing.unit;
  const scale = Math.min(natural, frame.width / drawing.width, (context.geometry.contentHeight * MAX_PAGE_SHARE) / drawing.height);
  const width = drawing.width * scale;
  const height = drawing.height * scale;
  const x = frame.x + (frame.width - width) / 2;
  const tag = context.tagger.add(block.role, frame.tag, { alt: block.alt });
  const items = drawingItems(drawing, { x, y: 0, scale, tag }, drawingTextSetter(context));
  if (block.appendix) items.push(...context.appendix.add(block, x, width, height, context.tagger, frame.tag));
  const boxes: VBox[] = [box(height, items, frame.containers)];
  if (block.caption) {
    const caption = textLines(
      [{ kind: 'text', text: block.caption, marks: NO_MARKS, link: null, code: null }],
      { ...smallLook(context.palette), align: 'center' },
      frame,
      context.tagger.add('Caption', frame.tag),
      context,
    );
    boxes.push(box(4, [], frame.containers), ...caption);
  }
  // A formula is part of the text around it; a diagram may float.
  const formula = block.role === 'Formula';
  const gap = METRICS.paragraphGap * (formula ? 1 : 1.5);
  return { nodes: figureNodes(boxes, !formula && mayFloat(frame)), spaceBefore: gap, spaceAfter: gap };
}
