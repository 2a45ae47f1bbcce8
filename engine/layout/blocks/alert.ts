import { NO_MARKS, type Block } from '../../document/types.js';
import type { AlertKind } from '../../style/alert-kinds.js';
import type { PathItem } from '../frame.js';
import type { StructId } from '../structure.js';
import { METRICS } from '../../style/metrics.js';
import type { Color } from '../../style/color.js';
import { box, container, glue, INFINITE_COST, penalty, type BlockNodes, type VBox } from '../vertical.js';
import { indented, type BlockFrame, type LayoutBlocks, type LayoutContext } from './context.js';
import { ALERT_ICONS, OCTICON_GRID } from './alert-icons.js';
import { textLines } from './text-block.js';

/** The titles GitHub prints, in English whatever the document's language, as GitHub does. */
const TITLES: Readonly<Record<AlertKind, string>> = { note: 'Note', tip: 'Tip', important: 'Important', warning: 'Warning', caution: 'Caution' };

/**
 * A GitHub alert, drawn as GitHub draws it: a rule in the kind's colour down the left, a title
 * (icon and name) in that colour, then the body in ordinary text. Tagged as a Div whose title is
 * its first paragraph (GitHub's own HTML is a `div` with a title `p`); the icon is an artifact.
 */
export function layoutAlert(
  block: Block & { kind: 'quote' },
  kind: AlertKind,
  frame: BlockFrame,
  context: LayoutContext,
  layoutBlocks: LayoutBlocks,
): BlockNodes {
  const color = context.palette.alerts[kind];
  const tag = context.tagger.add('Div', frame.tag);
  const rule = container({ kind: 'rule', x: frame.x, width: METRICS.quoteRuleWidth, color });
  const inner = indented(frame, METRICS.quoteIndent, { containers: [...frame.containers, rule], tag, tight: false });
  const padding = () => box(METRICS.alertPadding, [], inner.containers);
  const title = titleLine(kind, color, inner, context.tagger.add('P', tag), context);
  const body = layoutBlocks(block.children, inner, context);
  return {
    // The title stays with the body's first lines.
    nodes: [padding(), ...title, penalty(INFINITE_COST), glue(METRICS.paragraphGap), ...body.nodes, padding()],
    spaceBefore: METRICS.paragraphGap,
    spaceAfter: METRICS.paragraphGap,
  };
}

/** The icon, then the kind's name in semibold, both in the alert's colour. */
function titleLine(kind: AlertKind, color: Color, frame: BlockFrame, tag: StructId | null, context: LayoutContext): VBox[] {
  const look = {
    ...context.body,
    font: { family: 'serif' as const, weight: 'semibold' as const, italic: false },
    color,
    align: 'start' as const,
    hyphenate: false,
  };
  const size = look.size * METRICS.alertIconSize;
  const indent = size + METRICS.alertIconGap;
  const lines = textLines([{ kind: 'text', text: TITLES[kind], marks: NO_MARKS, link: null, code: null }], look, indented(frame, indent), tag, context);
  const first = lines[0];
  if (first) {
    const face = context.fonts.primary(look.font);
    // Centred on the capitals, as GitHub centres it on the title's line.
    const middle = first.baseline - (face.capHeight * face.scale(look.size)) / 2;
    first.items.unshift(icon(ALERT_ICONS[kind], frame.x, middle - size / 2, size, color));
  }
  return lines;
}

/** An Octicon at (x, y) from its top-left corner, `size` points square: page furniture, untagged. */
function icon(d: string, x: number, y: number, size: number, color: Color): PathItem {
  const scale = size / OCTICON_GRID;
  return { kind: 'path', d, matrix: [scale, 0, 0, scale, x, y], fill: color, fillOpacity: 1, fillRule: 'nonzero', stroke: null, tag: null };
}
