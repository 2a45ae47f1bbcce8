/**
 * The keys Quire reads from front matter (and from the `design` option, which takes the same),
 * and the warning for one it does not: a misspelt `papr:` is otherwise ignored without a word.
 * Keys it does not read stay ignored (front matter written for another tool is common: `layout`,
 * `permalink`); the warning says so and, when one of Quire's keys is close, names it.
 */
import { DESIGN_KEYS } from '../style/design-settings.js';

/** Every front matter key Quire reads: the document's own, then the design's. */
export const FRONT_MATTER_KEYS: readonly string[] = ['title', 'subtitle', 'author', 'date', 'language', 'theme', 'toc', 'toc_depth', ...DESIGN_KEYS];

/** Other tools' names for Quire's keys (Pandoc's, mostly), too far apart to be found by spelling. */
const OTHER_NAMES: Readonly<Record<string, string>> = {
  papersize: 'paper',
  geometry: 'margin',
  numbersections: 'number_headings',
  number_sections: 'number_headings',
  mainfont: 'fonts',
  lang: 'language',
  authors: 'author',
  cover: 'cover_image',
};

/** The key of Quire's that `key` most likely meant, if one is close enough to suggest. */
export function closestKey(key: string, known: readonly string[] = FRONT_MATTER_KEYS): string | undefined {
  const normal = key
    .trim()
    .toLowerCase()
    .replace(/[-\s]+/g, '_');
  if (known.includes(normal)) return normal;
  const other = OTHER_NAMES[normal];
  if (other !== undefined && known.includes(other)) return other;
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of known) {
    const distance = editDistance(normal, candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  // One edit in a short key, more in a longer one: `papr`, `tittle`, `number_heading`; not `data` for `date`'s neighbours alone.
  const allowed = Math.min(3, Math.max(1, Math.floor(normal.length / 4)));
  if (best !== undefined && bestDistance <= allowed) return best;
  // A beginning of a longer key: `orient`, `toc_dep`.
  if (normal.length >= 4) return known.find((candidate) => candidate.startsWith(normal));
  return undefined;
}

/**
 * The warnings for the keys of `record` Quire does not read. `place` starts each (`front matter`,
 * `design option`); `lineOf` gives a key's line in the document, when known.
 */
export function unknownKeyWarnings(record: Readonly<Record<string, unknown>>, place: string, lineOf?: (key: string) => number | undefined): string[] {
  const warnings: string[] = [];
  const unsuggested: { key: string; line: number | undefined }[] = [];
  for (const key of Object.keys(record)) {
    if (FRONT_MATTER_KEYS.includes(key)) continue;
    const line = lineOf?.(key);
    const meant = closestKey(key);
    if (meant !== undefined) warnings.push(`${at(place, line)}: unknown key ${shown(key)} is ignored (did you mean \`${meant}\`?)`);
    else unsuggested.push({ key, line });
  }
  const [only] = unsuggested;
  if (unsuggested.length === 1) warnings.push(`${at(place, only!.line)}: unknown key ${shown(only!.key)} is ignored`);
  if (unsuggested.length > 1) {
    const keys = unsuggested.map(({ key, line }) => (line === undefined ? shown(key) : `${shown(key)} (line ${line})`));
    warnings.push(`${place}: unknown keys ${keys.join(', ')} are ignored`);
  }
  return warnings;
}

function at(place: string, line: number | undefined): string {
  return line === undefined ? place : `${place}, line ${line}`;
}

const LONGEST_SHOWN_KEY = 40;

function shown(key: string): string {
  return `\`${key.length > LONGEST_SHOWN_KEY ? `${key.slice(0, LONGEST_SHOWN_KEY - 1)}…` : key}\``;
}

/** Optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours each cost 1. */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  const rows = a.length + 1;
  const columns = b.length + 1;
  const d: number[] = new Array(rows * columns).fill(0);
  for (let i = 0; i < rows; i++) d[i * columns] = i;
  for (let j = 0; j < columns; j++) d[j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < columns; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(d[(i - 1) * columns + j]! + 1, d[i * columns + j - 1]! + 1, d[(i - 1) * columns + j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, d[(i - 2) * columns + j - 2]! + 1);
      d[i * columns + j] = value;
    }
  }
  return d[rows * columns - 1]!;
}
