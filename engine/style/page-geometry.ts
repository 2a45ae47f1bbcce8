import type { DesignSettings } from './design-settings.js';
import { METRICS, typeScale } from './metrics.js';
import { sheetSize } from './paper.js';

const MM = 72 / 25.4;

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
 * (the default look asks 65–75; pdfLaTeX's article sets about 70). The text block is centred, so the
 * side margins follow from the paper: about 41 mm on A4, 43 mm on Letter.
 */
const MEASURE_EM = 34.5;
/** On a small sheet (A5) the measure gives way to side margins of at least this. */
const SMALLEST_SIDE_MARGIN = 18 * MM;

const MARGIN_TOP = 22 * MM;
const MARGIN_BOTTOM = 26 * MM;
/** A turned page holds a table, not running text: it takes the sheet's width less these. */
const LANDSCAPE_MARGIN_SIDE = 22 * MM;

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
