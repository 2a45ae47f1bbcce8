/**
 * The editor's preview: the document laid out exactly as the PDF will be, each page drawn from
 * its frames as SVG and rasterised by resvg. Layout is incremental: top-level blocks laid out
 * for an earlier preview are reused when their content and settings are the same, and only the
 * pages are cut anew. A page the caller already shows (its hash among `knownPages`) is not
 * rasterised again, so an edit redraws only the pages it changed; and only pages within
 * DRAWN_AROUND of `focusPage` are drawn at all, so an answer stays small however long the document
 * (a later preview draws the others as they come into view).
 */
import { throwIfAborted } from '../errors.js';
import { loadResvg } from '../content/images/resvg.js';
import { layOutSources } from '../lay-out.js';
import { BlockCache } from '../layout/blocks/block-cache.js';
import type { RenderOptions } from '../options.js';
import type { PhaseTimings } from '../phase-clock.js';
import { noLoader } from '../resources/loader.js';
import { pageFingerprint } from './page-fingerprint.js';
import { pageLines, type PageLine } from './page-lines.js';
import { pageSvg } from './page-svg.js';

export interface PreviewOptions extends RenderOptions {
  /** Hashes of pages the caller already has: those come back without pixels. */
  knownPages?: readonly string[];
  /** Pixels per point (1 ≈ 72 dpi); default 1.5. */
  pixelsPerPoint?: number;
  /** The page (from 0) the caller is looking at: pages to draw are chosen nearest it first. */
  focusPage?: number;
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
  /** The page's text lines with their baselines (null with the PNG): where a click on the page lands in the source. */
  lines: PageLine[] | null;
}

export interface PreviewResult {
  pages: PreviewPage[];
  warnings: string[];
  timings: PhaseTimings;
}

const DEFAULT_PIXELS_PER_POINT = 1.5;
/** Laid-out blocks of the documents previewed in this process, so an edit lays out only what changed. */
const blocks = new BlockCache();

export async function renderPreview(markdown: string, options: PreviewOptions = {}): Promise<PreviewResult> {
  // Untagged: the structure tree draws nothing, and untagged layouts may reuse the blocks an earlier preview laid out.
  const untagged = { ...options, features: { ...options.features, tagged: false } };
  const { document, laidOut, clock } = await layOutSources([{ markdown, path: null, loader: options.loader ?? noLoader }], untagged, blocks);
  const known = new Set(options.knownPages ?? []);
  const zoom = options.pixelsPerPoint ?? DEFAULT_PIXELS_PER_POINT;
  const { Resvg } = await loadResvg();
  const hashes = laidOut.pages.map((page) => pageFingerprint(page, laidOut.pageColor, zoom));
  const toDraw = pagesToDraw(hashes, known, options.focusPage ?? 0);
  const pages: PreviewPage[] = laidOut.pages.map((page, index) => {
    throwIfAborted(options.limits?.signal);
    const drawn = toDraw.has(index);
    const png = drawn ? rasterise(Resvg, pageSvg(page, laidOut.pageColor), zoom) : null;
    return { hash: hashes[index]!, width: page.width, height: page.height, png, lines: drawn ? pageLines(page) : null };
  });
  clock.mark('serialize');
  return { pages, warnings: [...document.warnings, ...laidOut.warnings], timings: clock.timings() };
}

/** The pages near the focus that the caller lacks. */
function pagesToDraw(hashes: readonly string[], known: ReadonlySet<string>, focus: number): Set<number> {
  return new Set(hashes.flatMap((hash, index) => (Math.abs(index - focus) <= DRAWN_AROUND && !known.has(hash) ? [index] : [])));
}

function rasterise(Resvg: Awaited<ReturnType<typeof loadResvg>>['Resvg'], svg: string, zoom: number): Uint8Array {
  return new Resvg(svg, { fitTo: { mode: 'zoom', value: zoom }, font: { loadSystemFonts: false }, logLevel: 'off' }).render().asPng();
}
