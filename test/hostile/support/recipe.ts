/**
 * Hostile requests are written in fixtures/hostile/manifest.json as small recipes and built here,
 * so a megabyte of nesting or a PNG declaring a billion pixels is a line, not a committed file.
 *
 * A Part builds bytes:
 *   "text"                                  UTF-8 text
 *   {"repeat": Part | Part[], "times": n}   n copies
 *   {"seq": "item {i}", "times": n}         n copies with {i} = 1…n
 *   {"stair": "- x", "indent": "  ", "times": n}   n lines, line i indented i times
 *   {"hex": "ff fe 00"}                     raw bytes (invalid UTF-8 and control bytes)
 *   {"base64": Part[]}                      the Base64 of the parts (for data: URIs)
 *   {"image": ImageSpec}                    image bytes (headers that declare any size)
 */
import { constants, deflateRawSync, deflateSync } from 'node:zlib';
import { pngFile } from '../../support/png-file.js';

export type Part =
  | string
  | { repeat: Part | Part[]; times: number }
  | { seq: string; times: number }
  | { stair: string; indent: string; times: number }
  | { hex: string }
  | { base64: Part[] }
  | { image: ImageSpec };

export interface ImageSpec {
  format: 'png' | 'jpeg' | 'gif' | 'webp';
  width: number;
  height: number;
  /** PNG: real pixel rows (all zero) deflated, RGBA; otherwise a token image stream. */
  pixels?: boolean;
  /** PNG: pixel data that inflates to this many zero bytes (MiB), whatever the size declared. */
  inflatesToMib?: number;
  /** Keep only the first n bytes. */
  truncate?: number;
}

export interface Recipe {
  /** Which of the suite's accounts sends it (default "pro"). */
  plan?: 'free' | 'pro';
  /** The raw body; sent as text/markdown unless `type` says otherwise. */
  body?: Part[];
  /** A JSON body: its fields, where {"$": Part[]} makes a string from parts. Serialised unless `jsonText` is given. */
  json?: Record<string, unknown>;
  /** Content-Type sent; null sends none. */
  type?: string | null;
  /** Extra header lines, sent byte for byte (latin1). */
  headers?: Part[][];
  /** Send no Authorization header. */
  anonymous?: boolean;
  method?: string;
  path?: string;
}

export interface BuiltRequest {
  method: string;
  path: string;
  headers: Buffer[];
  body: Buffer;
}

export function buildRequest(recipe: Recipe, apiKey: string): BuiltRequest {
  const headers: Buffer[] = [];
  if (!recipe.anonymous) headers.push(Buffer.from(`Authorization: Bearer ${apiKey}`));
  let body: Buffer;
  let type: string | null;
  if (recipe.json) {
    body = Buffer.from(JSON.stringify(jsonValue(recipe.json)));
    type = recipe.type === undefined ? 'application/json' : recipe.type;
  } else {
    body = bytes(recipe.body ?? []);
    type = recipe.type === undefined ? 'text/markdown' : recipe.type;
  }
  if (type !== null) headers.push(Buffer.from(`Content-Type: ${type}`, 'latin1'));
  for (const line of recipe.headers ?? []) headers.push(bytes(line, 'latin1'));
  return { method: recipe.method ?? 'POST', path: recipe.path ?? '/v1/render', headers, body };
}

function jsonValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(jsonValue);
  if (value !== null && typeof value === 'object') {
    if ('$' in value) return bytes((value as { $: Part[] }).$).toString('utf8');
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, jsonValue(inner)]));
  }
  return value;
}

/** The bytes of parts; text is UTF-8 (latin1 for header lines, whose bytes are sent as written). */
export function bytes(parts: Part[], text: BufferEncoding = 'utf8'): Buffer {
  return Buffer.concat(parts.map((part) => partBytes(part, text)));
}

function partBytes(part: Part, text: BufferEncoding): Buffer {
  if (typeof part === 'string') return Buffer.from(part, text);
  if ('repeat' in part) {
    const once = bytes(Array.isArray(part.repeat) ? part.repeat : [part.repeat], text);
    return Buffer.alloc(once.length * part.times, once);
  }
  if ('seq' in part) {
    return Buffer.from(Array.from({ length: part.times }, (_, i) => part.seq.replaceAll('{i}', String(i + 1))).join(''), text);
  }
  if ('stair' in part) {
    return Buffer.from(Array.from({ length: part.times }, (_, i) => `${part.indent.repeat(i)}${part.stair}\n`).join(''), text);
  }
  if ('hex' in part) return Buffer.from(part.hex.replace(/\s+/g, ''), 'hex');
  if ('base64' in part) return Buffer.from(bytes(part.base64, text).toString('base64'));
  return image(part.image);
}

