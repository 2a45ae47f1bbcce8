import { PageLimitError, throwIfAborted } from '../errors.js';
import { shiftBoxItem } from './box-items.js';
import { pairColumns, regionAt, type ColumnSettings, type CutPage, type Region } from './column-regions.js';
import { METRICS } from '../style/metrics.js';
import type { PageGeometry } from '../style/page-geometry.js';
import type { Palette } from '../style/palette.js';
import { INFINITE_COST, type BoxItem, type Container, type VBox, type VLandscape, type VNode } from './vertical.js';

export interface PaginateSettings {
  geometry: PageGeometry;
  palette: Palette;
  /** Footnote bodies by number, each kept whole at the foot of the page that first cites it. */
  footnotes: Map<number, VBox[]>;
  maxPages: number | undefined;
  signal: AbortSignal | undefined;
  /** Two columns: each cut is one column, two to a page. Null: the text block is one column. */
  columns: ColumnSettings | null;
}

interface Placed {
  box: VBox;
  y: number;
  /** Stretchable space above the box on its page: how far it moves down when the page is filled. */
  stretchAbove: number;
}

/** A page's cost when it ends one line short with no space to stretch (TeX's badness scale). */
const BADNESS_SCALE = 100;
/**
 * Before a chapter, a page may end this much shorter at the same cost, and is not stretched:
 * allowed to end short there, but still better full when what follows fits.
 */
const CHAPTER_RAG_SHARE = 0.5;
/** Space between deferred figures at the top of a page and what follows them. */
const FLOAT_GAP = METRICS.paragraphGap * 1.5;

/**
 * Cuts the vertical list into pages as TeX's page builder does: among the legal breaks that
 * fit, take the one whose penalty plus the badness of the space left unfilled is least, then
 * stretch the space between blocks to fill the page (not at a chapter's end or the document's).
 * A figure that does not fit what is left of a page goes to the top of the next one while the
 * text after it fills this one. A footnote is set once, on the page of its first citation.
 */
export function paginate(nodes: readonly VNode[], settings: PaginateSettings): CutPage[] {
  const state: Pagination = { pages: [], headerShown: new Set(), printed: new Set(), deferred: [] };
  paginateRun(nodes, settings.geometry, settings, state);
  // Figures still waiting when the document ends get pages of their own.
  flushDeferred(settings.geometry, settings, state);
  if (settings.columns) balanceLastPage(nodes, settings, state);
  // A document with nothing to draw is still a valid PDF: one empty page.
  if (state.pages.length === 0) state.pages.push({ items: [], geometry: settings.geometry });
  return settings.columns ? pairColumns(state.pages) : state.pages;
}

/** The region the next cut fills: the page's text block, or the next column. */
function nextRegion(geometry: PageGeometry, settings: PaginateSettings, state: Pagination): Region {
  return regionAt(state.pages.length, geometry, settings);
}

/** What carries from page to page, across landscape runs too. */
interface Pagination {
  pages: CutPage[];
  headerShown: Set<Container>;
  /** Footnotes already set on an earlier page. */
  printed: Set<number>;
  /** Figures that did not fit the page before, set first on the next. */
  deferred: VBox[][];
  /** In two columns: where the last page's left column started, for balancing the last page. */
  lastPage?: PageStart;
}

/** The state as a page's first cut began (the sets only grow, so their sizes then say what they held). */
interface PageStart {
  node: number;
  cuts: number;
  headersShown: number;
  printed: number;
  deferred: VBox[][];
}

/**
 * Pages for a run of nodes on one geometry. A landscape run starts a page of its own and takes
 * along what cannot be parted from it (a heading kept with the table); figures waiting to be set
 * get a page before it.
 */
function paginateRun(nodes: readonly VNode[], geometry: PageGeometry, settings: PaginateSettings, state: Pagination): void {
  let start = 0;
  let stop = -1;
  while (start < nodes.length) {
    throwIfAborted(settings.signal);
    start = skipDiscardable(nodes, start);
    if (start >= nodes.length) break;
    // Pages only move on: a stop found from an earlier start is still the first from this one.
    if (stop < start) stop = nextStop(nodes, start);
    if (nodes[stop]?.kind === 'landscape') {
      flushDeferred(geometry, settings, state);
      const run = landscapeRun(nodes, start, stop);
      paginateRun(run.nodes, run.geometry, settings, state);
      start = run.end;
      continue;
    }
    if (settings.columns && state.pages.length % 2 === 0) {
      state.lastPage = { node: start, cuts: state.pages.length, headersShown: state.headerShown.size, printed: state.printed.size, deferred: state.deferred };
    }
    const region = nextRegion(geometry, settings, state);
    const page = fillPage(nodes, start, region.height, state, settings.footnotes);
    addPage(page, geometry, region, settings, state);
    // A forced break ends the page, not only the column: the right column stays empty.
    const forced = nodes[page.end]?.kind === 'penalty' && (nodes[page.end] as { cost: number }).cost <= -INFINITE_COST;
    if (settings.columns && forced && state.pages.length % 2 === 1) state.pages.push({ items: [], geometry });
    start = page.end;
  }
}

