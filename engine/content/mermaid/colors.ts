import type { Theme } from '../../style/theme.js';
import { palette } from '../../style/palette.js';
import type { Color } from '../../style/color.js';

/** The colours every diagram draws with, for one theme. */
export interface DiagramColors {
  /** What the diagram sits on: the page colour (white for light pages). */
  background: Color;
  text: Color;
  muted: Color;
  /** Connectors, axes and grid lines. */
  line: Color;
  grid: Color;
  /** Node boxes: a faint tint with a quiet border. */
  surface: Color;
  border: Color;
  accent: Color;
  /** Categorical colours for slices, branches and series: saturated enough to tell apart. */
  series: readonly Color[];
  /** Soft fills of the same hues, for boxes with text on them. */
  tints: readonly Color[];
}

const hex = (value: string): Color => [Number.parseInt(value.slice(1, 3), 16), Number.parseInt(value.slice(3, 5), 16), Number.parseInt(value.slice(5, 7), 16)];

// Series: the Tableau 10 hues (designed to be told apart, also by most colour-blind readers),
// lifted slightly for the dark page. Tints: the same hues mixed far towards the page.
const LIGHT_SERIES = ['#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#76b7b2', '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#bab0ac'].map(hex);
const DARK_SERIES = ['#6f9fd8', '#f5a35c', '#7cc26f', '#ef7f81', '#8fd0cb', '#f2d66b', '#c79cbd', '#ffb3bb', '#c19a82', '#cfc6c2'].map(hex);

const LIGHT_PAGE: Color = [255, 255, 255];

export function diagramColors(theme: Theme): DiagramColors {
  const page = palette(theme);
  if (theme === 'dark') {
    const background = page.page ?? hex('#0d1117');
    return {
      background,
      text: page.text,
      muted: page.muted,
      line: hex('#8b949e'),
      grid: hex('#30363d'),
      surface: hex('#161b22'),
      border: hex('#4a5562'),
      accent: page.link,
      series: DARK_SERIES,
      tints: DARK_SERIES.map((color) => mix(color, background, 0.3)),
    };
  }
  return {
    background: LIGHT_PAGE,
    text: page.text,
    muted: page.muted,
    line: hex('#6e7781'),
    grid: hex('#d8dee4'),
    surface: hex('#f6f8fa'),
    border: hex('#aeb8c2'),
    accent: page.link,
    series: LIGHT_SERIES,
    tints: LIGHT_SERIES.map((color) => mix(color, LIGHT_PAGE, 0.22)),
  };
}

/** `share` of `color` over `base`, as CSS color-mix in sRGB. */
export function mix(color: Color, base: Color, share: number): Color {
  return [0, 1, 2].map((channel) => Math.round(color[channel]! * share + base[channel]! * (1 - share))) as unknown as Color;
}

/** The n-th categorical colour, cycling. */
export function seriesColor(colors: DiagramColors, index: number): Color {
  return colors.series[index % colors.series.length]!;
}

export function tintColor(colors: DiagramColors, index: number): Color {
  return colors.tints[index % colors.tints.length]!;
}

/** Dark or light text, whichever reads better on `fill` (WCAG relative luminance). */
export function textOn(fill: Color, colors: DiagramColors): Color {
  const dark = luminance(colors.text) < 0.5 ? colors.text : colors.background;
  const light = luminance(colors.text) < 0.5 ? colors.background : colors.text;
  return contrast(fill, dark) >= contrast(fill, light) ? dark : light;
}

export function cssColor(color: Color): string {
  return `#${color.map((channel) => channel.toString(16).padStart(2, '0')).join('')}`;
}

function luminance(color: Color): number {
  const linear = color.map((channel) => {
    const value = channel / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * linear[0]! + 0.7152 * linear[1]! + 0.0722 * linear[2]!;
}

/** WCAG contrast ratio of two colours, 1 to 21. */
export function contrast(a: Color, b: Color): number {
  const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (high + 0.05) / (low + 0.05);
}
