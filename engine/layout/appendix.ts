import type { Block } from '../document/types.js';
import { drawingItems } from './drawing-items.js';
import type { FrameItem } from './frame.js';
import { drawingTextSetter } from './inline/paragraph.js';
import type { StructId } from './structure.js';
import type { BlockFrame, DiagramAppendix, LayoutContext } from './blocks/context.js';
import { box, INFINITE_COST, penalty, type VNode } from './vertical.js';

type DrawingBlock = Block & { kind: 'drawing' };

/**
 * `mermaid_appendix`: every diagram is drawn again on a page of its own after the document,
 * scaled to the page, and the diagram where it was written links there.
 */
export class Appendix implements DiagramAppendix {
  private readonly entries: Array<{ block: DrawingBlock; dest: string }> = [];

  /** Records a diagram and returns the link that covers it where it was written. */
  add(block: DrawingBlock, x: number, width: number, height: number, tagger: LayoutContext['tagger'], parent: StructId | null): FrameItem[] {
    const dest = `diagram-${this.entries.length + 1}`;
    this.entries.push({ block, dest });
    const tag = tagger.add('Link', parent);
    return [
      {
        kind: 'link',
        x,
        y: 0,
        width,
        height,
        target: { kind: 'internal', dest },
        description: `The diagram on a page of its own (page for diagram ${this.entries.length})`,
        tag,
      },
    ];
  }

  /** The appendix pages: each diagram after a forced page break, as large as the page allows. */
  nodes(frame: BlockFrame, context: LayoutContext): VNode[] {
    const nodes: VNode[] = [];
    for (const { block, dest } of this.entries) {
      const drawing = block.drawing;
      const height = context.geometry.contentHeight;
      const scale = Math.min(frame.width / drawing.width, height / drawing.height);
      const x = frame.x + (frame.width - drawing.width * scale) / 2;
      const tag = context.tagger.add(block.role, frame.tag, { alt: block.alt });
      const items: FrameItem[] = [
        { kind: 'dest', name: dest, x: frame.x, y: 0 },
        ...drawingItems(drawing, { x, y: 0, scale, tag }, drawingTextSetter(context)),
      ];
      nodes.push(penalty(-INFINITE_COST), box(drawing.height * scale, items, []));
    }
    return nodes;
  }
}