/**
 * Sets the last page of two columns with its columns of equal height, as LaTeX's multicol and
 * journals end an article, rather than a full left column beside a short or empty right one: the
 * least height into which what the page holds still fits two columns, found by bisection. A page
 * with figures waiting or floating, or with a forced break, keeps its cut. Both columns stay
 * unstretched, their lines level from the top.
 */
function balanceLastPage(nodes: readonly VNode[], settings: PaginateSettings, state: Pagination): void {
  const mark = state.lastPage;
  if (!mark || state.pages.length > mark.cuts + 2 || mark.deferred.length > 0 || state.deferred.length > 0) return;
  for (let index = mark.node; index < nodes.length; index++) {
    const node = nodes[index]!;
    if (node.kind === 'float' || node.kind === 'landscape' || (node.kind === 'penalty' && node.cost <= -INFINITE_COST)) return;
  }
  const { geometry } = settings;
  const full = regionAt(mark.cuts, geometry, settings);
  const columnsOf = (height: number): CutPage[] | null => {
    const trial: Pagination = {
      pages: [],
      headerShown: new Set([...state.headerShown].slice(0, mark.headersShown)),
      printed: new Set([...state.printed].slice(0, mark.printed)),
      deferred: [],
    };
    let start = mark.node;
    for (const cut of [mark.cuts, mark.cuts + 1]) {
      start = skipDiscardable(nodes, start);
      if (start >= nodes.length) break;
      const page = fillPage(nodes, start, height, trial, settings.footnotes);
      // A column too short for what must stay together is cut where no break is allowed: too short.
      const legal = page.end >= nodes.length || isLegalBreak(nodes, page.end);
      if (!legal || usedHeight(page, settings.footnotes) > height + 0.01) return null;
      // Footnotes still sit at the foot of the column's full height.
      addPage({ ...page, fill: 0 }, geometry, regionAt(cut, geometry, settings), settings, trial);
      start = page.end;
    }
    return skipDiscardable(nodes, start) >= nodes.length ? trial.pages : null;
  };
  let [short, tall] = [0, full.height];
  let best = columnsOf(tall);
  if (!best) return;
  while (tall - short > BALANCE_PRECISION) {
    const middle = (short + tall) / 2;
    const columns = columnsOf(middle);
    if (columns) [tall, best] = [middle, columns];
    else short = middle;
  }
  state.pages.splice(mark.cuts, state.pages.length - mark.cuts, ...best);
}

/** How near the least balanced height the bisection comes, in points. */
const BALANCE_PRECISION = 0.5;

/** The height a filled page takes: its boxes, and its footnotes with the gap above them. */
function usedHeight(page: FilledPage, bodies: Map<number, VBox[]>): number {
  const text = page.placed.reduce((most, { box, y }) => Math.max(most, y + box.height), 0);
  if (page.footnotes.length === 0) return text;
  return text + METRICS.footnoteGap + page.footnotes.reduce((sum, number) => sum + bodyHeight(bodies.get(number)!), 0);
}

/** Pages (or columns) of nothing but the figures still waiting. */
function flushDeferred(geometry: PageGeometry, settings: PaginateSettings, state: Pagination): void {
  while (state.deferred.length > 0) {
    const region = nextRegion(geometry, settings, state);
    addPage(fillPage([], 0, region.height, state, settings.footnotes), geometry, region, settings, state);
  }
}

function addPage(page: FilledPage, geometry: PageGeometry, region: Region, settings: PaginateSettings, state: Pagination): void {
  for (const { box } of page.placed) {
    for (const owner of box.containers) if (owner.decoration.kind === 'table' && owner.decoration.header === box) state.headerShown.add(owner);
  }
  for (const number of page.footnotes) state.printed.add(number);
  state.deferred = page.deferred;
  state.pages.push(composePage(page, geometry, region, settings));
  const pages = settings.columns ? Math.ceil(state.pages.length / 2) : state.pages.length;
  if (settings.maxPages !== undefined && pages > settings.maxPages) throw new PageLimitError(settings.maxPages, pages);
}

function skipDiscardable(nodes: readonly VNode[], index: number): number {
  while (index < nodes.length && (nodes[index]!.kind === 'glue' || nodes[index]!.kind === 'penalty')) index++;
  return index;
}

