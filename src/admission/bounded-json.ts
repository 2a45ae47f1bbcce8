/**
 * JSON request bodies read within bounds known before `JSON.parse` runs. The body's size is
 * bounded by the account's ceiling before it gets here; its nesting depth and its number of
 * values are bounded here, by a byte scan that skips over strings, so that what JSON.parse is
 * left with is linear work: a body of forty million empty arrays (seconds of parsing and
 * gigabytes of objects) is refused after one pass over its bytes.
 *
 * Pure and synchronous, so that json-body.ts can run it on the event loop for small bodies and
 * in a worker thread (json-worker.ts) for large ones.
 */

/** An MCP batch → message → params → arguments → features is five deep; room for any client's extras. */
export const MAX_JSON_DEPTH = 32;
/**
 * Arrays, objects and the items and members after a comma, counted together: a render body has
 * a few dozen, a batch of MCP calls (at most 100) a few thousand.
 */
export const MAX_JSON_VALUES = 10_000;

export type JsonOutcome = { ok: true; value: unknown } | { ok: false; refusal: JsonRefusal };
export type JsonRefusal = 'invalid_encoding' | 'invalid_json' | 'json_depth_limit' | 'json_value_limit';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;

export function readBoundedJson(bytes: Uint8Array): JsonOutcome {
  const shape = shapeRefusal(bytes);
  if (shape) return { ok: false, refusal: shape };
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, refusal: 'invalid_encoding' };
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, refusal: 'invalid_json' };
  }
}

/** Counts nesting and values outside strings; what is not JSON at all is left for JSON.parse to refuse. */
function shapeRefusal(bytes: Uint8Array): JsonRefusal | undefined {
  let depth = 0;
  let values = 0;
  for (let at = 0; at < bytes.length; at += 1) {
    const byte = bytes[at]!;
    if (byte === QUOTE) {
      at = closingQuote(bytes, at);
    } else if (byte === OPEN_ARRAY || byte === OPEN_OBJECT) {
      if (++depth > MAX_JSON_DEPTH) return 'json_depth_limit';
      if (++values > MAX_JSON_VALUES) return 'json_value_limit';
    } else if (byte === CLOSE_ARRAY || byte === CLOSE_OBJECT) {
      depth -= 1;
    } else if (byte === COMMA && ++values > MAX_JSON_VALUES) {
      return 'json_value_limit';
    }
  }
  return undefined;
}

/**
 * Where the string opened at `open` ends: the next quote not escaped, i.e. not after an odd run
 * of backslashes (found by the native indexOf, so a long string costs little); the end of the
 * bytes when the string is never closed.
 */
function closingQuote(bytes: Uint8Array, open: number): number {
  for (let from = open + 1; ; ) {
    const quote = bytes.indexOf(QUOTE, from);
    if (quote < 0) return bytes.length;
    let backslashes = 0;
    while (bytes[quote - 1 - backslashes] === BACKSLASH) backslashes += 1;
    if (backslashes % 2 === 0) return quote;
    from = quote + 1;
  }
}
