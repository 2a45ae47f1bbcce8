/**
 * Where a line of a page comes from in the Markdown: its words searched for in the source
 * (markup between them allowed), the occurrence nearest the line's share of the document
 * chosen. A line with no findable words falls back to that share alone.
 */
export const WORD = /[\p{L}\p{N}]{3,}/gu;
const RUNS = [3, 2, 1];

/** The offset in `source` the page line `text` was set from, or `estimate` when it cannot be found. */
export function sourceOffsetOf(text: string, source: string, estimate: number): number {
  const words = text.match(WORD) ?? [];
  for (const size of RUNS) {
    for (let start = 0; start + size <= words.length; start += 1) {
      const pattern = wordRun(words.slice(start, start + size), 'gu');
      let best: number | null = null;
      for (const match of source.matchAll(pattern)) {
        if (best === null || Math.abs(match.index - estimate) < Math.abs(best - estimate)) best = match.index;
      }
      if (best !== null) return best;
    }
  }
  return estimate;
}

/**
 * The words in order, with markup, spaces or a line break (up to 12 characters) between them,
 * and up to three short words that the list leaves out ("a", "of").
 */
export function wordRun(words: readonly string[], flags: string): RegExp {
  const between = '[^\\p{L}\\p{N}]{1,12}(?:[\\p{L}\\p{N}]{1,2}[^\\p{L}\\p{N}]{1,12}){0,3}';
  return new RegExp(words.map(escapeRegExp).join(between), flags);
}

function escapeRegExp(word: string): string {
  return word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
