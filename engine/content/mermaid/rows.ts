/** Items per row when `count` items wrap at `most` to a row: rows as even as they can be. */
export function balancedRow(count: number, most: number): number {
  const rows = Math.ceil(count / most);
  return Math.ceil(count / rows);
}
