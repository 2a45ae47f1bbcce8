import type { DesignSettings } from '../style/design-settings.js';
import { formatPageNumber } from '../style/page-numbers.js';
import { fillTemplate, RUNNING_SLOTS, type PlaceholderValues, type RunningLine } from '../style/running-lines.js';
import type { FrameItem, OutlineEntry } from './frame.js';
import type { PageGeometry } from '../style/page-geometry.js';
import { METRICS } from '../style/metrics.js';
import { labelWidth, placedLabel } from './blocks/label.js';
import { shortened, slotLimits } from './running-line-fit.js';
import { bodyLook } from './blocks/looks.js';
import type { LayoutContext } from './blocks/context.js';

/** What the placeholders other than the page's own stand for. */
export interface DocumentValues {
  title: string;
  author: string;
  date: string;
}

/** What one page's header and footer need to know about it. */
export interface PageFacts {
  /** 1-based. */
  number: number;
  count: number;
  geometry: PageGeometry;
  /** The H1 or H2 this page is in ({section}), or empty. */
  section: string;
  /** The title page: no header or footer. */
  titlePage: boolean;
}

/**
 * A page's header and footer, filled in: left-aligned at the text block's left edge, centred on
 * it, right-aligned at its right edge, small and in the muted colour. Page furniture: artifacts,
 * outside the structure tree.
 */
export function runningLineItems(page: PageFacts, design: DesignSettings, document: DocumentValues, context: LayoutContext): FrameItem[] {
  if (page.titlePage) return [];
  const values: PlaceholderValues = {
    ...document,
    section: page.section,
    page: formatPageNumber(page.number, design.pageNumbers),
    pages: formatPageNumber(page.count, design.pageNumbers),
  };
  const { geometry } = page;
  const items: FrameItem[] = [];
  const showHeader = page.number > 1 || design.headerFirstPage;
  if (showHeader) items.push(...lineItems(design.header, geometry.headerBaseline, geometry, values, context));
  items.push(...lineItems(design.footer, geometry.footerBaseline, geometry, values, context));
  return items;
}

/** Between the texts of a running line, at the least: two ems of its type. */
const SLOT_GAP_EM = 2;
/** No character of a running line is wider than this (UTF-16 units: an emoji's two count twice). */
const WIDEST_CHARACTER_EM = 1.1;

function lineItems(line: RunningLine, baseline: number, geometry: PageGeometry, values: PlaceholderValues, context: LayoutContext): FrameItem[] {
  const look = { ...bodyLook(context.palette), size: METRICS.footerSize, color: context.palette.muted };
  const x = { left: geometry.marginInner, center: geometry.marginInner + geometry.contentWidth / 2, right: geometry.marginInner + geometry.contentWidth };
  const placed = (text: string, slot: (typeof RUNNING_SLOTS)[number]) =>
    text === '' ? [] : placedLabel(text, look, { x: x[slot], align: slot }, baseline, null, context);
  const texts = { left: '', center: '', right: '' };
  for (const slot of RUNNING_SLOTS) texts[slot] = line[slot] === null ? '' : fillTemplate(line[slot], values).trim();
  const gap = SLOT_GAP_EM * METRICS.footerSize;
  // Most lines are short: laid out once, unmeasured, when even a generous bound on each text's
  // width fits its place (narrower texts leave every place at least as wide).
  const bound = (text: string) => text.length * WIDEST_CHARACTER_EM * METRICS.footerSize;
  const bounds = { left: bound(texts.left), center: bound(texts.center), right: bound(texts.right) };
  const roomy = slotLimits(bounds, geometry.contentWidth, gap);
  if (RUNNING_SLOTS.every((slot) => bounds[slot] <= roomy[slot])) return RUNNING_SLOTS.flatMap((slot) => placed(texts[slot], slot));
  const measure = (text: string) => (text === '' ? 0 : labelWidth(text, look, context));
  const widths = { left: measure(texts.left), center: measure(texts.center), right: measure(texts.right) };
  // A long title or section is shortened with an ellipsis rather than run into its neighbour.
  const limits = slotLimits(widths, geometry.contentWidth, gap);
  return RUNNING_SLOTS.flatMap((slot) => placed(widths[slot] <= limits[slot] + 0.01 ? texts[slot] : shortened(texts[slot], limits[slot], measure), slot));
}

/**
 * The section each page is in, for `{section}`: the first H1 or H2 that begins on the page, else
 * the last one begun before it.
 */
export function pageSections(pageDests: readonly (readonly string[])[], outline: readonly OutlineEntry[]): string[] {
  const sections = new Map(outline.filter((entry) => entry.level === 1 || entry.level === 2).map((entry) => [entry.dest, entry.title]));
  let current = '';
  return pageDests.map((dests) => {
    const titles = dests.flatMap((dest) => (sections.has(dest) ? [sections.get(dest)!] : []));
    const shown = titles[0] ?? current;
    current = titles.at(-1) ?? current;
    return shown;
  });
}