function image(spec: ImageSpec): Buffer {
  const whole = { png, jpeg, gif, webp }[spec.format](spec);
  return spec.truncate === undefined ? whole : whole.subarray(0, spec.truncate);
}

function png(spec: ImageSpec): Buffer {
  // Every row: filter byte 0 and zero pixels; deflated, 196 MB of them take a few hundred KB.
  const rows =
    spec.inflatesToMib !== undefined
      ? zeroStream(spec.inflatesToMib)
      : deflateSync(spec.pixels ? Buffer.alloc((spec.width * 4 + 1) * spec.height) : Buffer.alloc(16), { level: 9 });
  return pngFile(spec.width, spec.height, 6, rows);
}

const MIB = 1 << 20;

/**
 * A zlib stream of `mib` MiB of zero bytes (about 1 KB per MiB), made without ever holding them:
 * one MiB deflated into blocks that end on a byte (a sync flush) repeated, a final empty block,
 * and the Adler-32 of that many zeros.
 */
function zeroStream(mib: number): Buffer {
  const oneMib = deflateRawSync(Buffer.alloc(MIB), { level: 9, finishFlush: constants.Z_SYNC_FLUSH });
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE(((((mib * MIB) % 65521) << 16) | 1) >>> 0);
  return Buffer.concat([Buffer.from([0x78, 0xda]), ...Array.from({ length: mib }, () => oneMib), Buffer.from([3, 0]), adler]);
}

function jpeg(spec: ImageSpec): Buffer {
  const frame = Buffer.from([0xff, 0xc0, 0, 17, 8, 0, 0, 0, 0, 3, 1, 0x11, 0, 2, 0x11, 0, 3, 0x11, 0]);
  frame.writeUInt16BE(spec.height, 5);
  frame.writeUInt16BE(spec.width, 7);
  const scan = Buffer.from([0xff, 0xda, 0, 12, 3, 1, 0, 2, 0x11, 3, 0x11, 0, 63, 0, 0x12, 0x34, 0xff, 0xd9]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), frame, scan]);
}

function gif(spec: ImageSpec): Buffer {
  const screen = Buffer.alloc(7);
  screen.writeUInt16LE(spec.width, 0);
  screen.writeUInt16LE(spec.height, 2);
  const frame = Buffer.alloc(10);
  frame[0] = 0x2c;
  frame.writeUInt16LE(spec.width, 5);
  frame.writeUInt16LE(spec.height, 7);
  // Minimum code size 2, one sub-block: clear, a pixel, end of information.
  return Buffer.concat([Buffer.from('GIF89a'), screen, frame, Buffer.from([2, 2, 0x44, 0x01, 0, 0x3b])]);
}

function webp(spec: ImageSpec): Buffer {
  const vp8x = Buffer.alloc(18);
  vp8x.write('VP8X', 0, 'latin1');
  vp8x.writeUInt32LE(10, 4);
  vp8x.writeUIntLE(spec.width - 1, 12, 3);
  vp8x.writeUIntLE(spec.height - 1, 15, 3);
  const riff = Buffer.alloc(12);
  riff.write('RIFF', 0, 'latin1');
  riff.writeUInt32LE(4 + vp8x.length, 4);
  riff.write('WEBP', 8, 'latin1');
  return Buffer.concat([riff, vp8x]);
}

/** The Markdown a recipe sends (raw body or JSON `markdown`) and its `resources` mode; null for requests that carry none. */
export function recipeMarkdown(recipe: Recipe): { markdown: string; resources?: 'strict' | 'lenient' } | null {
  if (recipe.method !== undefined || recipe.path !== undefined || recipe.headers !== undefined) return null;
  if (!recipe.json) return recipe.body ? { markdown: bytes(recipe.body).toString('utf8') } : null;
  const { markdown, resources } = jsonValue(recipe.json) as { markdown?: unknown; resources?: unknown };
  if (typeof markdown !== 'string') return null;
  return { markdown, ...((resources === 'strict' || resources === 'lenient') && { resources }) };
}
