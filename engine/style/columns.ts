import { parseLength } from './lengths.js';

/** The body in one column, or two with `gap` between them (points). */
export interface Columns {
  count: 1 | 2;
  gap: number;
}

/** About two ems of body text: LaTeX's 10 pt is tight beside justified text. */
export const DEFAULT_COLUMN_GAP = 7 * (72 / 25.4);
/** A gap no wider than this leaves both columns a measure. */
const WIDEST_GAP = 72;

export const COLUMNS_EXPECTED = '1 or 2, or count (1 or 2) and gap (a length up to 1 in)';

/** `columns: 2`, or `{count: 2, gap: 8mm}`; null when it is neither. */
export function parseColumns(value: unknown): Columns | null {
  if (value === 1 || value === '1') return { count: 1, gap: DEFAULT_COLUMN_GAP };
  if (value === 2 || value === '2') return { count: 2, gap: DEFAULT_COLUMN_GAP };
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const given = value as Record<string, unknown>;
  if (Object.keys(given).some((key) => key !== 'count' && key !== 'gap')) return null;
  const count = given.count === undefined ? 2 : given.count;
  const gap = given.gap === undefined ? DEFAULT_COLUMN_GAP : parseLength(given.gap);
  if ((count !== 1 && count !== 2 && count !== '1' && count !== '2') || gap === null || gap > WIDEST_GAP) return null;
  return { count: Number(count) as 1 | 2, gap };
}
