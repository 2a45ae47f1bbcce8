/**
 * The bytes `quire render` is given, as text — or a refusal naming the file: a binary file (an
 * image or a program given by mistake) is not drawn as pages of boxes, and bytes that are not
 * UTF-8 are not quietly turned into U+FFFD (the service answers 400 `invalid_encoding` for the
 * same bytes). `--encoding` reads any encoding TextDecoder knows; a byte order mark is read as one
 * (UTF-8's is dropped, UTF-16's decides the encoding).
 */
import { isUtf8 } from 'node:buffer';
import { CliError } from '../cli-error.js';

/** How much of the start is looked at to tell text from binary. */
const SNIFF_LENGTH = 8192;
/**
 * More control characters than this share of the start is not text (random bytes hold about
 * 10%, text none but a stray one), once there are a few.
 */
const MOST_CONTROL_SHARE = 0.05;
const FEWEST_CONTROLS = 3;

/** The text of `bytes`, read from `name` (a path, or "standard input"); `encoding` null is UTF-8. */
export function decodeInput(bytes: Uint8Array, name: string, encoding: string | null): string {
  const utf16 = encoding === null ? utf16ByOrderMark(bytes) : null;
  if (encoding !== null || utf16 !== null) {
    const label = encoding ?? utf16!;
    if (isUtf8Label(label)) return decodeUtf8(bytes, name);
    return checkedText(decodeWith(bytes, name, label), name);
  }
  return decodeUtf8(bytes, name);
}

/** Checks `--encoding`'s value before anything is read: a name TextDecoder knows. */
export function checkEncoding(label: string): string {
  try {
    new TextDecoder(label);
  } catch {
    throw new CliError(`--encoding: "${label}" is not an encoding this Node.js can read (such as utf-8, latin1, windows-1252, utf-16le, shift_jis)`);
  }
  return label;
}

function isUtf8Label(label: string): boolean {
  return new TextDecoder(label).encoding === 'utf-8';
}

function utf16ByOrderMark(bytes: Uint8Array): string | null {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return null;
}

function decodeUtf8(bytes: Uint8Array, name: string): string {
  refuseBinary(bytes, name);
  if (!isUtf8(bytes)) throw new CliError(invalidUtf8(bytes, name), 1);
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function decodeWith(bytes: Uint8Array, name: string, label: string): string {
  const decoder = new TextDecoder(label, { fatal: true });
  if (decoder.encoding === 'windows-1252') return windows1252(bytes);
  try {
    return decoder.decode(bytes);
  } catch {
    throw new CliError(`${name} is not valid ${decoder.encoding} (as --encoding ${label} reads it)`, 1);
  }
}

/**
 * The Encoding standard's windows-1252, which its labels latin1, iso-8859-1 and ascii name too:
 * Latin-1 but for 0x80–0x9F, which hold € ‚ ƒ „ … † ‡ ˆ ‰ Š ‹ Œ Ž ‘ ’ “ ” • – — ˜ ™ š › œ ž Ÿ.
 * Decoded here because Node 20's TextDecoder reads them as C1 controls (as ISO-8859-1 does).
 */
function windows1252(bytes: Uint8Array): string {
  const latin1 = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  return latin1.replace(/[\x80-\x9f]/g, (char) => WINDOWS_1252_HIGH[char.charCodeAt(0) - 0x80]!);
}

/** 0x80–0x9F of windows-1252; the five bytes it leaves undefined stay their C1 controls, as the standard has it. */
const WINDOWS_1252_HIGH = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f, 0x90, 0x2018, 0x2019, 0x201c, 0x201d,
  0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
].map((code) => String.fromCharCode(code));

/** NUL bytes, or a large share of control bytes, near the start: an image, an archive, a program. */
function refuseBinary(bytes: Uint8Array, name: string): void {
  const start = bytes.subarray(0, SNIFF_LENGTH);
  const nul = start.indexOf(0);
  if (nul >= 0) {
    const utf16 = utf16WithoutMark(start);
    if (utf16)
      throw new CliError(
        `${name} is not a text file in UTF-8: it looks like ${utf16} text (NUL bytes between its letters); read it with --encoding ${utf16}`,
        1,
      );
    throw new CliError(`${name} is not a text file (a NUL byte at offset ${nul}): quire render reads Markdown text`, 1);
  }
  let control = 0;
  for (const byte of start) if (isControl(byte)) control++;
  if (control >= FEWEST_CONTROLS && control > start.length * MOST_CONTROL_SHARE) {
    throw new CliError(
      `${name} is not a text file (${control} of its first ${start.length} bytes are control characters): quire render reads Markdown text`,
      1,
    );
  }
}

