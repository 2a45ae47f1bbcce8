/**
 * A number as PDF content streams want it: short, three decimals at most, no exponent — what
 * `String(Math.round(value * 1000) / 1000)` writes, put together from integers: a page writes
 * thousands of numbers, and V8's shortest-decimal conversion of a fraction took several times
 * as long (a tenth of painting the CommonMark spec).
 */
export function num(value: number): string {
  const thousandths = Math.round(value * 1000);
  if (!(Math.abs(thousandths) < 1e15)) {
    if (!Number.isFinite(value)) throw new Error(`not a finite number: ${value}`);
    return String(thousandths / 1000);
  }
  if (thousandths === 0) return '0';
  const magnitude = Math.abs(thousandths);
  const whole = Math.floor(magnitude / 1000);
  const text = `${whole}${FRACTIONS[magnitude - whole * 1000]}`;
  return thousandths < 0 ? `-${text}` : text;
}

/** `.5`, `.25`, `.125` …: each number of thousandths as a decimal fraction without trailing zeros. */
const FRACTIONS = Array.from({ length: 1000 }, (_, thousandths) => (thousandths === 0 ? '' : `.${String(thousandths).padStart(3, '0').replace(/0+$/, '')}`));

/** A text string as UTF-16BE hex with a byte order mark: safe for any Unicode in any position. */
export function hexTextString(text: string): string {
  let hex = 'FEFF';
  for (let i = 0; i < text.length; i++) hex += text.charCodeAt(i).toString(16).padStart(4, '0');
  return `<${hex}>`;
}

/** Colours as operands, by colour: a document draws in a few colours thousands of times. */
const rgbOperands = new WeakMap<readonly [number, number, number], string>();

export function rgb(color: readonly [number, number, number]): string {
  let operands = rgbOperands.get(color);
  if (operands === undefined) {
    operands = `${num(color[0] / 255)} ${num(color[1] / 255)} ${num(color[2] / 255)}`;
    rgbOperands.set(color, operands);
  }
  return operands;
}

/**
 * A text string for a PDF object (an annotation's contents, a link's address, a structure
 * element's alternate text), written as PDFKit writes a JavaScript `String` — a literal for
 * ASCII, else UTF-16BE with a byte order mark, here in hex — without PDFKit's conversion of
 * every string to bytes and back, a tenth of writing a document's objects.
 */
export function textString(text: string): PdfOperand {
  return new PdfOperand(ASCII.test(text) ? `(${text.replace(/[\n\r\t\b\f()\\]/g, (char) => LITERAL_ESCAPES[char]!)})` : hexTextString(text));
}

const ASCII = /^[\x00-\x7f]*$/;
const LITERAL_ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f', '(': '\\(', ')': '\\)', '\\': '\\\\' };

/**
 * A value PDFKit writes as it is: its object writer turns anything that is not one of its own
 * kinds (nor a plain object, which the tag below keeps this from looking like) into `${value}`.
 */
export class PdfOperand {
  constructor(private readonly text: string) {}

  get [Symbol.toStringTag](): string {
    return 'PdfOperand';
  }

  toString(): string {
    return this.text;
  }
}
