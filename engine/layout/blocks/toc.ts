import { NO_MARKS, type Block, type HeadingLevel, type TocEntry } from '../../document/types.js';
import { shiftBoxItem } from '../box-items.js';
import type { GlyphRunItem } from '../frame.js';
import { METRICS } from '../../style/metrics.js';
import { glue, INFINITE_COST, penalty, type BlockNodes, type VNode } from '../vertical.js';
import type { BlockFrame, LayoutContext } from './context.js';
import { headingLook } from './looks.js';
import { measureText, textLines, type TextLook } from './text-block.js';

/** How far a level's entries stand in from the level above when that has no numbers. */
const LEVEL_INDENT = 14;
/** Between the widest number of a level and its titles. */
const NUMBER_GAP_EM = 0.7;
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
  const title = textLines(
    [{ kind: 'text', text: TOC_TITLE, marks: NO_MARKS, link: null, code: null }],
    look,
    frame,
    context.tagger.add('H2', frame.tag),
    context,
  );
  const nodes: VNode[] = [...title, penalty(INFINITE_COST), glue(METRICS.bodyLeading * 0.4)];
  const body = context.body;
  // The document's highest level is the contents' first, whatever its heading level (a README's H2s).
  const top = Math.min(...block.entries.map((entry) => entry.level)) as HeadingLevel;
  const lookOf = (level: HeadingLevel): TextLook => ({
    ...body,
    align: 'start',
    hyphenate: false,
    font: { ...body.font, weight: level === top ? 'semibold' : 'regular' },
  });
  const places = levelPlaces(block.entries, top, lookOf, context);
  block.entries.forEach((entry, index) => {
    const itemTag = context.tagger.add('TOCI', tocTag);
    const place = places.get(entry.level)!;
    const entryLook = lookOf(entry.level);
    const start = frame.x + place.indent;
    const titleX = entry.number ? start + place.numberWidth : start;
    const entryFrame = { ...frame, x: titleX, width: frame.x + frame.width - NUMBER_SLOT - titleX };
    const lines = textLines(entry.content, entryLook, entryFrame, itemTag, context);
    const [first] = lines;
    const last = lines.at(-1);
    if (!first || !last) return;
    const [number] = entry.number ? textLines(entry.number, entryLook, { ...frame, x: start, width: place.numberWidth }, itemTag, context) : [];
    if (number) first.items.unshift(...number.items.map((item) => shiftBoxItem(item, first.baseline - number.baseline)));
    const face = context.fonts.primary(entryLook.font);
    const right = frame.x + frame.width;
    last.items.push(leaders(textRight(last.items), right - NUMBER_SLOT, last.baseline, context));
    last.items.push({ kind: 'page-ref', dest: entry.dest, right, y: last.baseline, face: face.key, size: body.size, color: body.color, tag: itemTag });
    // Never one entry alone at the foot of a page or the head of the next, as a paragraph's line.
    if (index === 1 || (index > 0 && index === block.entries.length - 1)) nodes.push(penalty(INFINITE_COST));
    if (index > 0) nodes.push(glue(entry.level === top ? 4 : 1));
    nodes.push(...lines);
  });
  return { nodes, spaceBefore: METRICS.paragraphGap, spaceAfter: METRICS.bodyLeading * 1.5 };
}

/**
 * Where each level's entries start and how wide its column of numbers is. As in LaTeX's contents,
 * numbers stand in a column and the titles after them (and their second lines) align; a level's
 * number starts under the titles of the level above. The column fits the level's widest number
 * (10.10 as well as 9.1) and a space, where LaTeX's fixed width lets a long one overrun.
 */
function levelPlaces(
  entries: readonly TocEntry[],
  top: HeadingLevel,
  lookOf: (level: HeadingLevel) => TextLook,
  context: LayoutContext,
): Map<HeadingLevel, { indent: number; numberWidth: number }> {
  const widest = new Map<HeadingLevel, number>();
  for (const entry of entries) {
    if (entry.number) widest.set(entry.level, Math.max(widest.get(entry.level) ?? 0, measureText(entry.number, lookOf(entry.level), context).max));
  }
  const places = new Map<HeadingLevel, { indent: number; numberWidth: number }>();
  let indent = 0;
  for (let level = top; level <= 6; level++) {
    const numbers = widest.get(level as HeadingLevel);
    const numberWidth = numbers === undefined ? 0 : numbers + NUMBER_GAP_EM * context.body.size;
    places.set(level as HeadingLevel, { indent, numberWidth });
    indent += numberWidth > 0 ? numberWidth : LEVEL_INDENT;
  }
  return places;
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
  return {
    kind: 'glyphs',
    x: first,
    y: baseline,
    face: face.key,
    size: look.size,
    color: context.palette.muted,
    glyphs,
    tag: null,
    actualText: '',
    perGlyphText: false,
  };
}
