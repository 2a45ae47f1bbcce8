import type { Color } from './color.js';

/** WCAG 2's AA contrast for body-sized text. */
export const LEAST_CONTRAST = 4.5;

/** WCAG 2's contrast ratio of two colours, from 1 to 21. */
export function contrastRatio(a: Color, b: Color): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

function luminance(color: Color): number {
  const [r, g, b] = color.map((channel) => {
    const value = channel / 255;
    return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/**
 * The accent as drawn on `background`: as given when it reads well enough there, else mixed
 * toward black (on a light page) or white (on a dark one) in small steps, keeping its hue, until
 * it reaches AA contrast.
 */
export function readableOn(accent: Color, background: Color): Color {
  if (contrastRatio(accent, background) >= LEAST_CONTRAST) return accent;
  const toward = luminance(background) > 0.5 ? 0 : 255;
  for (let step = 1; step <= 20; step++) {
    const mixed = accent.map((channel) => Math.round(channel + ((toward - channel) * step) / 20)) as unknown as Color;
    if (contrastRatio(mixed, background) >= LEAST_CONTRAST) return mixed;
  }
  return [toward, toward, toward];
}
