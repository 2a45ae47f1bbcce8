import type { Color } from '../../style/color.js';

/** A colour with its alpha, as CSS writes them. */
export interface Rgba {
  color: Color;
  alpha: number;
}

const NAMED: Record<string, string> = {
  black: '000000',
  white: 'ffffff',
  red: 'ff0000',
  green: '008000',
  blue: '0000ff',
  yellow: 'ffff00',
  cyan: '00ffff',
  aqua: '00ffff',
  magenta: 'ff00ff',
  fuchsia: 'ff00ff',
  gray: '808080',
  grey: '808080',
  silver: 'c0c0c0',
  maroon: '800000',
  olive: '808000',
  lime: '00ff00',
  navy: '000080',
  purple: '800080',
  teal: '008080',
  orange: 'ffa500',
  pink: 'ffc0cb',
  brown: 'a52a2a',
  gold: 'ffd700',
  indigo: '4b0082',
  violet: 'ee82ee',
  crimson: 'dc143c',
  coral: 'ff7f50',
  salmon: 'fa8072',
  khaki: 'f0e68c',
  beige: 'f5f5dc',
  ivory: 'fffff0',
  lavender: 'e6e6fa',
  tomato: 'ff6347',
  orchid: 'da70d6',
  plum: 'dda0dd',
  tan: 'd2b48c',
  turquoise: '40e0d0',
  skyblue: '87ceeb',
  steelblue: '4682b4',
  royalblue: '4169e1',
  slategray: '708090',
  slategrey: '708090',
  darkgray: 'a9a9a9',
  darkgrey: 'a9a9a9',
  lightgray: 'd3d3d3',
  lightgrey: 'd3d3d3',
  dimgray: '696969',
  dimgrey: '696969',
  gainsboro: 'dcdcdc',
  whitesmoke: 'f5f5f5',
  darkred: '8b0000',
  darkgreen: '006400',
  darkblue: '00008b',
  darkorange: 'ff8c00',
  lightblue: 'add8e6',
  lightgreen: '90ee90',
  lightyellow: 'ffffe0',
  lightpink: 'ffb6c1',
  forestgreen: '228b22',
  seagreen: '2e8b57',
  firebrick: 'b22222',
  chocolate: 'd2691e',
  goldenrod: 'daa520',
  darkviolet: '9400d3',
  deepskyblue: '00bfff',
  dodgerblue: '1e90ff',
  mediumseagreen: '3cb371',
  limegreen: '32cd32',
  olivedrab: '6b8e23',
  sienna: 'a0522d',
  peru: 'cd853f',
  midnightblue: '191970',
  darkslategray: '2f4f4f',
  darkslategrey: '2f4f4f',
  cornflowerblue: '6495ed',
  mintcream: 'f5fffa',
  honeydew: 'f0fff0',
  aliceblue: 'f0f8ff',
  ghostwhite: 'f8f8ff',
  snow: 'fffafa',
  linen: 'faf0e6',
  wheat: 'f5deb3',
  moccasin: 'ffe4b5',
  peachpuff: 'ffdab9',
  mistyrose: 'ffe4e1',
  hotpink: 'ff69b4',
  deeppink: 'ff1493',
  mediumpurple: '9370db',
  rebeccapurple: '663399',
  darkcyan: '008b8b',
  cadetblue: '5f9ea0',
  powderblue: 'b0e0e6',
  lightcyan: 'e0ffff',
  darkkhaki: 'bdb76b',
  yellowgreen: '9acd32',
  springgreen: '00ff7f',
  lawngreen: '7cfc00',
  chartreuse: '7fff00',
  aquamarine: '7fffd4',
  darkolivegreen: '556b2f',
};

/** Parses a CSS colour: hex, rgb()/rgba(), hsl()/hsla(), a name, or color-mix() in sRGB. */
export function parseColor(value: string, currentColor: Rgba | null = null): Rgba | null {
  const text = value.trim().toLowerCase();
  if (text === 'none' || text === 'transparent') return null;
  if (text === 'currentcolor') return currentColor;
  if (text.startsWith('#')) return hex(text.slice(1));
  if (NAMED[text]) return hex(NAMED[text]!);
  const fn = /^(rgba?|hsla?|color-mix)\((.*)\)$/.exec(text);
  if (!fn) return null;
  if (fn[1] === 'color-mix') return colorMix(fn[2]!, currentColor);
  const parts = fn[2]!.split(/[\s,/]+/).filter(Boolean);
  if (parts.length < 3) return null;
  const alpha = parts[3] === undefined ? 1 : fraction(parts[3]);
  if (fn[1]!.startsWith('rgb')) {
    const channel = (part: string) => (part.endsWith('%') ? (parseFloat(part) / 100) * 255 : parseFloat(part));
    return rgba(channel(parts[0]!), channel(parts[1]!), channel(parts[2]!), alpha);
  }
  const [r, g, b] = hslToRgb(parseFloat(parts[0]!), parseFloat(parts[1]!) / 100, parseFloat(parts[2]!) / 100);
  return rgba(r, g, b, alpha);
}

