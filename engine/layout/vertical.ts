import type { FrameItem } from './frame.js';
import type { StructId } from './structure.js';
import type { Color, PageGeometry } from './theme.js';

/**
 * The vertical list a document becomes before pagination, after TeX's: boxes that cannot be
 * split, glue (space that vanishes at a page break) and penalties (the cost of breaking).
 * A page may break at glue that follows a box, or at a penalty below INFINITE_COST.
 */
export type VNode = VBox | VGlue | VPenalty | VLandscape;

export const INFINITE_COST = 10_000;

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
}

export interface VGlue {
  kind: 'glue';
  height: number;
}

export interface VPenalty {
  kind: 'penalty';
  cost: number;
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

export function box(height: number, items: BoxItem[], containers: readonly Container[], baseline = height, footnotes: number[] = []): VBox {
  return { kind: 'box', height, items, containers, footnotes, baseline };
}

export function glue(height: number): VGlue {
  return { kind: 'glue', height };
}

export function penalty(cost: number): VPenalty {
  return { kind: 'penalty', cost };
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

/**
 * Joins lines into nodes that break between lines, never leaving one line alone at the foot
 * (orphan) or head (widow) of a page.
 */
export function linesToNodes(lines: VBox[]): VNode[] {
  const nodes: VNode[] = [];
  lines.forEach((line, index) => {
    if (index > 0) {
      const orphan = index === 1;
      const widow = index === lines.length - 1;
      nodes.push(penalty(orphan || widow ? INFINITE_COST : 0));
    }
    nodes.push(line);
  });
  return nodes;
}
