import { NO_MARKS, type Block } from '../../document/types.js';
import type { GlyphRunItem } from '../frame.js';
import { METRICS } from '../theme.js';
import { glue, INFINITE_COST, penalty, type BlockNodes, type VNode } from '../vertical.js';
import type { BlockFrame, LayoutContext } from './context.js';
import { headingLook } from './looks.js';
import { textLines } from './text-block.js';

const LEVEL_INDENT = 14;
const NUMBER_SLOT = 28;
/** Between leader dots (TeX's \@dotsep is 4.5 mu, about this at text size). */
const LEADER_STEP = 4.5;
/** Clear space between an entry's text and its first dot, and its last dot and the number. */
const LEADER_CLEAR = 3;
export const TOC_TITLE = 'Contents';

/**
 * The table of contents: linked entries, each with dot leaders to its page number at the right,
 * numbers filled in once pages are known.
 */
export function layoutToc(block: Block & { kind: 'toc' }, frame: BlockFrame, context: LayoutContext): BlockNodes {
  const tocTag = context.tagger.add('TOC', frame.tag);
  const look = headingLook(2, context.palette);
  const title = textLines([{ kind: 'text', text: TOC_TITLE, marks: NO_MARKS, link: null, code: null }], look, frame, context.tagger.add('H2', frame.tag), context);
  const nodes: VNode[] = [...title, penalty(INFINITE_COST), glue(METRICS.bodyLeading * 0.4)];
  const body = context.body;
  block.entries.forEach((entry, index) => {
    const itemTag = context.tagger.add('TOCI', tocTag);
    const indent = (entry.level - 1) * LEVEL_INDENT;
    const entryLook = { ...body, align: 'start' as const, hyphenate: false, font: { ...body.font, weight: entry.level === 1 ? 'semibold' as const : 'regular' as const } };
    const entryFrame = { ...frame, x: frame.x + indent, width: frame.width - indent - NUMBER_SLOT };
    const lines = textLines(entry.content, entryLook, entryFrame, itemTag, context);
    const last = lines.at(-1);
    if (!last) return;
    const face = context.fonts.primary(entryLook.font);
    const right = frame.x + frame.width;
    last.items.push(leaders(textRight(last.items), right - NUMBER_SLOT, last.baseline, context));
    last.items.push({ kind: 'page-ref', dest: entry.dest, right, y: last.baseline, face: face.key, size: body.size, color: body.color, tag: itemTag });
    if (index > 0) nodes.push(glue(entry.level === 1 ? 4 : 1));
    nodes.push(...lines);
  });
  return { nodes, spaceBefore: METRICS.paragraphGap, spaceAfter: METRICS.bodyLeading * 1.5 };
}

/** Where a line's text ends: the right edge of its furthest glyph run. */
function textRight(items: readonly { kind: string }[]): number {
  let right = 0;
  for (const item of items) {
    if (item.kind !== 'glyphs') continue;
    const run = item as GlyphRunItem;
    right = Math.max(right, run.x + run.glyphs.reduce((sum, glyph) => sum + glyph.advance, 0));
  }
  return right;
}

/**
 * Dots from after the text to before the number, on a grid fixed to the page so that the dots of
 * every entry stand in the same columns. Page furniture: no tag, and nothing to extract.
 */
function leaders(from: number, to: number, baseline: number, context: LayoutContext): GlyphRunItem {
  const look = context.body;
  const face = context.fonts.primary(look.font);
  const dot = face.shape('.', 'ltr', 'text').glyphs[0]!;
  const first = Math.ceil((from + LEADER_CLEAR) / LEADER_STEP) * LEADER_STEP;
  const count = Math.max(0, Math.floor((to - LEADER_CLEAR - first) / LEADER_STEP) + 1);
  // The dot keeps its character: a font maps each glyph to one text, for every use of it.
  const glyphs = Array.from({ length: count }, () => ({ id: dot.id, advance: LEADER_STEP, dx: 0, dy: 0, chars: '.' }));
  return { kind: 'glyphs', x: first, y: baseline, face: face.key, size: look.size, color: context.palette.muted, glyphs, tag: null, actualText: '', perGlyphText: false };
}
