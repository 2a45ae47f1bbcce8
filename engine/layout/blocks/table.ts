import type { Align, Block, Inline } from '../../document/types.js';
import { shiftBoxItem, stackBoxes } from '../box-items.js';
import type { BoxItem } from '../vertical.js';
import type { StructId } from '../structure.js';
import { METRICS } from '../theme.js';
import { box, container, INFINITE_COST, penalty, type BlockNodes, type Container, type VBox, type VNode } from '../vertical.js';
import type { BlockFrame, LayoutContext } from './context.js';
import { measureText, textLines, type TextLook } from './text-block.js';

/** Type sizes tried in turn until the table's narrowest layout fits the measure. */
const SHRINK_STEPS = [1, 0.9, 0.8, 0.7];

type TableBlock = Block & { kind: 'table' };

/**
 * A table: columns sized to their content and shrunk to the measure when wide, rows that
 * never split, the header row drawn again at the top of every continuation page.
 */
export function layoutTable(block: TableBlock, frame: BlockFrame, context: LayoutContext): BlockNodes {
  const columns = Math.max(block.head.length, ...block.rows.map((row) => row.length));
  const pad = METRICS.tableCellPaddingX;
  let look = context.body;
  let widths: number[] = [];
  for (const step of SHRINK_STEPS) {
    look = { ...context.body, size: context.body.size * step, leading: context.body.leading * step, align: 'start', hyphenate: false };
    const measured = measureColumns(block, columns, look, context);
    widths = allocate(measured, frame.width - 2 * pad * columns);
    if (measured.every((column, i) => column.min <= widths[i]! + 0.01)) break;
  }
  const cellWidths = widths.map((width) => width + 2 * pad);

  const tableTag = context.tagger.add('Table', frame.tag);
  const headTag = context.tagger.add('THead', tableTag);
  const bodyTag = context.tagger.add('TBody', tableTag);
  const tableContainer = container({ kind: 'table', header: null });
  const containers = [...frame.containers, tableContainer];
  const row = (cells: Inline[][], header: boolean, parent: StructId | null) =>
    layoutRow(cells, header, block.align, cellWidths, look, frame.x, containers, context.tagger.add('TR', parent), context);

  const nodes: VNode[] = [];
  if (block.head.length > 0) {
    const header = row(block.head, true, headTag);
    tableContainer.decoration = { kind: 'table', header };
    nodes.push(header, penalty(INFINITE_COST));
  }
  block.rows.forEach((cells, index) => {
    if (index > 0) nodes.push(penalty(0));
    nodes.push(row(cells, false, bodyTag));
  });
  return { nodes, spaceBefore: METRICS.paragraphGap, spaceAfter: METRICS.paragraphGap };
}

interface ColumnMeasure {
  /** Width of the longest unbreakable word. */
  min: number;
  /** Width with no line breaks. */
  max: number;
}

function measureColumns(block: TableBlock, columns: number, look: TextLook, context: LayoutContext): ColumnMeasure[] {
  const measures: ColumnMeasure[] = Array.from({ length: columns }, () => ({ min: 0, max: 0 }));
  [block.head, ...block.rows].forEach((cells, rowIndex) => {
    const cellLook = rowIndex === 0 ? headerLook(look) : look;
    cells.forEach((cell, column) => {
      if (cell.length === 0) return;
      const measure = measures[column]!;
      const text = measureText(cell, cellLook, context);
      measure.max = Math.max(measure.max, text.max);
      measure.min = Math.max(measure.min, text.min);
    });
  });
  return measures;
}

/**
 * Natural widths when they fit; otherwise every column gets its minimum plus a share of what
 * is left in proportion to how much more it would like.
 */
function allocate(measures: ColumnMeasure[], available: number): number[] {
  const natural = measures.reduce((sum, column) => sum + column.max, 0);
  if (natural <= available) return measures.map((column) => column.max);
  const minimum = measures.reduce((sum, column) => sum + column.min, 0);
  if (minimum >= available) return waterFill(measures.map((column) => column.min), available);
  const wanted = natural - minimum;
  return measures.map((column) => column.min + ((column.max - column.min) / wanted) * (available - minimum));
}

/**
 * Too narrow even for the longest words: columns whose words fit under a common cap keep them
 * whole; only the columns above the cap are cut to it (their long words break).
 */
function waterFill(minimums: number[], available: number): number[] {
  const sorted = [...minimums].sort((a, b) => a - b);
  let remaining = available;
  let cap = 0;
  for (let i = 0; i < sorted.length; i++) {
    cap = remaining / (sorted.length - i);
    if (sorted[i]! > cap) break;
    remaining -= sorted[i]!;
    cap = Number.POSITIVE_INFINITY;
  }
  return minimums.map((min) => Math.min(min, cap));
}

function headerLook(look: TextLook): TextLook {
  return { ...look, font: { ...look.font, weight: 'bold' } };
}

function layoutRow(cells: Inline[][], header: boolean, align: Align[], widths: number[], look: TextLook, x0: number, containers: Container[], rowTag: StructId | null, context: LayoutContext): VBox {
  const padX = METRICS.tableCellPaddingX;
  const padY = METRICS.tableCellPaddingY;
  const cellLook = header ? headerLook(look) : look;
  const items: BoxItem[] = [];
  const footnotes: number[] = [];
  let height = 0;
  let baseline = 0;
  let x = x0;
  widths.forEach((width, column) => {
    const tag = context.tagger.add(header ? 'TH' : 'TD', rowTag, header ? { scope: 'Column' } : {});
    const inlines = cells[column] ?? [];
    const cellFrame: BlockFrame = { x: x + padX, width: width - 2 * padX, containers, tag, tight: true, listDepth: 0 };
    const lines = textLines(inlines, { ...cellLook, align: alignment(align[column] ?? null) }, cellFrame, tag, context);
    const stacked = stackBoxes(lines);
    if (lines.length === 0 && tag !== null) items.push({ kind: 'struct-mark', tag });
    for (const item of stacked.items) items.push(shiftBoxItem(item, padY));
    footnotes.push(...lines.flatMap((line) => line.footnotes));
    height = Math.max(height, stacked.height);
    baseline = Math.max(baseline, lines[0]?.baseline ?? 0);
    x += width;
  });
  height += 2 * padY;
  const right = x;
  const palette = context.palette;
  const decorations: BoxItem[] = [];
  if (header) decorations.push({ kind: 'rect', x: x0, y: 0, width: right - x0, height, fill: palette.tableHeader, stroke: null, lineWidth: 0, radius: 0, tag: null, actualText: null });
  decorations.push({ kind: 'line', x1: x0, y1: height, x2: right, y2: height, width: header ? METRICS.ruleWidth * 1.6 : METRICS.ruleWidth, color: palette.rule });
  return box(height, [...decorations, ...items], containers, baseline + padY, footnotes);
}

function alignment(align: Align): TextLook['align'] {
  if (align === 'right') return 'end';
  if (align === 'center') return 'center';
  return 'start';
}
