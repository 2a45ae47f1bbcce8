/**
 * A test by a Unicode property pattern that tries its ASCII twin on ASCII text. V8 builds a
 * `\p{…}` class into a large matcher when it is first used — up to a millisecond each, at every
 * start — and most text is ASCII, for which the twin must say exactly what the pattern says.
 */
export interface AsciiFirst {
  (text: string): boolean;
  readonly unicode: RegExp;
  readonly ascii: RegExp;
}

export function asciiFirst(unicode: RegExp, ascii: RegExp): AsciiFirst {
  return Object.assign((text: string) => (NON_ASCII.test(text) ? unicode : ascii).test(text), { unicode, ascii });
}

const NON_ASCII = /[^\x00-\x7f]/;
