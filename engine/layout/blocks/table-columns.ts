import type { Block } from '../../document/types.js';
import type { LayoutContext } from './context.js';
import type { ParagraphMeasure } from '../inline/paragraph.js';
import { measureText, type TextLook } from './text-block.js';

type TableBlock = Block & { kind: 'table' };

export type ColumnMeasure = ParagraphMeasure;

/**
 * No column claims more than this for its longest word (in ems of its type): a longer "word" is
 * a hash, a path or a run of junk, and is cut with a hyphen rather than make the whole table
 * smaller or turn it sideways.
 */
const LONGEST_WORD_EM = 20;

/** Each column's narrowest and widest setting in this look, over the header row and every body row. */
export function measureColumns(block: TableBlock, columns: number, look: TextLook, context: LayoutContext): ColumnMeasure[] {
  const measures: ColumnMeasure[] = Array.from({ length: columns }, () => ({ min: 0, minWhole: 0, max: 0 }));
  [block.head, ...block.rows].forEach((cells, rowIndex) => {
    const cellLook = rowIndex === 0 ? headerLook(look) : look;
    cells.forEach((cell, column) => {
      if (cell.length === 0) return;
      const measure = measures[column]!;
      const text = measureText(cell, cellLook, context);
      measure.max = Math.max(measure.max, text.max);
      const longest = LONGEST_WORD_EM * cellLook.size;
      measure.min = Math.max(measure.min, Math.min(text.min, longest));
      measure.minWhole = Math.max(measure.minWhole, Math.min(text.minWhole, longest));
    });
  });
  return measures;
}

export function headerLook(look: TextLook): TextLook {
  return { ...look, font: { ...look.font, weight: 'bold' } };
}

/**
 * Column widths from content, as CSS's automatic table layout: natural widths when they fit;
 * else each column its longest word whole plus a share of what is left, in proportion to how
 * much more it would like. When words must be hyphenated to fit, the columns are levelled
 * instead: one width for all that cannot keep their words whole (as LaTeX's tabularx sets its
 * flexible columns), so the narrow ones keep their words and no column is starved.
 */
export function allocate(measures: ColumnMeasure[], available: number): number[] {
  const total = (width: (column: ColumnMeasure) => number) => measures.reduce((sum, column) => sum + width(column), 0);
  if (total((column) => column.max) <= available) return measures.map((column) => column.max);
  const whole = total((column) => column.minWhole);
  if (whole <= available) {
    const wanted = total((column) => column.max) - whole;
    return measures.map((column) => column.minWhole + ((column.max - column.minWhole) / wanted) * (available - whole));
  }
  if (total((column) => column.min) > available)
    return waterFill(
      measures.map((column) => column.min),
      available,
    );
  const at = (level: number) => measures.map((column) => Math.min(column.minWhole, Math.max(column.min, level)));
  let low = 0;
  let high = Math.max(...measures.map((column) => column.minWhole));
  for (let step = 0; step < 50; step++) {
    const level = (low + high) / 2;
    if (at(level).reduce((sum, width) => sum + width, 0) > available) high = level;
    else low = level;
  }
  return at(low);
}

/**
 * Too narrow even for the longest words: columns whose words fit under a common cap keep them
 * whole; only the columns above the cap are cut to it (their long words are cut, with a hyphen).
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
