import type { AlertKind } from './alert-kinds.js';
import { hexOf, type Color } from './color.js';
import { contrastRatio, LEAST_CONTRAST, readableOn } from './contrast.js';
import type { Theme } from './theme.js';

/** The colours a document is drawn in, one set per theme. */
export interface Palette {
  page: Color | null;
  text: Color;
  /** Headings and the title: the text's colour, or the accent. */
  heading: Color;
  muted: Color;
  link: Color;
  rule: Color;
  codeBackground: Color;
  codeText: Color;
  tableHeader: Color;
  quoteRule: Color;
  missingGlyph: Color;
  /** Behind `<mark>` text. */
  highlight: Color;
  /** A GitHub alert's rule, icon and title: GitHub's own colours, at least 4.5:1 on the page. */
  alerts: Readonly<Record<AlertKind, Color>>;
}

const LIGHT: Palette = {
  page: null,
  text: [0x1f, 0x23, 0x28],
  heading: [0x1f, 0x23, 0x28],
  muted: [0x59, 0x63, 0x6e],
  link: [0x09, 0x5d, 0xc8],
  rule: [0xd1, 0xd9, 0xe0],
  codeBackground: [0xf6, 0xf8, 0xfa],
  codeText: [0x1f, 0x23, 0x28],
  tableHeader: [0xf0, 0xf3, 0xf6],
  quoteRule: [0xd1, 0xd9, 0xe0],
  missingGlyph: [0xcf, 0x22, 0x2e],
  highlight: [0xff, 0xf8, 0xc5],
  alerts: { note: [0x09, 0x69, 0xda], tip: [0x1a, 0x7f, 0x37], important: [0x82, 0x50, 0xdf], warning: [0x9a, 0x67, 0x00], caution: [0xd1, 0x24, 0x2f] },
};

const DARK: Palette = {
  page: [0x0d, 0x11, 0x17],
  text: [0xe6, 0xed, 0xf3],
  heading: [0xe6, 0xed, 0xf3],
  muted: [0x9d, 0xa7, 0xb3],
  link: [0x58, 0xa6, 0xff],
  rule: [0x3d, 0x44, 0x4d],
  codeBackground: [0x16, 0x1b, 0x22],
  codeText: [0xe6, 0xed, 0xf3],
  tableHeader: [0x16, 0x1b, 0x22],
  quoteRule: [0x3d, 0x44, 0x4d],
  missingGlyph: [0xff, 0x7b, 0x72],
  highlight: [0x4b, 0x3b, 0x0c],
  alerts: { note: [0x44, 0x93, 0xf8], tip: [0x3f, 0xb9, 0x50], important: [0xab, 0x7d, 0xf8], warning: [0xd2, 0x99, 0x22], caution: [0xf8, 0x51, 0x49] },
};

export function palette(theme: Theme): Palette {
  return theme === 'dark' ? DARK : LIGHT;
}

const WHITE: Color = [255, 255, 255];

/** The theme's palette with links and headings in the accent, made readable on the page when it is not (with a warning). */
export function accented(base: Palette, accent: Color | null, warn: (message: string) => void): Palette {
  if (accent === null) return base;
  const page = base.page ?? WHITE;
  const drawn = readableOn(accent, page);
  if (drawn.some((channel, index) => channel !== accent[index])) {
    warn(
      `accent ${hexOf(accent)} has a contrast of ${contrastRatio(accent, page).toFixed(1)}:1 on the page, below ${LEAST_CONTRAST}:1: drawn as ${hexOf(drawn)}`,
    );
  }
  return { ...base, link: drawn, heading: drawn };
}
