/** Points in one of each unit a document may measure in. */
const POINTS_PER: Record<string, number> = { pt: 1, in: 72, cm: 72 / 2.54, mm: 72 / 25.4 };

const LENGTH = /^\s*(\d+(?:\.\d+)?|\.\d+)\s*(mm|cm|in|pt)?\s*$/i;

/** A length as written (`20mm`, `1.5in`, `12pt`, or a bare number of points) in points; null when it is none. */
export function parseLength(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value : null;
  if (typeof value !== 'string') return null;
  const match = LENGTH.exec(value);
  if (!match) return null;
  return Number(match[1]) * POINTS_PER[(match[2] ?? 'pt').toLowerCase()]!;
}