/** A page may break at glue that follows a box or a figure, or at a penalty below INFINITE_COST. */
function isLegalBreak(nodes: readonly VNode[], index: number): boolean {
  const node = nodes[index]!;
  if (node.kind === 'glue') return isBreakable(nodes[index - 1]);
  return node.kind === 'penalty' && node.cost < INFINITE_COST;
}

/**
 * The first landscape run or legal break at or after `start` (the nodes' length for none): a
 * page that starts before a landscape run with no legal break between must start with the run.
 */
function nextStop(nodes: readonly VNode[], start: number): number {
  for (let index = start; index < nodes.length; index++) {
    if (nodes[index]!.kind === 'landscape' || isLegalBreak(nodes, index)) return index;
  }
  return nodes.length;
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
  if (first.kind !== 'box') return null;
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

interface FilledPage {
  end: number;
  placed: Placed[];
  footnotes: number[];
  /** Figures moved on to the next page. */
  deferred: VBox[][];
  /** How far the stretchable space is stretched: 0 leaves the page's foot ragged, 1 stretches it all. */
  fill: number;
}

interface Candidate {
  end: number;
  cost: number;
  count: number;
  notes: number;
  deferred: number;
  fill: number;
}

function fillPage(nodes: readonly VNode[], start: number, height: number, begin: Pagination, bodies: Map<number, VBox[]>): FilledPage {
  const repeated = start < nodes.length ? repeatedHeader(nodes[start] as VBox, begin.headerShown) : null;
  const placed: Placed[] = [];
  const footnotes: number[] = [];
  const deferred: VBox[][] = [];
  let y = 0;
  let stretch = 0;
  let footHeight = 0;
  const place = (box: VBox) => {
    placed.push({ box, y, stretchAbove: stretch });
    y += box.height;
  };
  /** The footnotes `boxes` cite that are new here, and the height they add at the foot. */
  const none = { added: [] as number[], extra: 0 };
  const notesOf = (boxes: readonly VBox[]) => {
    if (boxes.every((box) => box.footnotes.length === 0)) return none;
    const added = [...new Set(boxes.flatMap((box) => box.footnotes))].filter(
      (number) => !footnotes.includes(number) && !begin.printed.has(number) && bodies.has(number),
    );
    const extra =
      added.reduce((sum, number) => sum + bodyHeight(bodies.get(number)!), 0) + (footnotes.length === 0 && added.length > 0 ? METRICS.footnoteGap : 0);
    return { added, extra };
  };
  const take = (boxes: readonly VBox[], notes: { added: number[]; extra: number }) => {
    for (const box of boxes) place(box);
    footnotes.push(...notes.added);
    footHeight += notes.extra;
  };

  if (repeated) place(repeated);
  // Figures waiting from the page before come first, as many as fit (always one: the page
  // moves on); the rest wait on, ahead of any figure met on this page.
  const waiting = [...begin.deferred];
  let carried = 0;
  while (waiting.length > 0) {
    const figure = waiting[0]!;
    const notes = notesOf(figure);
    if (carried > 0 && y + FLOAT_GAP + boxHeight(figure) + footHeight + notes.extra > height + 0.01) break;
    take(figure, notes);
    waiting.shift();
    carried++;
  }
  if (carried > 0) y += FLOAT_GAP;
  deferred.push(...waiting);
  const fixed = placed.length;

  let best: Candidate | null = null;
  let last: Candidate | null = null;
  const consider = (end: number, cost: number, ragged: boolean) => {
    const unfilled = height - y - footHeight;
    const tolerated = stretch + METRICS.bodyLeading + (ragged ? height * CHAPTER_RAG_SHARE : 0);
    const badness = unfilled <= 0 ? 0 : BADNESS_SCALE * (unfilled / tolerated) ** 3;
    const total = badness + cost;
    const fill = ragged || stretch === 0 ? 0 : Math.min(1, Math.max(0, unfilled) / stretch);
    last = { end, cost: total, count: placed.length, notes: footnotes.length, deferred: deferred.length, fill };
    if (!best || total <= best.cost) best = last;
  };

  let index = start;
  let skipGlue = false;
  for (; index < nodes.length; index++) {
    const node = nodes[index]!;
    if (node.kind === 'box' || node.kind === 'float') {
      const boxes = node.kind === 'box' ? [node] : node.boxes;
      const notes = notesOf(boxes);
      const fits = y + boxHeight(boxes) + footHeight + notes.extra <= height + 0.01;
      if (node.kind === 'float' && (deferred.length > 0 || (placed.length > fixed && !fits && !gluedToPrevious(nodes, index)))) {
        // The figure waits for the next page; the text after it fills this one.
        deferred.push(node.boxes);
        skipGlue = true;
        continue;
      }
      // Text goes on an empty page even when it does not fit; after figures it can wait.
      if (!fits && (placed.length > fixed || carried > 0)) break;
      take(boxes, notes);
      skipGlue = false;
    } else if (node.kind === 'landscape') {
      // The page ends at the last break before a landscape run; what follows that break goes with the run.
      best = last ?? { end: index, cost: 0, count: placed.length, notes: footnotes.length, deferred: deferred.length, fill: 0 };
      break;
    } else if (node.kind === 'glue') {
      if (skipGlue) continue;
      if (isLegalBreak(nodes, index)) consider(index, 0, false);
      y += node.height;
      stretch += node.stretch;
    } else if (node.cost < INFINITE_COST) {
      consider(index, node.cost, node.ragged);
      if (node.cost <= -INFINITE_COST) {
        index++;
        break;
      }
    }
  }
  if (index >= nodes.length) return { end: nodes.length, placed, footnotes, deferred, fill: 0 };
  const chosen = best as Candidate | null;
  if (!chosen) return { end: index, placed, footnotes, deferred, fill: 0 };
  return {
    end: chosen.end,
    placed: placed.slice(0, chosen.count),
    footnotes: footnotes.slice(0, chosen.notes),
    deferred: deferred.slice(0, chosen.deferred),
    fill: chosen.fill,
  };
}

/** A page may break at glue that follows a box or a figure. */
function isBreakable(previous: VNode | undefined): boolean {
  return previous?.kind === 'box' || previous?.kind === 'float';
}

/** Kept with what comes before it (a heading's "keep with next"): such a figure never floats away. */
function gluedToPrevious(nodes: readonly VNode[], index: number): boolean {
  let before = index - 1;
  while (before >= 0 && nodes[before]!.kind === 'glue') before--;
  const node = nodes[before];
  return node?.kind === 'penalty' && node.cost >= INFINITE_COST;
}

function boxHeight(boxes: readonly VBox[]): number {
  return boxes.reduce((sum, box) => sum + box.height, 0);
}

function bodyHeight(lines: VBox[]): number {
  return boxHeight(lines);
}

/** Absolute positions, the page filled by its stretch, decorations drawn behind their boxes, footnotes at the foot. */
function composePage({ placed, footnotes, fill }: FilledPage, geometry: PageGeometry, region: Region, settings: PaginateSettings): CutPage {
  const { palette } = settings;
  const { top, dx } = region;
  const positioned = placed.map((entry) => ({ ...entry, y: entry.y + fill * entry.stretchAbove }));
  const items: BoxItem[] = [...decorations(positioned, top, dx)];
  for (const { box, y } of positioned) for (const item of box.items) items.push(shiftBoxItem(item, top + y, dx));
  if (footnotes.length > 0) {
    const bodies = footnotes.map((number) => settings.footnotes.get(number)!);
    const total = bodies.reduce((sum, lines) => sum + bodyHeight(lines), 0);
    let y = top + region.height - total;
    const ruleY = y - METRICS.footnoteGap / 2;
    // Footnotes are laid out for the upright page's first column; on a turned page or in the second column they keep their place from its edge.
    const noteDx = geometry.marginInner - settings.geometry.marginInner + dx;
    const ruleX = settings.geometry.marginInner + noteDx;
    items.push({ kind: 'line', x1: ruleX, y1: ruleY, x2: ruleX + METRICS.footnoteRuleLength, y2: ruleY, width: METRICS.ruleWidth, color: palette.rule });
    for (const lines of bodies) {
      for (const line of lines) {
        for (const item of line.items) items.push(shiftBoxItem(item, y, noteDx));
        y += line.height;
      }
    }
  }
  return { items, geometry };
}

/** Each container's decoration spans its boxes on this page, outermost first. */
function decorations(placed: readonly Placed[], top: number, dx: number): BoxItem[] {
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
    const x = decoration.kind === 'fill' || decoration.kind === 'rule' ? decoration.x + dx : 0;
    const y = top + extent.top;
    const height = extent.bottom - extent.top;
    if (decoration.kind === 'fill') {
      items.push({
        kind: 'rect',
        x,
        y,
        width: decoration.width,
        height,
        fill: decoration.color,
        stroke: null,
        lineWidth: 0,
        radius: decoration.radius,
        tag: null,
        actualText: null,
      });
    } else if (decoration.kind === 'rule') {
      items.push({
        kind: 'rect',
        x,
        y,
        width: decoration.width,
        height,
        fill: decoration.color,
        stroke: null,
        lineWidth: 0,
        radius: 0,
        tag: null,
        actualText: null,
      });
    }
  }
  return items;
}
