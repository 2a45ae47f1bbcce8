/**
 * The letters that must share a face with one the text face lacks: the rest of its word in the
 * same script, with their combining marks. A polytonic Greek word ("ἄλγεα") then comes out of
 * one fallback face, instead of its plain letters in the text face and its accented ones in
 * another design; a Latin word beside a Chinese one keeps its own face, as do digits and
 * punctuation.
 */

const MARK = /\p{M}/u;
const LETTER = /\p{L}/u;
type Script = 'latin' | 'greek' | 'cyrillic' | 'other';
/** Scripts the text face draws in part (it has their common letters), told apart; every other script is one class. */
const PARTLY_COVERED: readonly [Script, RegExp][] = [
  ['latin', /\p{Script=Latin}/u],
  ['greek', /\p{Script=Greek}/u],
  ['cyrillic', /\p{Script=Cyrillic}/u],
];

/** A letter's script, 'mark' for a combining mark, null for anything else. */
type LetterClass = Script | 'mark' | null;

function letterClass(char: string): LetterClass {
  if (MARK.test(char)) return 'mark';
  // By script first: Greek's koronis and tonos (᾽ ΄) are modifier symbols, yet part of the word.
  for (const [name, script] of PARTLY_COVERED) if (script.test(char)) return name;
  return LETTER.test(char) ? 'other' : null;
}

/**
 * The run, as [start, end) UTF-16 offsets within [from, to), of letters of one script (and the
 * marks on them) around the character at `index`; just that character, with any marks after
 * it, when it is not a letter.
 */
export function letterRun(text: string, index: number, from: number, to: number): [number, number] {
  let script = letterClass(charAt(text, index));
  // A mark takes the script of the letter it sits on.
  for (let back = index; script === 'mark' && back > from; ) {
    back = previousStart(text, back, from);
    script = letterClass(charAt(text, back));
  }
  const belongs = (char: string) => {
    const kind = letterClass(char);
    return kind === 'mark' || (kind !== null && kind === script);
  };
  let start = index;
  if (script !== null && script !== 'mark') {
    while (start > from) {
      const before = previousStart(text, start, from);
      if (!belongs(charAt(text, before))) break;
      start = before;
    }
  }
  let end = index + charAt(text, index).length;
  while (end < to) {
    const char = charAt(text, end);
    if (script === null || script === 'mark' ? letterClass(char) !== 'mark' : !belongs(char)) break;
    end += char.length;
  }
  return [start, end];
}

/** Zero-width joiners and variation selectors: shaping consumes them, so a face need not map them. */
export function isJoinerOrSelector(codePoint: number): boolean {
  return codePoint === 0x200c || codePoint === 0x200d || (codePoint >= 0xfe00 && codePoint <= 0xfe0f) || (codePoint >= 0xe0100 && codePoint <= 0xe01ef);
}

function charAt(text: string, index: number): string {
  return String.fromCodePoint(text.codePointAt(index)!);
}

function previousStart(text: string, index: number, from: number): number {
  const low = text.charCodeAt(index - 1);
  return low >= 0xdc00 && low <= 0xdfff && index - 2 >= from ? index - 2 : index - 1;
}
