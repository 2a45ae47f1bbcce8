import type { Canvas } from './canvas.js';
import { seriesColor, textOn, type DiagramColors } from './colors.js';
import { SEMIBOLD, wrapText } from './measure.js';
import { LABEL_SIZE } from './sizes.js';

export interface ColumnGrid {
  /** Left edge of a column. */
  left: (column: number) => number;
  width: number;
  gap: number;
}

const PADDING = 5;
const LEADING = 1.22;

/**
 * Sections over the columns of one row (timelines, journeys): each run of items of one section
 * gets a band in the section's colour with its name. `itemSections` holds each column's section
 * (-1 for items before any section). Returns the bottom of the bands.
 */
export function drawSectionBands(
  canvas: Canvas,
  names: readonly string[],
  itemSections: readonly number[],
  grid: ColumnGrid,
  top: number,
  colors: DiagramColors,
): number {
  const runs: Array<{ section: number; first: number; count: number }> = [];
  itemSections.forEach((section, index) => {
    const last = runs.at(-1);
    if (last && last.section === section) last.count++;
    else runs.push({ section, first: index, count: 1 });
  });
  const span = (count: number) => count * (grid.width + grid.gap) - grid.gap;
  const lines = runs.map((run) => (run.section >= 0 ? wrapText(names[run.section]!, LABEL_SIZE, span(run.count) - 2 * PADDING, SEMIBOLD) : []));
  const height = Math.max(...lines.map((text) => text.length)) * LABEL_SIZE * LEADING + 2 * PADDING;
  runs.forEach((run, index) => {
    if (run.section < 0) return;
    const x = grid.left(run.first);
    const fill = seriesColor(colors, run.section);
    canvas.rect(x, top, span(run.count), height, { fill }, 4);
    canvas.textBlock(
      lines[index]!,
      x + span(run.count) / 2,
      top + height / 2,
      { size: LABEL_SIZE, color: textOn(fill, colors), font: SEMIBOLD, anchor: 'middle' },
      LABEL_SIZE * LEADING,
    );
  });
  return top + height;
}
