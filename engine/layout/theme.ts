import type { Theme } from '../options.js';
import type { DesignSettings } from '../design/settings.js';
import { sheetSize } from '../design/paper.js';
import { contrastRatio, hexOf, LEAST_CONTRAST, readableOn } from '../design/contrast.js';
import type { AlertKind } from '../parse/github-alerts.js';

/** An sRGB colour as three 0–255 channels. */
export type Color = readonly [number, number, number];

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

const MM = 72 / 25.4;

/** Sizes in points. One place for the whole look: TYPOGRAPHY.md in numbers. */
export const METRICS = {
  bodySize: 10.5,
  bodyLeading: 14.5,
  paragraphGap: 0.6 * 14.5,
  headingScale: [1.9, 1.5, 1.25, 1.1, 1.0, 1.0] as const,
  headingSpaceAbove: [1.6, 1.4, 1.2, 1.1, 1.0, 1.0] as const,
  headingSpaceBelow: 0.45,
  codeSize: 8.75,
  codeLeading: 11.75,
  codePadding: 6,
  inlineCodeScale: 0.9,
  /** `<kbd>` key caps: a little smaller than inline code, for their outline. */
  kbdScale: 0.82,
  smallSize: 8.75,
  smallLeading: 11.5,
  footerSize: 8.5,
  listIndent: 18,
  listLabelGap: 6,
  quoteIndent: 14,
  quoteRuleWidth: 2.25,
  /** Space inside an alert above its title and below its body, which its rule spans. */
  alertPadding: 4,
  /** An alert's icon, in ems of its title, and the space between icon and title. */
  alertIconSize: 1,
  alertIconGap: 5,
  tableCellPaddingX: 5,
  tableCellPaddingY: 3.5,
  ruleWidth: 0.6,
  scriptScale: 0.7,
  footnoteRuleLength: 72,
  /**
   * How far a code block may reach into each margin before it wraps: at the 72-character measure
   * a block widened by this holds 80 columns of code (most code is written to 80).
   */
  codeMarginReach: 34,
  footnoteGap: 10,
} as const;

export interface PageGeometry {
  width: number;
  height: number;
  marginTop: number;
  marginBottom: number;
  /** The text block's left edge. */
  marginInner: number;
  contentWidth: number;
  contentHeight: number;
  headerBaseline: number;
  footerBaseline: number;
}

/**
 * The measure: 34.5 em of body text, about 72 characters of English a line in Source Serif 4
 * (TYPOGRAPHY.md asks 65–75; pdfLaTeX's article sets about 70). The text block is centred, so the
 * side margins follow from the paper: about 41 mm on A4, 43 mm on Letter.
 */
const MEASURE_EM = 34.5;
/** On a small sheet (A5) the measure gives way to side margins of at least this. */
const SMALLEST_SIDE_MARGIN = 18 * MM;

const MARGIN_TOP = 22 * MM;
const MARGIN_BOTTOM = 26 * MM;
/** A turned page holds a table, not running text: it takes the sheet's width less these. */
const LANDSCAPE_MARGIN_SIDE = 22 * MM;

/**
 * How much larger than the theme's the document's type is. Layout works at the theme's sizes on
 * a page this much smaller, and the laid-out pages are scaled up by it: every size, leading and
 * space follows the body size, and the page keeps its real size.
 */
export function typeScale(design: DesignSettings): number {
  return design.fontSize / METRICS.bodySize;
}

/** The page the design asks for, in layout's units (see `typeScale`): Quire's centred measure, or the margins given. */
export function pageGeometry(design: DesignSettings): PageGeometry {
  const scale = typeScale(design);
  const real = realGeometry(design);
  if (scale === 1) return real;
  const shrunk = Object.fromEntries(Object.entries(real).map(([key, value]) => [key, value / scale]));
  return shrunk as unknown as PageGeometry;
}

function realGeometry(design: DesignSettings): PageGeometry {
  const { width, height } = sheetSize(design);
  const margin = design.margin;
  if (margin === null) return geometryOf(width, height, Math.min(MEASURE_EM * design.fontSize, width - 2 * SMALLEST_SIDE_MARGIN));
  // In layout's units, where the running lines' type has the theme's size (see `typeScale`).
  const scale = typeScale(design);
  // A margin too narrow to hold its running line clear of the text grows until it does (as LaTeX's
  // geometry makes room with includehead), so the line never meets the text or leaves the sheet.
  const top = Math.max(margin.top, drawsText(design.header) ? RUNNING_LINE_ROOM * scale : 0);
  const bottom = Math.max(margin.bottom, drawsText(design.footer) ? RUNNING_LINE_ROOM * scale : 0);
  return {
    width,
    height,
    marginTop: top,
    marginBottom: bottom,
    marginInner: margin.left,
    contentWidth: width - margin.left - margin.right,
    contentHeight: height - top - bottom,
    headerBaseline: Math.min(headerBaseline(top), top - (RUNNING_DESCENT + RUNNING_CLEARANCE) * scale),
    footerBaseline: height - Math.min(bottom / 2, bottom - (RUNNING_ASCENT + RUNNING_CLEARANCE) * scale),
  };
}

/** A running line's ascent above its baseline and descent below it: its face's own, accents and descenders included. */
const RUNNING_ASCENT = 1.1 * METRICS.footerSize;
const RUNNING_DESCENT = 0.35 * METRICS.footerSize;
/** Kept clear between a running line and the text block: half a line of body text. */
const RUNNING_CLEARANCE = 0.5 * METRICS.bodyLeading;
/** The least margin that holds a running line clear of the text and on the sheet. */
const RUNNING_LINE_ROOM = RUNNING_ASCENT + RUNNING_DESCENT + RUNNING_CLEARANCE;

function drawsText(line: DesignSettings['header']): boolean {
  return line.left !== null || line.center !== null || line.right !== null;
}

/** The same sheet turned sideways, for a table too wide for the upright page. */
export function landscape(geometry: PageGeometry): PageGeometry {
  return geometryOf(geometry.height, geometry.width, geometry.height - 2 * LANDSCAPE_MARGIN_SIDE);
}

function geometryOf(width: number, height: number, contentWidth: number): PageGeometry {
  return {
    width,
    height,
    marginTop: MARGIN_TOP,
    marginBottom: MARGIN_BOTTOM,
    marginInner: (width - contentWidth) / 2,
    contentWidth,
    contentHeight: height - MARGIN_TOP - MARGIN_BOTTOM,
    headerBaseline: headerBaseline(MARGIN_TOP),
    // Half the bottom margin up: 13 mm on Quire's own page.
    footerBaseline: height - MARGIN_BOTTOM / 2,
  };
}

/** A header sits a little below the middle of the top margin, as far from the text as a footer is. */
function headerBaseline(marginTop: number): number {
  return marginTop * 0.55;
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
    warn(`accent ${hexOf(accent)} has a contrast of ${contrastRatio(accent, page).toFixed(1)}:1 on the page, below ${LEAST_CONTRAST}:1: drawn as ${hexOf(drawn)}`);
  }
  return { ...base, link: drawn, heading: drawn };
}
