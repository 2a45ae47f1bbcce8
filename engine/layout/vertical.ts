import type { FrameItem } from './frame.js';
import type { StructId } from './structure.js';
import type { Color } from '../style/color.js';
import type { PageGeometry } from '../style/page-geometry.js';

/**
 * The vertical list a document becomes before pagination, after TeX's: boxes that cannot be
 * split, glue (space that vanishes at a page break, and may stretch to fill a page), penalties
 * (the cost of breaking) and floats (a figure that may move to the top of the next page).
 * A page may break at glue that follows a box, or at a penalty below INFINITE_COST.
 */
export type VNode = VBox | VGlue | VPenalty | VFloat | VLandscape;

export const INFINITE_COST = 10_000;
/** Breaking a page after a line that ends in a hyphenated word (TeX's \brokenpenalty). */
export const BROKEN_WORD_COST = 100;
/** How much of its height the space between blocks may grow by to fill a page. */
const GAP_STRETCH = 0.6;

export interface VBox {
  kind: 'box';
  height: number;
  /** Items positioned from the box's top-left (x is already the page's). */
  items: BoxItem[];
  /** Enclosing decorated blocks, outermost first, drawn per page around their boxes. */
  containers: readonly Container[];
  /** Footnotes cited in this box: they go to the foot of the page the box lands on. */
  footnotes: number[];
  /** Distance from the top to the first baseline, for aligning list labels. */
  baseline: number;
  /** A line that ends in a word broken by a hyphen: a page should not end after it. */
  hyphenated: boolean;
}

export interface VGlue {
  kind: 'glue';
  height: number;
  /** How much taller it may grow on a page that would otherwise end short. */
  stretch: number;
}

export interface VPenalty {
  kind: 'penalty';
  cost: number;
  /** A page ending here may end short: it ends a chapter (a top-level heading follows). */
  ragged: boolean;
}

/**
 * A figure or drawing that, when it does not fit what is left of a page, is set at the top of the
 * next one while the text after it fills this page. Its boxes never part.
 */
export interface VFloat {
  kind: 'float';
  boxes: VBox[];
}

/**
 * Nodes set on pages of their own turned to landscape (a table too wide for the upright page):
 * the page breaks before and after them, and they are paginated on the turned pages.
 */
export interface VLandscape {
  kind: 'landscape';
  /** The turned page's geometry. */
  geometry: PageGeometry;
  nodes: VNode[];
}

/** A page number not yet known at layout time: resolved once pages are cut. */
export interface PageRefItem {
  kind: 'page-ref';
  dest: string;
  /** Right edge of the number. */
  right: number;
  y: number;
  face: string;
  size: number;
  color: Color;
  tag: StructId | null;
}

export type BoxItem = FrameItem | PageRefItem;

/** A decorated block (identity matters: boxes of one container share its decoration). */
export interface Container {
  decoration: Decoration;
}

export type Decoration =
  /** A tinted panel (code blocks). */
  | { kind: 'fill'; x: number; width: number; color: Color; radius: number }
  /** A rule down the left edge (block quotes). */
  | { kind: 'rule'; x: number; width: number; color: Color }
  /** A table, whose header row is drawn again at the top of each continuation page. */
  | { kind: 'table'; header: VBox | null };

/** Laid-out block: its nodes and the space it wants around it. */
export interface BlockNodes {
  nodes: VNode[];
  spaceBefore: number;
  spaceAfter: number;
}

export function box(height: number, items: BoxItem[], containers: readonly Container[], baseline = height, footnotes: number[] = [], hyphenated = false): VBox {
  return { kind: 'box', height, items, containers, footnotes, baseline, hyphenated };
}

/** Fixed space (inside a block: between list items, code lines, contents entries). */
export function glue(height: number): VGlue {
  return { kind: 'glue', height, stretch: 0 };
}

/** Space between blocks, which may stretch to fill a page. */
export function gap(height: number): VGlue {
  return { kind: 'glue', height, stretch: height * GAP_STRETCH };
}

export function penalty(cost: number, ragged = false): VPenalty {
  return { kind: 'penalty', cost, ragged };
}

/** A figure's boxes as a float where it may move (at the top level), else as they are. */
export function figureNodes(boxes: VBox[], floats: boolean): VNode[] {
  return floats ? [{ kind: 'float', boxes }] : boxes;
}

export function container(decoration: Decoration): Container {
  return { decoration };
}

/** The first box of a list, looking inside landscape runs (where a list item's label goes). */
export function firstBox(nodes: readonly VNode[]): VBox | undefined {
  for (const node of nodes) {
    if (node.kind === 'box') return node;
    if (node.kind === 'landscape') {
      const inner = firstBox(node.nodes);
      if (inner) return inner;
    }
  }
  return undefined;
}

/** Nodes that show nothing and only name places (anchors, a quote of nothing but an anchor). */
export function holdsOnlyDestinations(nodes: readonly VNode[]): boolean {
  return nodes.length > 0 && nodes.every((node) => node.kind === 'box' && node.height === 0 && node.items.every((item) => item.kind === 'dest'));
}

/**
 * Joins lines into nodes that break between lines, never leaving one line alone at the foot
 * (orphan) or head (widow) of a page, and loath to end a page in a hyphenated word.
 */
export function linesToNodes(lines: VBox[]): VNode[] {
  const nodes: VNode[] = [];
  lines.forEach((line, index) => {
    if (index > 0) {
      const orphan = index === 1;
      const widow = index === lines.length - 1;
      nodes.push(penalty(orphan || widow ? INFINITE_COST : lines[index - 1]!.hyphenated ? BROKEN_WORD_COST : 0));
    }
    nodes.push(line);
  });
  return nodes;
}
