/**
 * The editor's preview: the document laid out exactly as the PDF will be, each page drawn from
 * its frames as SVG and rasterised by resvg. Layout is incremental: top-level blocks laid out
 * for an earlier preview are reused when their content and settings are the same, and only the
 * pages are cut anew. A page the caller already shows (its hash among `knownPages`) is not
 * rasterised again, so an edit redraws only the pages it changed — and of a changed page whose
 * earlier picture the caller shows (`shownPages`), only the band the edit changed; only pages within
 * DRAWN_AROUND of `focusPage` are drawn at all, so an answer stays small however long the document
 * (a later preview draws the others as they come into view).
 */
import { throwIfAborted } from '../errors.js';
import { loadResvg } from '../content/images/resvg.js';
import { layOutSources } from '../pipeline.js';
import { CodeBlockCache } from '../document/code-block-cache.js';
import { BlockCache } from '../layout/blocks/block-cache.js';
import type { RenderOptions } from '../options.js';
import type { PhaseTimings } from '../phase-clock.js';
import { noLoader } from '../resources/loader.js';
import { pageFingerprint } from './page-fingerprint.js';
import { changedBand, itemsInking, pageInk, type Band, type PageInk } from './page-ink.js';
import type { PageLine } from './page-line.js';
import { pageLines } from './page-lines.js';
import { pageSvg, tooDense, wholePage, type PixelRows } from './page-svg.js';
import { RecentlyUsed } from '../recently-used.js';

export interface PreviewOptions extends RenderOptions {
  /** Hashes of pages the caller already has: those come back without pixels. */
  knownPages?: readonly string[];
  /** Pixels per point (1 ≈ 72 dpi); default 1.5. */
  pixelsPerPoint?: number;
  /** The page (from 0) the caller is looking at: pages to draw are chosen nearest it first. */
  focusPage?: number;
  /** The hash of the picture the caller shows for each page (null: none), that a changed page's band may be laid over. */
  shownPages?: readonly (string | null)[];
}

/** How many pages before and after the one in view a preview draws (when the caller lacks them): a few screens. */
export const DRAWN_AROUND = 4;

export interface PreviewPage {
  /** Stable digest of the page's drawing: the same page, the same hash. */
  hash: string;
  /** Size in points. */
  width: number;
  height: number;
  /** PNG bytes, or null when the hash was among `knownPages` or the page is too far from the focus to draw now. */
  png: Uint8Array | null;
  /**
   * When the PNG holds only a band of the page: the picture (hash) it is laid over, and the band's
   * top and height in points. The PNG is as wide as the page, its rows the page's rows there.
   */
  band: { base: string; top: number; height: number } | null;
  /** The page's text lines with their baselines (null with the PNG): where a click on the page lands in the source. */
  lines: PageLine[] | null;
}

export interface PreviewResult {
  pages: PreviewPage[];
  warnings: string[];
  timings: PhaseTimings;
}

const DEFAULT_PIXELS_PER_POINT = 1.5;
/**
 * The most pixels one page's picture may have, known before resvg allocates its canvas (native
 * memory no worker heap limit bounds): an A4 page at 3 pixels a point, 18 MB of RGBA. A larger
 * page is drawn at the resolution that fits (a 200-inch page at about 0.15), never refused.
 */
export const MOST_PAGE_PIXELS = 4_500_000;
/** Laid-out blocks of the documents previewed in this process, so an edit lays out only what changed. */
const blocks = new BlockCache();
/** Their fenced blocks: a diagram is drawn once, not at every keystroke. */
const codeBlocks = new CodeBlockCache();
/**
 * What the pages drawn lately ink, by hash: a page changed from one of them draws only the band
 * that differs. Bounded by items, not pages — a page of tiny runs may hold thousands — at about
 * 150 bytes an item: 30 MB at most in each worker.
 */
export const MOST_INK_ITEMS = 200_000;
const drawnInk = new RecentlyUsed<string, PageInk>(MOST_INK_ITEMS, (ink) => ink.items.length + 1);

export async function renderPreview(markdown: string, options: PreviewOptions = {}): Promise<PreviewResult> {
  // Untagged: the structure tree draws nothing, and untagged layouts may reuse the blocks an earlier preview laid out.
  const untagged = { ...options, features: { ...options.features, tagged: false } };
  const { document, laidOut, clock } = await layOutSources([{ markdown, path: null, loader: options.loader ?? noLoader }], untagged, { blocks, codeBlocks });
  const known = new Set(options.knownPages ?? []);
  const asked = options.pixelsPerPoint ?? DEFAULT_PIXELS_PER_POINT;
  const { Resvg } = await loadResvg();
  const zooms = laidOut.pages.map((page) => pageZoom(page, asked));
  const hashes = laidOut.pages.map((page, index) => pageFingerprint(page, laidOut.pageColor, zooms[index]!));
  const toDraw = pagesToDraw(hashes, known, options.focusPage ?? 0);
  const shown = options.shownPages ?? [];
  const warnings = [...document.warnings, ...laidOut.warnings];
  const pages: PreviewPage[] = laidOut.pages.map((page, index) => {
    throwIfAborted(options.limits?.signal);
    const hash = hashes[index]!;
    const zoom = zooms[index]!;
    if (!toDraw.has(index)) return { hash, width: page.width, height: page.height, png: null, band: null, lines: null };
    const ink = pageInk(page, laidOut.fonts);
    drawnInk.set(hash, ink);
    const base = shown[index];
    const earlier = base && known.has(base) ? drawnInk.get(base) : undefined;
    const changed = earlier && changedBand(earlier, ink);
    const rows = changed ? bandRows(changed, zoom) : wholePage(page, zoom);
    const items = changed ? itemsInking(page, ink, { top: rows.top / zoom, bottom: (rows.top + rows.rows) / zoom }) : page.items;
    if (tooDense(items)) warnings.push(`page ${index + 1} holds too much to preview in full: its text is drawn as bars (the PDF is complete)`);
    const png = rasterise(Resvg, pageSvg(page, laidOut.pageColor, rows, laidOut.fonts, items));
    const band = changed ? { base: base!, top: rows.top / zoom, height: rows.rows / zoom } : null;
    return { hash, width: page.width, height: page.height, png, band, lines: pageLines(page) };
  });
  clock.mark('serialize');
  return { pages, warnings, timings: clock.timings() };
}

/** The asked pixels per point, or fewer where the page would pass MOST_PAGE_PIXELS. */
export function pageZoom(page: { width: number; height: number }, asked: number): number {
  return Math.min(asked, Math.sqrt(MOST_PAGE_PIXELS / (page.width * page.height)));
}

/** The pages near the focus that the caller lacks. */
function pagesToDraw(hashes: readonly string[], known: ReadonlySet<string>, focus: number): Set<number> {
  return new Set(hashes.flatMap((hash, index) => (Math.abs(index - focus) <= DRAWN_AROUND && !known.has(hash) ? [index] : [])));
}

/** The pixel rows that hold the band. */
function bandRows(band: Band, zoom: number): PixelRows {
  const top = Math.floor(band.top * zoom);
  return { zoom, top, rows: Math.ceil(band.bottom * zoom) - top };
}

/** The SVG is sized in pixels already. */
function rasterise(Resvg: Awaited<ReturnType<typeof loadResvg>>['Resvg'], svg: string): Uint8Array {
  return new Resvg(svg, { fitTo: { mode: 'original' }, font: { loadSystemFonts: false }, logLevel: 'off' }).render().asPng();
}
