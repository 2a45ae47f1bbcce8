import { RendererBoundError } from '../../errors.js';

/** Characters in one diagram's source: far beyond a diagram anyone can read on a page. */
export const MAX_SOURCE_CHARS = 64_000;
/** Statements (lines) in one diagram: each costs up to a millisecond to measure and place. */
export const MAX_STATEMENTS = 1_000;
/**
 * Nodes plus edges of a diagram laid out as a graph (elkjs): 300 take about 0.7 s on a
 * two-core machine, and the cost grows faster than linearly beyond.
 */
export const MAX_GRAPH_ELEMENTS = 300;
/** Values plotted by one xychart (categories and every series' points together). */
export const MAX_CHART_VALUES = 1_000;

export function checkSize(source: string, statements: number): void {
  if (source.length > MAX_SOURCE_CHARS) throw new RendererBoundError('ElementLimit', `a diagram's source is longer than ${MAX_SOURCE_CHARS} characters`);
  if (statements > MAX_STATEMENTS) throw new RendererBoundError('ElementLimit', `a diagram has more than ${MAX_STATEMENTS} statements`);
}

export function checkCount(count: number, limit: number, what: string): void {
  if (count > limit) throw new RendererBoundError('ElementLimit', `a diagram has more than ${limit} ${what}`);
}
