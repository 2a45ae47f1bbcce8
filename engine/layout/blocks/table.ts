import type { Align, Block, Inline } from '../../document/types.js';
import { shiftBoxItem, stackBoxes } from '../box-items.js';
import type { BoxItem } from '../vertical.js';
import type { StructId } from '../structure.js';
import { METRICS } from '../../style/metrics.js';
import type { PageGeometry } from '../../style/page-geometry.js';
import { box, container, INFINITE_COST, penalty, type BlockNodes, type Container, type VBox, type VNode } from '../vertical.js';
import { untagged, type BlockFrame, type LayoutContext } from './context.js';
import { allocate, headerLook, measureColumns, type ColumnMeasure } from './table-columns.js';
import { textLines, type TextLook } from './text-block.js';

/** Type sizes tried in turn, as fractions of the running text's, above the floor below. */
const SHRINK_STEPS = [1, 0.9, 0.8, 0.7];
/** The smallest type (pt) a table is set in before it is turned onto a landscape page. */
const MIN_SIZE = 7;
/** The last resort's floor (pt, LaTeX's \tiny): below it a table's longest words are cut instead (save for hundreds of columns). */
const LAST_RESORT_SIZE = 5;

type TableBlock = Block & { kind: 'table' };

/** How a table is set: its type, column widths (cell padding included) and where it goes. */
interface TableSetting {
  look: TextLook;
  padX: number;
  padY: number;
  cellWidths: number[];
  frame: BlockFrame;
  /** The landscape page it is set on, turned from the document's; null upright. */
  turned: PageGeometry | null;
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
  const row = (cells: Inline[][], header: boolean, parent: StructId | null) =>
    layoutRow(cells, header, block.align, setting, containers, context.tagger.add('TR', parent), context);

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
  const placed: VNode[] = setting.turned ? [{ kind: 'landscape', geometry: setting.turned, nodes }] : nodes;
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
  const setAt = (size: number, at: BlockFrame, turned: PageGeometry | null): TableSetting => {
    const pad = padX(size);
    const widths = allocate(measuresAt(size), at.width - 2 * pad * columns);
    return {
      look: lookAt(size, body),
      padX: pad,
      padY: (METRICS.tableCellPaddingY * size) / METRICS.bodySize,
      cellWidths: widths.map((width) => width + 2 * pad),
      frame: at,
      turned,
    };
  };

  for (const size of sizes) if (required(size) <= frame.width + 0.01) return setAt(size, frame, null);
  const page = context.landscape;
  // The same frame on the turned page: as far in from its margin, as much narrower than its measure.
  const turned = page
    ? { ...frame, x: frame.x + page.marginInner - context.geometry.marginInner, width: frame.width + page.contentWidth - context.geometry.contentWidth }
    : null;
  const fitting = page && turned ? sizes.filter((size) => required(size) <= turned.width + 0.01).map((size) => setAt(size, turned, page)) : [];
  // A page of its own: the largest type that keeps the table on one page, if any does.
  if (page && fitting.length > 0) return fitting.find((setting) => fitsOnePage(block, setting, page.contentHeight, context)) ?? fitting[0]!;

  // Minimum widths and padding both grow with the type size, so the size that fits is proportional.
  // Below the last resort's floor words are cut instead, unless the columns are so many that one
  // em each (any character, or a part of a word and its hyphen) would not fit even there.
  const target = turned ?? frame;
  const proportional = (floor * target.width) / required(floor);
  const oneEmEach = target.width / (columns * (1 + (2 * METRICS.tableCellPaddingX) / METRICS.bodySize));
  const size = Math.min(Math.max(LAST_RESORT_SIZE, Math.floor(proportional * 10) / 10), oneEmEach);
  const where = turned ? 'a landscape page' : 'the page';
  const cut = required(size) > target.width + 0.01 ? ', its longest words cut to the columns' : '';
  context.warn(`a table of ${columns} columns is too wide for ${where} at ${floor} pt: set at ${Number(size.toPrecision(2))} pt${cut}`);
  return setAt(size, target, turned ? page : null);
}

/** Whether the table set this way, with the footnotes its cells cite, fits one page (a trial layout, untagged, that stops at the foot). */
function fitsOnePage(block: TableBlock, setting: TableSetting, height: number, context: LayoutContext): boolean {
  const trial = untagged(context);
  const notes = new Set<number>();
  let used = 0;
  for (const [index, cells] of [block.head, ...block.rows].entries()) {
    if (index === 0 && cells.length === 0) continue;
    const row = layoutRow(cells, index === 0, block.align, setting, [], null, trial);
    used += row.height;
    for (const number of row.footnotes) {
      if (notes.has(number)) continue;
      used += context.footnoteHeight(number) + (notes.size === 0 ? METRICS.footnoteGap : 0);
      notes.add(number);
    }
    if (used > height) return false;
  }
  return true;
}

function lookAt(size: number, body: TextLook): TextLook {
  return { ...body, size, leading: (body.leading * size) / body.size, align: 'start' };
}

/** Cell padding shrinks with the type, so small type leaves room for the columns. */
function padX(size: number): number {
  return (METRICS.tableCellPaddingX * size) / METRICS.bodySize;
}

function layoutRow(
  cells: Inline[][],
  header: boolean,
  align: Align[],
  setting: TableSetting,
  containers: Container[],
  rowTag: StructId | null,
  context: LayoutContext,
): VBox {
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
  if (header)
    decorations.push({
      kind: 'rect',
      x: x0,
      y: 0,
      width: right - x0,
      height,
      fill: palette.tableHeader,
      stroke: null,
      lineWidth: 0,
      radius: 0,
      tag: null,
      actualText: null,
    });
  decorations.push({
    kind: 'line',
    x1: x0,
    y1: height,
    x2: right,
    y2: height,
    width: header ? METRICS.ruleWidth * 1.6 : METRICS.ruleWidth,
    color: palette.rule,
  });
  return box(height, [...decorations, ...items], containers, baseline + padY, footnotes);
}

function alignment(align: Align): TextLook['align'] {
  if (align === 'right') return 'end';
  if (align === 'center') return 'center';
  return 'start';
}
