import { PageLimitError, throwIfAborted } from '../errors.js';
import { shiftBoxItem } from './box-items.js';
import { METRICS, type PageGeometry, type Palette } from './theme.js';
import { INFINITE_COST, type BoxItem, type Container, type VBox, type VLandscape, type VNode } from './vertical.js';

export interface PaginateSettings {
  geometry: PageGeometry;
  palette: Palette;
  /** Footnote bodies by number, each kept whole at the foot of the page that cites it. */
  footnotes: Map<number, VBox[]>;
  maxPages: number | undefined;
  signal: AbortSignal | undefined;
}

/** Boxes placed on one page, before decorations and page furniture are added. */
export interface CutPage {
  items: BoxItem[];
  /** The page's own geometry: the document's, or turned for a landscape run. */
  geometry: PageGeometry;
}

interface Placed {
  box: VBox;
  y: number;
}

/** How strongly an underfull page is avoided, against the cost of the break that ends it. */
const UNDERFULL_WEIGHT = 1000;

/**
 * Cuts the vertical list into pages as TeX's page builder does: among the legal breaks that
 * fit, take the one whose penalty plus the badness of the space left unfilled is least.
 */
export function paginate(nodes: readonly VNode[], settings: PaginateSettings): CutPage[] {
  const pages: CutPage[] = [];
  paginateRun(nodes, settings.geometry, settings, pages, new Set());
  // A document with nothing to draw is still a valid PDF: one empty page.
  if (pages.length === 0) pages.push({ items: [], geometry: settings.geometry });
  return pages;
}

/**
 * Pages for a run of nodes on one geometry. A landscape run starts a page of its own and takes
 * along what cannot be parted from it (a heading kept with the table).
 */
function paginateRun(nodes: readonly VNode[], geometry: PageGeometry, settings: PaginateSettings, pages: CutPage[], headerShown: Set<Container>): void {
  let start = 0;
  while (start < nodes.length) {
    throwIfAborted(settings.signal);
    start = skipDiscardable(nodes, start);
    if (start >= nodes.length) break;
    const turn = landscapeAhead(nodes, start);
    if (turn !== -1) {
      const run = landscapeRun(nodes, start, turn);
      paginateRun(run.nodes, run.geometry, settings, pages, headerShown);
      start = run.end;
      continue;
    }
    const repeated = repeatedHeader(nodes[start] as VBox, headerShown);
    const { end, placed, footnotes } = fillPage(nodes, start, geometry.contentHeight, repeated, settings.footnotes);
    for (const { box } of placed) {
      for (const owner of box.containers) if (owner.decoration.kind === 'table' && owner.decoration.header === box) headerShown.add(owner);
    }
    pages.push(composePage(placed, footnotes, geometry, settings));
    if (settings.maxPages !== undefined && pages.length > settings.maxPages) throw new PageLimitError(settings.maxPages, pages.length);
    start = end;
  }
}

function skipDiscardable(nodes: readonly VNode[], index: number): number {
  while (index < nodes.length && (nodes[index]!.kind === 'glue' || nodes[index]!.kind === 'penalty')) index++;
  return index;
}

/** A page may break at glue that follows a box, or at a penalty below INFINITE_COST. */
function isLegalBreak(nodes: readonly VNode[], index: number): boolean {
  const node = nodes[index]!;
  if (node.kind === 'glue') return nodes[index - 1]?.kind === 'box';
  return node.kind === 'penalty' && node.cost < INFINITE_COST;
}

/** The landscape run this page must start with (no legal break before it), or -1. */
function landscapeAhead(nodes: readonly VNode[], start: number): number {
  for (let index = start; index < nodes.length; index++) {
    if (nodes[index]!.kind === 'landscape') return index;
    if (isLegalBreak(nodes, index)) return -1;
  }
  return -1;
}

/**
 * The nodes set on the landscape pages that begin at `start`: what is kept with the run at
 * `turn`, the run, and the runs that follow it with only space between (wide tables in a row
 * share their landscape pages). `end` is the node after the last run.
 */
function landscapeRun(nodes: readonly VNode[], start: number, turn: number): { nodes: VNode[]; geometry: PageGeometry; end: number } {
  const first = nodes[turn] as VLandscape;
  const run = [...nodes.slice(start, turn), ...first.nodes];
  let end = turn + 1;
  for (let next = skipDiscardable(nodes, end); nodes[next]?.kind === 'landscape'; next = skipDiscardable(nodes, end)) {
    run.push(...nodes.slice(end, next), ...(nodes[next] as VLandscape).nodes);
    end = next + 1;
  }
  return { nodes: run, geometry: first.geometry, end };
}

/** A table continuing from an earlier page gets its header row again, as page furniture. */
function repeatedHeader(first: VBox, headerShown: Set<Container>): VBox | null {
  const table = first.containers.findLast((owner) => owner.decoration.kind === 'table');
  if (!table || table.decoration.kind !== 'table') return null;
  const header = table.decoration.header;
  if (!header || header === first || !headerShown.has(table)) return null;
  return { ...header, items: header.items.map(asArtifact).filter((item): item is BoxItem => item !== null), footnotes: [] };
}