function hex(digits: string): Rgba | null {
  const full = digits.length <= 4 ? [...digits].map((digit) => digit + digit).join('') : digits;
  if (!/^[0-9a-f]{6}([0-9a-f]{2})?$/.test(full)) return null;
  const value = (i: number) => parseInt(full.slice(i, i + 2), 16);
  return rgba(value(0), value(2), value(4), full.length === 8 ? value(6) / 255 : 1);
}

function rgba(r: number, g: number, b: number, alpha: number): Rgba | null {
  if ([r, g, b, alpha].some((n) => Number.isNaN(n))) return null;
  const clamp = (n: number) => Math.max(0, Math.min(255, Math.round(n)));
  return { color: [clamp(r), clamp(g), clamp(b)], alpha: Math.max(0, Math.min(1, alpha)) };
}

function fraction(part: string): number {
  return part.endsWith('%') ? parseFloat(part) / 100 : parseFloat(part);
}

function hslToRgb(h: number, s: number, l: number): [number, number, number] {
  const k = (n: number) => (n + h / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => l - a * Math.max(-1, Math.min(k(n) - 3, 9 - k(n), 1));
  return [f(0) * 255, f(8) * 255, f(4) * 255];
}

/** `color-mix(in srgb, A p%, B q%)`: a weighted average of two colours. */
function colorMix(args: string, currentColor: Rgba | null): Rgba | null {
  const parts = splitTopLevel(args, ',').map((part) => part.trim());
  if (parts.length !== 3 || !parts[0]!.startsWith('in ')) return null;
  const mix = (part: string) => {
    const match = /^(.*?)(?:\s+(\d+(?:\.\d+)?)%)?$/.exec(part)!;
    return { color: parseColor(match[1]!, currentColor), weight: match[2] === undefined ? null : Number(match[2]) / 100 };
  };
  const first = mix(parts[1]!);
  const second = mix(parts[2]!);
  if (!first.color || !second.color) return first.color ?? second.color;
  const p1 = first.weight ?? (second.weight === null ? 0.5 : 1 - second.weight);
  const p2 = second.weight ?? 1 - p1;
  const total = p1 + p2 || 1;
  const blend = (a: number, b: number) => (a * p1 + b * p2) / total;
  return rgba(
    blend(first.color.color[0], second.color.color[0]),
    blend(first.color.color[1], second.color.color[1]),
    blend(first.color.color[2], second.color.color[2]),
    blend(first.color.alpha, second.color.alpha),
  );
}

/** Splits on a separator outside parentheses. */
export function splitTopLevel(text: string, separator: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '(') depth++;
    else if (char === ')') depth--;
    else if (char === separator && depth === 0) {
      out.push(text.slice(start, i));
      start = i + 1;
    }
  }
  out.push(text.slice(start));
  return out;
}

/**
 * Replaces `var(--name, fallback)` with custom property values (which may themselves use
 * var()), up to a fixed depth so cycles end.
 */
export function resolveVars(value: string, properties: ReadonlyMap<string, string>, depth = 0): string {
  if (!value.includes('var(') || depth > 8) return value;
  let out = '';
  let i = 0;
  while (i < value.length) {
    const at = value.indexOf('var(', i);
    if (at === -1) {
      out += value.slice(i);
      break;
    }
    out += value.slice(i, at);
    let depthParen = 1;
    let j = at + 4;
    while (j < value.length && depthParen > 0) {
      if (value[j] === '(') depthParen++;
      else if (value[j] === ')') depthParen--;
      j++;
    }
    const [name, ...fallback] = splitTopLevel(value.slice(at + 4, j - 1), ',');
    const resolved = properties.get(name!.trim()) ?? fallback.join(',').trim();
    out += resolveVars(resolved, properties, depth + 1);
    i = j;
  }
  return out;
}

const UNIT_POINTS: Record<string, number> = { px: 0.75, pt: 1, pc: 12, in: 72, cm: 72 / 2.54, mm: 72 / 25.4, q: 72 / 101.6 };

/** A CSS length in points (em and ex relative to `fontSize` points); percentages of `reference`. */
export function lengthInPoints(value: string | undefined, fontSize: number, reference = 0): number | null {
  if (value === undefined) return null;
  const match = /^\s*(-?[\d.]+(?:e-?\d+)?)\s*([a-z%]*)\s*$/i.exec(value);
  if (!match) return null;
  const number = parseFloat(match[1]!);
  const unit = match[2]!.toLowerCase();
  if (Number.isNaN(number)) return null;
  if (unit === '') return number * 0.75;
  if (unit === 'em') return number * fontSize;
  if (unit === 'ex') return number * fontSize * 0.5;
  if (unit === '%') return (number / 100) * reference;
  const factor = UNIT_POINTS[unit];
  return factor === undefined ? null : number * factor;
}
