import { NO_MARKS, type Block } from '../../document/types.js';
import { METRICS } from '../theme.js';
import { glue, INFINITE_COST, penalty, type BlockNodes, type VNode } from '../vertical.js';
import type { BlockFrame, LayoutContext } from './context.js';
import { headingLook } from './looks.js';
import { textLines } from './text-block.js';

const LEVEL_INDENT = 14;
const NUMBER_SLOT = 28;
export const TOC_TITLE = 'Contents';

/** The table of contents: linked entries, page numbers filled in once pages are known. */
export function layoutToc(block: Block & { kind: 'toc' }, frame: BlockFrame, context: LayoutContext): BlockNodes {
  const tocTag = context.tagger.add('TOC', frame.tag);
  const look = headingLook(2, context.palette);
  const title = textLines([{ kind: 'text', text: TOC_TITLE, marks: NO_MARKS, link: null, code: null }], look, frame, context.tagger.add('H2', frame.tag), context);
  const nodes: VNode[] = [...title, penalty(INFINITE_COST), glue(METRICS.bodyLeading * 0.4)];
  const body = context.body;
  block.entries.forEach((entry, index) => {
    const itemTag = context.tagger.add('TOCI', tocTag);
    const indent = (entry.level - 1) * LEVEL_INDENT;
    const link = { target: { kind: 'internal' as const, dest: entry.dest }, description: entry.text };
    const entryLook = { ...body, align: 'start' as const, hyphenate: false, font: { ...body.font, weight: entry.level === 1 ? 'semibold' as const : 'regular' as const } };
    const entryFrame = { ...frame, x: frame.x + indent, width: frame.width - indent - NUMBER_SLOT };
    const lines = textLines([{ kind: 'text', text: entry.text, marks: NO_MARKS, link, code: null }], entryLook, entryFrame, itemTag, context);
    const last = lines.at(-1);
    if (!last) return;
    const face = context.fonts.primary(entryLook.font);
    last.items.push({ kind: 'page-ref', dest: entry.dest, right: frame.x + frame.width, y: last.baseline, face: face.key, size: body.size, color: body.color, tag: itemTag });
    if (index > 0) nodes.push(glue(entry.level === 1 ? 4 : 1));
    nodes.push(...lines);
  });
  return { nodes, spaceBefore: METRICS.paragraphGap, spaceAfter: METRICS.bodyLeading * 1.5 };
}
