/**
 * Just enough PDF syntax to rewrite a dictionary in an incremental update: objects are read into
 * dictionaries, arrays and references, every other token kept as its exact bytes, and written
 * back the same way. Bytes are handled as latin1 strings, one character per byte.
 */

export type PdfValue =
  | { kind: 'dict'; entries: Map<string, PdfValue> }
  | { kind: 'array'; items: PdfValue[] }
  | { kind: 'ref'; num: number; gen: number }
  /** A name, number, string, boolean, null or keyword, exactly as written. */
  | { kind: 'token'; raw: string };

export class PdfSyntaxError extends Error {}

const WHITESPACE = new Set(['\0', '\t', '\n', '\f', '\r', ' ']);
const DELIMITERS = new Set(['(', ')', '<', '>', '[', ']', '{', '}', '/', '%']);
const MAX_DEPTH = 64;

export const ref = (num: number, gen = 0): PdfValue => ({ kind: 'ref', num, gen });
export const token = (raw: string): PdfValue => ({ kind: 'token', raw });

export function refOf(value: PdfValue | undefined): { num: number; gen: number } {
  if (value?.kind !== 'ref') throw new PdfSyntaxError('expected a reference');
  return value;
}

/** The raw text of a name, number or other token. */
export function tokenOf(value: PdfValue | undefined): string {
  if (value?.kind !== 'token') throw new PdfSyntaxError('expected a number or name');
  return value.raw;
}

export class PdfReader {
  constructor(
    private readonly text: string,
    public position: number,
  ) {}

  /** The value starting here (after whitespace and comments). */
  value(depth = 0): PdfValue {
    if (depth > MAX_DEPTH) throw new PdfSyntaxError('nesting too deep');
    this.skipSpace();
    const { text } = this;
    if (text.startsWith('<<', this.position)) return this.dict(depth);
    if (text[this.position] === '[') return this.array(depth);
    const first = this.token();
    if (/^\d+$/.test(first)) {
      // `num gen R` is a reference; look ahead without consuming anything else.
      const save = this.position;
      this.skipSpace();
      const second = this.peekToken();
      if (second !== undefined && /^\d+$/.test(second)) {
        this.token();
        this.skipSpace();
        if (this.peekToken() === 'R') {
          this.token();
          return ref(Number(first), Number(second));
        }
      }
      this.position = save;
    }
    return token(first);
  }

  /** Skips past `keyword`, which must come next. */
  expect(keyword: string): void {
    this.skipSpace();
    if (this.token() !== keyword) throw new PdfSyntaxError(`expected ${keyword}`);
  }

  skipSpace(): void {
    const { text } = this;
    while (this.position < text.length) {
      const char = text[this.position]!;
      if (WHITESPACE.has(char)) this.position++;
      else if (char === '%') while (this.position < text.length && text[this.position] !== '\n' && text[this.position] !== '\r') this.position++;
      else break;
    }
  }

  private dict(depth: number): PdfValue {
    this.position += 2;
    const entries = new Map<string, PdfValue>();
    for (;;) {
      this.skipSpace();
      if (this.text.startsWith('>>', this.position)) {
        this.position += 2;
        return { kind: 'dict', entries };
      }
      const key = this.token();
      if (!key.startsWith('/')) throw new PdfSyntaxError('dictionary key is not a name');
      entries.set(key, this.value(depth + 1));
    }
  }

  private array(depth: number): PdfValue {
    this.position++;
    const items: PdfValue[] = [];
    for (;;) {
      this.skipSpace();
      if (this.text[this.position] === ']') {
        this.position++;
        return { kind: 'array', items };
      }
      items.push(this.value(depth + 1));
    }
  }

  private peekToken(): string | undefined {
    const save = this.position;
    try {
      return this.token();
    } catch {
      return undefined;
    } finally {
      this.position = save;
    }
  }

  /** One token other than a dictionary or array: a string, hex string, name, number or keyword. */
  private token(): string {
    const { text } = this;
    const start = this.position;
    const char = text[start];
    if (char === undefined) throw new PdfSyntaxError('unexpected end');
    if (char === '(') this.position = literalStringEnd(text, start);
    else if (char === '<') {
      const end = text.indexOf('>', start);
      if (end < 0) throw new PdfSyntaxError('unterminated hex string');
      this.position = end + 1;
    } else {
      this.position++; // a name's slash, or the first regular character
      while (this.position < text.length && !WHITESPACE.has(text[this.position]!) && !DELIMITERS.has(text[this.position]!)) {
        this.position++;
      }
      if (this.position === start + 1 && char !== '/' && DELIMITERS.has(char)) throw new PdfSyntaxError(`unexpected ${char}`);
    }
    return text.slice(start, this.position);
  }
}

/** Past the `)` that balances the `(` at `start`, honouring backslash escapes. */
function literalStringEnd(text: string, start: number): number {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const char = text[i];
    if (char === '\\') i++;
    else if (char === '(') depth++;
    else if (char === ')' && --depth === 0) return i + 1;
  }
  throw new PdfSyntaxError('unterminated string');
}

export function serialize(value: PdfValue): string {
  switch (value.kind) {
    case 'dict':
      return `<<${[...value.entries].map(([key, entry]) => `\n${key} ${serialize(entry)}`).join('')}\n>>`;
    case 'array':
      return `[${value.items.map(serialize).join(' ')}]`;
    case 'ref':
      return `${value.num} ${value.gen} R`;
    case 'token':
      return value.raw;
  }
}
