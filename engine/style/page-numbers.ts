export type PageNumberStyle = 'arabic' | 'roman';
export const PAGE_NUMBER_STYLES: readonly PageNumberStyle[] = ['arabic', 'roman'];

const ROMAN: ReadonlyArray<readonly [number, string]> = [
  [1000, 'm'],
  [900, 'cm'],
  [500, 'd'],
  [400, 'cd'],
  [100, 'c'],
  [90, 'xc'],
  [50, 'l'],
  [40, 'xl'],
  [10, 'x'],
  [9, 'ix'],
  [5, 'v'],
  [4, 'iv'],
  [1, 'i'],
];

/** A page number as printed: `12`, or lower-case Roman `xii` as front matter pages are numbered. */
export function formatPageNumber(page: number, style: PageNumberStyle): string {
  if (style === 'arabic') return String(page);
  let rest = page;
  let out = '';
  for (const [value, letters] of ROMAN) {
    while (rest >= value) {
      out += letters;
      rest -= value;
    }
  }
  return out;
}
