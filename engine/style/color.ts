/** An sRGB colour as three 0–255 channels: the one colour type of the engine, from settings to paint. */
export type Color = readonly [number, number, number];

/** `#rgb` or `#rrggbb` (the `#` may be left out); null when it is neither. */
export function parseHexColor(value: unknown): Color | null {
  if (typeof value !== 'string') return null;
  const match = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(value.trim());
  if (!match) return null;
  const hex = match[1]!.length === 3 ? [...match[1]!].map((digit) => digit + digit).join('') : match[1]!;
  return [0, 2, 4].map((at) => parseInt(hex.slice(at, at + 2), 16)) as unknown as Color;
}

export function hexOf(color: Color): string {
  return `#${color.map((channel) => channel.toString(16).padStart(2, '0')).join('')}`;
}
