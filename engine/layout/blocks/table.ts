import type { Align, Block, Inline } from '../../document/types.js';
import { shiftBoxItem, stackBoxes } from '../box-items.js';
import type { BoxItem } from '../vertical.js';
import type { StructId } from '../structure.js';
import { METRICS } from '../theme.js';
import { box, container, INFINITE_COST, penalty, type BlockNodes, type Container, type VBox, type VNode } from '../vertical.js';
import { untagged, type BlockFrame, type LayoutContext } from './context.js';
import { allocate, headerLook, measureColumns, type ColumnMeasure } from './table-columns.js';
import { textLines, type TextLook } from './text-block.js';

/** Type sizes tried in turn, as fractions of the running text's, above the floor below. */
const SHRINK_STEPS = [1, 0.9, 0.8, 0.7];
/** The smallest type (pt) a table is set in before it is turned onto a landscape page. */
const MIN_SIZE = 7;
/** The last resort's floor (pt, LaTeX's \tiny): below it a table's longest words are cut instead. */
const LAST_RESORT_SIZE = 5;

type TableBlock = Block & { kind: 'table' };

/** How a table is set: its type, column widths (cell padding included) and where it goes. */
interface TableSetting {
  look: TextLook;
  padX: number;
  padY: number;
  cellWidths: number[];
  frame: BlockFrame;
  /** Set on landscape pages of its own. */
  turned: boolean;
}

/**
 * A table: columns sized to their content, rows that never split, the header row drawn again
 * at the top of every continuation page. A table too wide for the measure is set smaller, down
 * to 7 pt; then on a landscape page of its own; then, with a warning, smaller still. It never
 * runs past the page: a word wider than its column is cut with a hyphen.
 */
export function layoutTable(block: TableBlock, frame: BlockFrame, context: LayoutContext): BlockNodes {
  const setting = settle(block, frame, context);
  const tableTag = context.tagger.add('Table', frame.tag);
  const headTag = context.tagger.add('THead', tableTag);
  const bodyTag = context.tagger.add('TBody', tableTag);
  const tableContainer = container({ kind: 'table', header: null });
  const containers = [...setting.frame.containers, tableContainer];
  const row = (cells: Inline[][], header: boolean, parent: StructId | null) => layoutRow(cells, header, block.align, setting, containers, context.tagger.add('TR', parent), context);

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
  const placed: VNode[] = setting.turned && context.landscape ? [{ kind: 'landscape', geometry: context.landscape, nodes }] : nodes;
  return { nodes: placed, spaceBefore: METRICS.paragraphGap, spaceAfter: METRICS.paragraphGap };
}

/** The largest type at which every column gets its minimum width: upright, then turned, then the last resort. */
function settle(block: TableBlock, frame: BlockFrame, context: LayoutContext): TableSetting {
  const columns = Math.max(block.head.length, ...block.rows.map((row) => row.length));
  const body = context.body;
  const floor = Math.min(MIN_SIZE, body.size);
  const sizes = [...SHRINK_STEPS.map((step) => body.size * step).filter((size) => size > floor), floor];
  const measured = new Map<number, ColumnMeasure[]>();
  const measuresAt = (size: number) => {
    let measures = measured.get(size);
    if (!measures) measured.set(size, (measures = measureColumns(block, columns, lookAt(size, body), context)));
    return measures;
  };
  const required = (size: number) => measuresAt(size).reduce((sum, column) => sum + column.min, 0) + 2 * padX(size) * columns;
  const setAt = (size: number, at: BlockFrame, turned: boolean): TableSetting => {
    const pad = padX(size);
    const widths = allocate(measuresAt(size), at.width - 2 * pad * columns);
    return { look: lookAt(size, body), padX: pad, padY: (METRICS.tableCellPaddingY * size) / METRICS.bodySize, cellWidths: widths.map((width) => width + 2 * pad), frame: at, turned };
  };

  for (const size of sizes) if (required(size) <= frame.width + 0.01) return setAt(size, frame, false);
  const page = context.landscape;
  const turned = page ? { ...frame, width: frame.width + page.contentWidth - context.geometry.contentWidth } : null;
  const fitting = turned ? sizes.filter((size) => required(size) <= turned.width + 0.01).map((size) => setAt(size, turned, true)) : [];
  // A page of its own: the largest type that keeps the table on one page, if any does.
  if (page && fitting.length > 0) return fitting.find((setting) => tableHeight(block, setting, context) <= page.contentHeight) ?? fitting[0]!;

  // Minimum widths and padding both grow with the type size, so the size that fits is proportional.
  const target = turned ?? frame;
  const size = Math.max(LAST_RESORT_SIZE, Math.floor(((floor * target.width) / required(floor)) * 10) / 10);
  const where = turned ? 'a landscape page' : 'the page';
  const cut = required(size) > target.width + 0.01 ? ', its longest words cut to the columns' : '';
  context.warn(`a table of ${columns} columns is too wide for ${where} at ${floor} pt: set at ${size} pt${cut}`);
  return setAt(size, target, turned !== null);
}

/** The height a table takes set this way, with the footnotes its cells cite (a trial layout, untagged). */
function tableHeight(block: TableBlock, setting: TableSetting, context: LayoutContext): number {
  const trial = untagged(context);
  const row = (cells: Inline[][], header: boolean) => layoutRow(cells, header, block.align, setting, [], null, trial);
  const rows = [...(block.head.length > 0 ? [row(block.head, true)] : []), ...block.rows.map((cells) => row(cells, false))];
  const notes = new Set(rows.flatMap((row) => row.footnotes));
  const footnotes = [...notes].reduce((sum, number) => sum + context.footnoteHeight(number), notes.size > 0 ? METRICS.footnoteGap : 0);
  return rows.reduce((sum, row) => sum + row.height, footnotes);
}

function lookAt(size: number, body: TextLook): TextLook {
  return { ...body, size, leading: (body.leading * size) / body.size, align: 'start' };
}

/** Cell padding shrinks with the type, so small type leaves room for the columns. */
function padX(size: number): number {
  return (METRICS.tableCellPaddingX * size) / METRICS.bodySize;
}

function layoutRow(cells: Inline[][], header: boolean, align: Align[], setting: TableSetting, containers: Container[], rowTag: StructId | null, context: LayoutContext): VBox {
  const { padX, padY, cellWidths } = setting;
  const x0 = setting.frame.x;
  const cellLook = header ? headerLook(setting.look) : setting.look;
  const items: BoxItem[] = [];
  const footnotes: number[] = [];
  let height = 0;
  let baseline = 0;
  let x = x0;
  cellWidths.forEach((width, column) => {
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
