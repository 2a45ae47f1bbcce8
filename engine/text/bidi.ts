import * as bidiModule from 'bidi-js';
import type { Bidi } from 'bidi-js';

// bidi-js is CommonJS whose module.exports is the factory; its types describe an ES default export.
const bidi = (bidiModule as unknown as { default: () => Bidi }).default();

/** Any character of a right-to-left script or an explicit bidi control. */
const RTL_OR_CONTROL = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc\u{10800}-\u{10fff}\u{1e800}-\u{1efff}\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

export interface BidiInfo {
  /** Embedding level per UTF-16 index; odd is right-to-left. */
  levels: Uint8Array;
  /** Paragraph base level: 0 left-to-right, 1 right-to-left. */
  baseLevel: number;
  /** Characters to draw mirrored in right-to-left runs (brackets), by index. */
  mirrored: Map<number, string>;
}

/** UAX #9 levels for one paragraph, with a fast path for text that is all left-to-right. */
export function analyzeBidi(text: string): BidiInfo {
  if (!RTL_OR_CONTROL.test(text)) return { levels: new Uint8Array(text.length), baseLevel: 0, mirrored: new Map() };
  const result = bidi.getEmbeddingLevels(text, 'auto');
  return {
    levels: result.levels,
    baseLevel: result.paragraphs[0]?.level ?? 0,
    mirrored: bidi.getMirroredCharactersMap(text, result.levels),
  };
}

/**
 * UAX #9 rule L2 on a line of runs already in logical order: from the highest level down to the
 * lowest odd level, reverse every sequence of runs at that level or higher.
 */
export function reorderRuns<T extends { level: number }>(runs: T[]): T[] {
  if (runs.every((run) => run.level === 0)) return runs;
  const out = [...runs];
  const highest = Math.max(...out.map((run) => run.level));
  const lowestOdd = Math.min(...out.map((run) => run.level).filter((level) => level % 2 === 1), highest + 1);
  for (let level = highest; level >= lowestOdd && level > 0; level--) {
    let i = 0;
    while (i < out.length) {
      if (out[i]!.level < level) {
        i++;
        continue;
      }
      let j = i;
      while (j < out.length && out[j]!.level >= level) j++;
      const reversed = out.slice(i, j).reverse();
      out.splice(i, j - i, ...reversed);
      i = j;
    }
  }
  return out;
}