/** Decoded text held to the same rule: `--encoding utf-16le` given a picture is still a picture. */
function checkedText(text: string, name: string): string {
  const start = text.slice(0, SNIFF_LENGTH);
  let control = 0;
  for (let i = 0; i < start.length; i++) {
    const code = start.charCodeAt(i);
    if (code === 0) throw new CliError(`${name} is not a text file (a NUL character at character ${i + 1})`, 1);
    if (isControl(code)) control++;
  }
  if (control >= FEWEST_CONTROLS && control > start.length * MOST_CONTROL_SHARE) {
    throw new CliError(`${name} is not a text file (${control} of its first ${start.length} characters are control characters)`, 1);
  }
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** C0 controls and DEL, but not tab, line feed, vertical tab, form feed, carriage return or escape. */
function isControl(code: number): boolean {
  return (code < 0x20 && !(code >= 0x09 && code <= 0x0d) && code !== 0x1b) || code === 0x7f;
}

/** ASCII text in UTF-16 without a byte order mark: NUL in every other byte, on one side only. */
function utf16WithoutMark(start: Uint8Array): string | null {
  let even = 0;
  let odd = 0;
  for (let i = 0; i < start.length; i++) if (start[i] === 0) i % 2 === 0 ? even++ : odd++;
  const pairs = Math.floor(start.length / 2);
  if (even === 0 && odd >= pairs * 0.5) return 'utf-16le';
  if (odd === 0 && even >= pairs * 0.5) return 'utf-16be';
  return null;
}

/** The first sequence that is not UTF-8, named by line, column (in characters) and byte offset. */
function invalidUtf8(bytes: Uint8Array, name: string): string {
  let line = 1;
  let lineStart = 0;
  let i = 0;
  while (i < bytes.length) {
    const byte = bytes[i]!;
    if (byte < 0x80) {
      if (byte === 0x0a) {
        line++;
        lineStart = i + 1;
      }
      i++;
      continue;
    }
    const length = sequenceLength(bytes, i);
    if (length === 0) {
      let column = 1;
      for (let j = lineStart; j < i; j++) if ((bytes[j]! & 0xc0) !== 0x80) column++;
      const after = bytes[i + 1];
      const shown = after === undefined ? `${hex(byte)} at the end` : `${hex(byte)}, then ${hex(after)}`;
      return (
        `${name}:${line}:${column}: not valid UTF-8 at byte offset ${i} (${shown}); ` +
        'a file in another encoding needs --encoding, such as --encoding windows-1252 (or latin1, utf-16le, …)'
      );
    }
    i += length;
  }
  // isUtf8 said otherwise; name the file at least.
  return `${name} is not valid UTF-8`;
}

function hex(byte: number): string {
  return `0x${byte.toString(16).toUpperCase().padStart(2, '0')}`;
}

/** The length of the well-formed UTF-8 sequence starting at `i` (Unicode's table 3-7), or 0. */
function sequenceLength(bytes: Uint8Array, i: number): number {
  const lead = bytes[i]!;
  const within = (offset: number, low = 0x80, high = 0xbf) => {
    const value = bytes[i + offset];
    return value !== undefined && value >= low && value <= high;
  };
  if (lead >= 0xc2 && lead <= 0xdf) return within(1) ? 2 : 0;
  if (lead === 0xe0) return within(1, 0xa0) && within(2) ? 3 : 0;
  if ((lead >= 0xe1 && lead <= 0xec) || lead === 0xee || lead === 0xef) return within(1) && within(2) ? 3 : 0;
  if (lead === 0xed) return within(1, 0x80, 0x9f) && within(2) ? 3 : 0;
  if (lead === 0xf0) return within(1, 0x90) && within(2) && within(3) ? 4 : 0;
  if (lead >= 0xf1 && lead <= 0xf3) return within(1) && within(2) && within(3) ? 4 : 0;
  if (lead === 0xf4) return within(1, 0x80, 0x8f) && within(2) && within(3) ? 4 : 0;
  return 0;
}