function asArtifact(item: BoxItem): BoxItem | null {
  if (item.kind === 'dest' || item.kind === 'link' || item.kind === 'struct-mark') return null;
  return 'tag' in item ? { ...item, tag: null } : item;
}

function fillPage(nodes: readonly VNode[], start: number, height: number, repeated: VBox | null, footnoteBodies: Map<number, VBox[]>) {
  const placed: Placed[] = [];
  let y = repeated ? repeated.height : 0;
  if (repeated) placed.push({ box: repeated, y: 0 });
  const footnotes: number[] = [];
  let footHeight = 0;
  type Cut = { end: number; cost: number; count: number; notes: number };
  let best: Cut | null = null;
  let last: Cut | null = null;
  const consider = (end: number, cost: number) => {
    const unfilled = Math.max(0, height - y - footHeight) / height;
    last = { end, cost: cost + UNDERFULL_WEIGHT * unfilled ** 3, count: placed.length, notes: footnotes.length };
    if (!best || last.cost <= best.cost) best = last;
  };

  let index = start;
  for (; index < nodes.length; index++) {
    const node = nodes[index]!;
    if (node.kind === 'box') {
      const newNotes = node.footnotes.filter((number) => !footnotes.includes(number) && footnoteBodies.has(number));
      const extra = newNotes.reduce((sum, number) => sum + bodyHeight(footnoteBodies.get(number)!), 0) + (footnotes.length === 0 && newNotes.length > 0 ? METRICS.footnoteGap : 0);
      const fits = y + node.height + footHeight + extra <= height + 0.01;
      if (!fits && placed.length > (repeated ? 1 : 0)) break;
      placed.push({ box: node, y });
      y += node.height;
      footnotes.push(...newNotes);
      footHeight += extra;
    } else if (node.kind === 'landscape') {
      // The page ends at the last break before a landscape run; what follows that break goes with the run.
      best = last ?? { end: index, cost: 0, count: placed.length, notes: footnotes.length };
      break;
    } else if (node.kind === 'glue') {
      if (isLegalBreak(nodes, index)) consider(index, 0);
      y += node.height;
    } else if (node.cost < INFINITE_COST) {
      consider(index, node.cost);
      if (node.cost <= -INFINITE_COST) {
        index++;
        break;
      }
    }
  }
  if (index >= nodes.length) return { end: nodes.length, placed, footnotes };
  const chosen = best as Cut | null;
  if (!chosen) return { end: index, placed, footnotes };
  return { end: chosen.end, placed: placed.slice(0, chosen.count), footnotes: footnotes.slice(0, chosen.notes) };
}

function bodyHeight(lines: VBox[]): number {
  return lines.reduce((sum, line) => sum + line.height, 0);
}

/** Absolute positions, decorations drawn behind their boxes, footnotes at the foot. */
function composePage(placed: Placed[], footnotes: number[], geometry: PageGeometry, settings: PaginateSettings): CutPage {
  const { palette } = settings;
  const top = geometry.marginTop;
  const items: BoxItem[] = [...decorations(placed, top)];
  for (const { box, y } of placed) for (const item of box.items) items.push(shiftBoxItem(item, top + y));
  if (footnotes.length > 0) {
    const bodies = footnotes.map((number) => settings.footnotes.get(number)!);
    const total = bodies.reduce((sum, lines) => sum + bodyHeight(lines), 0);
    let y = top + geometry.contentHeight - total;
    const ruleY = y - METRICS.footnoteGap / 2;
    items.push({ kind: 'line', x1: geometry.marginInner, y1: ruleY, x2: geometry.marginInner + METRICS.footnoteRuleLength, y2: ruleY, width: METRICS.ruleWidth, color: palette.rule });
    for (const lines of bodies) {
      for (const line of lines) {
        for (const item of line.items) items.push(shiftBoxItem(item, y));
        y += line.height;
      }
    }
  }
  return { items, geometry };
}

/** Each container's decoration spans its boxes on this page, outermost first. */
function decorations(placed: Placed[], top: number): BoxItem[] {
  const extents = new Map<Container, { top: number; bottom: number }>();
  for (const { box, y } of placed) {
    for (const owner of box.containers) {
      const extent = extents.get(owner);
      if (extent) extent.bottom = y + box.height;
      else extents.set(owner, { top: y, bottom: y + box.height });
    }
  }
  const items: BoxItem[] = [];
  for (const [owner, extent] of extents) {
    const decoration = owner.decoration;
    const y = top + extent.top;
    const height = extent.bottom - extent.top;
    if (decoration.kind === 'fill') {
      items.push({ kind: 'rect', x: decoration.x, y, width: decoration.width, height, fill: decoration.color, stroke: null, lineWidth: 0, radius: decoration.radius, tag: null, actualText: null });
    } else if (decoration.kind === 'rule') {
      items.push({ kind: 'rect', x: decoration.x, y, width: decoration.width, height, fill: decoration.color, stroke: null, lineWidth: 0, radius: 0, tag: null, actualText: null });
    }
  }
  return items;
}
