import { createRequire } from 'node:module';
import { asciiFirst } from './ascii-first.js';

const require = createRequire(import.meta.url);

type Patterns = { hyphenateSync(text: string, options?: { hyphenChar?: string; minWordLength?: number }): string };

/** Returns the offsets inside a word where it may be hyphenated. */
export type Hyphenator = (word: string) => readonly number[];

const SOFT_HYPHEN = '\u00ad';
const MIN_WORD = 5;
/** Letters only: words with digits, markup or URLs are never hyphenated. */
export const HYPHENATABLE = asciiFirst(/^\p{L}[\p{L}\p{M}]*$/u, /^[A-Za-z]+$/);

/** Pattern modules of the `hyphen` package by BCP 47 tag, most specific first. */
const ALIASES: Record<string, string> = {
  en: 'en-us',
  'en-us': 'en-us',
  'en-gb': 'en-gb',
  'en-au': 'en-gb',
  'en-nz': 'en-gb',
  'en-ie': 'en-gb',
  de: 'de-1996',
  'de-de': 'de-1996',
  'de-at': 'de-1996',
  'de-ch': 'de-ch-1901',
  nb: 'nb',
  nn: 'nn',
  no: 'nb',
  el: 'el-monoton',
  sr: 'sr-cyrl',
  mn: 'mn-cyrl',
  zh: '',
  ja: '',
  ko: '',
};

const cache = new Map<string, Hyphenator | null>();

/** The hyphenator for a language, or null when Quire has no patterns for it. */
export function hyphenatorFor(language: string): Hyphenator | null {
  const tag = language.toLowerCase();
  if (cache.has(tag)) return cache.get(tag)!;
  const hyphenator = load(tag);
  cache.set(tag, hyphenator);
  return hyphenator;
}

function load(tag: string): Hyphenator | null {
  const parts = tag.split('-');
  const candidates = [ALIASES[`${parts[0]}-${parts[1]}`], ALIASES[parts[0]!], `${parts[0]}-${parts[1]}`, parts[0]];
  for (const name of candidates) {
    if (!name || !/^[a-z0-9-]+$/.test(name)) continue;
    let patterns: Patterns;
    try {
      patterns = require(`hyphen/${name}/index.js`) as Patterns;
    } catch {
      continue;
    }
    return memoised(patterns);
  }
  return null;
}

function memoised(patterns: Patterns): Hyphenator {
  const words = new Map<string, readonly number[]>();
  return (word: string) => {
    let points = words.get(word);
    if (points) return points;
    points =
      word.length < MIN_WORD || !HYPHENATABLE(word)
        ? []
        : softHyphenOffsets(patterns.hyphenateSync(word, { hyphenChar: SOFT_HYPHEN, minWordLength: MIN_WORD }));
    if (words.size > 100_000) words.clear();
    words.set(word, points);
    return points;
  };
}

/** Offsets in the original word of the soft hyphens the patterns inserted, keeping 2 letters before and 3 after. */
function softHyphenOffsets(hyphenated: string): number[] {
  const points: number[] = [];
  let offset = 0;
  for (const char of hyphenated) {
    if (char === SOFT_HYPHEN) points.push(offset);
    else offset += char.length;
  }
  return points.filter((point) => point >= 2 && offset - point >= 3);
}
