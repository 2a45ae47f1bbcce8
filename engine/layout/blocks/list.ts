import type { Block, ListItem } from '../../document/types.js';
import type { FrameItem } from '../frame.js';
import type { StructId } from '../structure.js';
import { METRICS } from '../../style/metrics.js';
import { box, firstBox, glue, holdsOnlyDestinations, type BlockNodes, type VNode } from '../vertical.js';
import { indented, type BlockFrame, type LayoutBlocks, type LayoutContext } from './context.js';
import { labelItems } from './label.js';

/** Bullets change shape with depth, as on GitHub: disc, circle, square. */
const BULLETS = ['disc', 'circle', 'square'] as const;
const TIGHT_ITEM_GAP = 2;

/** A list: hanging labels aligned on their right edge, items' blocks indented beside them. */
export function layoutList(block: Block & { kind: 'list' }, frame: BlockFrame, context: LayoutContext, layoutBlocks: LayoutBlocks): BlockNodes {
  const tag = context.tagger.add('L', frame.tag);
  const labelWidth = block.ordered ? labelWidthFor(block.start + block.items.length - 1, context) : 0;
  const indent = Math.max(METRICS.listIndent, labelWidth + METRICS.listLabelGap);
  const nodes: VNode[] = [];
  block.items.forEach((item, index) => {
    const itemTag = context.tagger.add('LI', tag);
    const label: Label = block.ordered ? `${block.start + index}.` : BULLETS[frame.listDepth % BULLETS.length]!;
    const itemFrame = { ...frame, tag: itemTag, tight: block.tight, listDepth: frame.listDepth + 1 };
    const itemNodes = layoutItem(item, label, indent, itemFrame, itemTag, context, layoutBlocks);
    if (index > 0) nodes.push(glue(block.tight ? TIGHT_ITEM_GAP : METRICS.paragraphGap));
    nodes.push(...itemNodes);
  });
  const gap = frame.tight ? TIGHT_ITEM_GAP : METRICS.paragraphGap;
  return { nodes, spaceBefore: gap, spaceAfter: gap };
}

type Label = string | (typeof BULLETS)[number];

function layoutItem(
  item: ListItem,
  label: Label,
  indent: number,
  frame: BlockFrame,
  itemTag: StructId | null,
  context: LayoutContext,
  layoutBlocks: LayoutBlocks,
): VNode[] {
  const drawn = item.checked !== null || isBullet(label);
  const labelTag = context.tagger.add('Lbl', itemTag, drawn ? { actualText: labelText(item.checked) } : {});
  const bodyTag = context.tagger.add('LBody', itemTag);
  const body = layoutBlocks(item.children, indented(frame, indent, { tag: bodyTag }), context);
  // An empty item, or one of nothing but anchors, still takes a line for its label.
  const empty = body.nodes.length === 0 || holdsOnlyDestinations(body.nodes);
  const held = empty ? body.nodes.flatMap((node) => (node.kind === 'box' ? node.items : [])) : [];
  const nodes = empty ? [box(context.body.leading, held, frame.containers, context.body.leading * 0.75)] : body.nodes;
  const first = firstBox(nodes)!;
  const right = frame.x + indent - METRICS.listLabelGap;
  let items: FrameItem[];
  if (item.checked !== null) items = checkbox(item.checked, right, first.baseline, labelTag, context);
  else if (isBullet(label)) items = [bullet(label, right, first.baseline, labelTag, context)];
  else items = labelItems(label, context.body, right, first.baseline, labelTag, context);
  first.items.unshift(...items);
  return nodes;
}

/** What a screen reader hears for a drawn label: a bullet, or a checked or empty ballot box. */
function labelText(checked: boolean | null): string {
  if (checked !== null) return checked ? '\u2611' : '\u2610';
  return '\u2022';
}

function isBullet(label: Label): label is (typeof BULLETS)[number] {
  return (BULLETS as readonly string[]).includes(label);
}

/** A bullet drawn as a shape centred on the x-height, read as a bullet character. */
function bullet(shape: (typeof BULLETS)[number], right: number, baseline: number, tag: StructId | null, context: LayoutContext): FrameItem {
  const size = context.body.size * (shape === 'square' ? 0.3 : 0.34);
  const face = context.fonts.primary(context.body.font);
  const middle = baseline - (face.xHeight * face.scale(context.body.size)) / 2;
  const color = context.body.color;
  return {
    kind: 'rect',
    x: right - size - 1,
    y: middle - size / 2,
    width: size,
    height: size,
    fill: shape === 'circle' ? null : color,
    stroke: shape === 'circle' ? color : null,
    lineWidth: 0.7,
    radius: shape === 'square' ? 0 : size / 2,
    tag,
    actualText: null,
  };
}

/** A task item's box: drawn, and read as a ballot box character. */
function checkbox(checked: boolean, right: number, baseline: number, tag: StructId | null, context: LayoutContext): FrameItem[] {
  const size = context.body.size * 0.78;
  const x = right - size;
  const y = baseline - size * 0.92;
  const items: FrameItem[] = [
    {
      kind: 'rect',
      x,
      y,
      width: size,
      height: size,
      fill: checked ? context.palette.link : null,
      stroke: checked ? context.palette.link : context.palette.muted,
      lineWidth: 0.8,
      radius: 1.5,
      tag,
      actualText: null,
    },
  ];
  if (checked) {
    const white: readonly [number, number, number] = context.palette.page ?? [255, 255, 255];
    items.push(
      { kind: 'line', x1: x + size * 0.22, y1: y + size * 0.52, x2: x + size * 0.42, y2: y + size * 0.72, width: size * 0.14, color: white },
      { kind: 'line', x1: x + size * 0.42, y1: y + size * 0.72, x2: x + size * 0.78, y2: y + size * 0.28, width: size * 0.14, color: white },
    );
  }
  return items;
}

function labelWidthFor(largest: number, context: LayoutContext): number {
  const face = context.fonts.primary(context.body.font);
  const text = `${largest}.`;
  return face.shape(text).advance * face.scale(context.body.size);
}
