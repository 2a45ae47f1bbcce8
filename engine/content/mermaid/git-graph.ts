import type { Drawing } from '../../drawing/drawing.js';
import { Canvas, centredBaseline, n, roundedRect } from './canvas.js';
import { mix, seriesColor, textOn, type DiagramColors } from './colors.js';
import { parseGitGraph, type Commit, type GitGraph } from './git-graph-parse.js';
import { SEMIBOLD, textWidth } from './measure.js';
import { LABEL_SIZE, MARGIN, SMALL_SIZE } from './sizes.js';
import type { MermaidSource } from './source.js';

type Point = readonly [number, number];

const RADIUS = 6;
const CORNER = 8;
const PILL_PAD = 6;

interface Geometry {
  point: (seq: number, lane: number) => Point;
  width: number;
  height: number;
}

/**
 * Where a commit's label sits, left to right: below the commit unless a line leaves it downwards,
 * then above unless one leaves it upwards too, then below and to its right, clear of its line.
 */
type Side = 'below' | 'above' | 'right';

/** Height of a label's band beside its lane, and of a tag's. */
const LABEL_BAND = RADIUS + 4 + SMALL_SIZE + 2.5;
const TAG_HEIGHT = SMALL_SIZE + 6;

/** Branches as lanes, commits in the order written, branch-offs and merges as rounded elbows. */
export function renderGitGraph(source: MermaidSource, colors: DiagramColors): Drawing {
  const graph = parseGitGraph(source);
  const lanes = laneOrder(graph);
  const laneOf = (commit: Commit) => lanes.get(commit.branch)!;
  const branchColor = (branch: number) => seriesColor(colors, branch);
  const labels = graph.commits.map(commitLabel);
  const sides = labelSides(graph, lanes, labels);
  const geometry = layout(graph, lanes, labels, sides);
  const canvas = new Canvas();

  // Each lane: a faint guide from its first commit to the end, and the branch's name.
  graph.branches.forEach((branch, index) => {
    const lane = lanes.get(index)!;
    const [x1, y1] = geometry.point(-0.6, lane);
    const [x2, y2] = geometry.point(graph.commits.length - 0.4, lane);
    canvas.line(x1, y1, x2, y2, { stroke: mix(branchColor(index), colors.background, 0.35), strokeWidth: 1, dash: [3, 3] });
    drawBranchLabel(canvas, branch.name, geometry.point(-0.6, lane), graph.direction, branchColor(index), colors);
  });

  for (const commit of graph.commits) {
    commit.parents.forEach((parent, index) => {
      const from = geometry.point(parent.seq, laneOf(parent));
      const to = geometry.point(commit.seq, laneOf(commit));
      if (laneOf(parent) === laneOf(commit)) {
        canvas.line(from[0], from[1], to[0], to[1], { stroke: branchColor(commit.branch), strokeWidth: 2 });
        return;
      }
      // A branch leaves its parent across the lanes first; a merge runs along its own lane first.
      const merged = index > 0;
      const corner = merged ? geometry.point(commit.seq, laneOf(parent)) : geometry.point(parent.seq, laneOf(commit));
      canvas.path(elbow(from, corner, to), { stroke: branchColor(merged ? parent.branch : commit.branch), strokeWidth: 2, join: 'round' });
    });
  }

  graph.commits.forEach((commit, index) => {
    const [x, y] = geometry.point(commit.seq, laneOf(commit));
    drawCommit(canvas, commit, x, y, branchColor(commit.branch), colors);
    const label = labels[index];
    // Labels below commits left to right; beside them, on the side away from branches, top to bottom.
    const labelWidth = label ? textWidth(label, SMALL_SIZE) + 4 : 0;
    const side = sides[index]!;
    if (label) {
      const offset = RADIUS + 4 + SMALL_SIZE / 2 + 1;
      const [cx, cy] =
        graph.direction !== 'LR'
          ? [x - RADIUS - 5 - labelWidth / 2, y]
          : side === 'above'
            ? [x, y - offset]
            : [side === 'right' ? x + 3 + labelWidth / 2 : x, y + offset];
      canvas.rect(cx - labelWidth / 2, cy - SMALL_SIZE / 2 - 1.5, labelWidth, SMALL_SIZE + 3, { fill: colors.background, fillOpacity: 0.85 }, 2);
      canvas.text(label, cx, centredBaseline(cy, SMALL_SIZE), { size: SMALL_SIZE, color: colors.muted, anchor: 'middle' });
    }
    const beside = graph.direction === 'LR' ? (label && side === 'above' ? LABEL_BAND - RADIUS : 0) : labelWidth;
    if (commit.tag) drawTag(canvas, commit.tag, x, y, beside, graph.direction, colors);
  });
  return canvas.drawing(geometry.width, geometry.height);
}

/** Lanes by each branch's `order`, else the order branches were made in (main first). */
function laneOrder(graph: GitGraph): Map<number, number> {
  const sorted = graph.branches.map((branch, index) => ({ index, key: branch.order ?? branch.created })).sort((a, b) => a.key - b.key || a.index - b.index);
  return new Map(sorted.map((entry, lane) => [entry.index, lane]));
}

function commitLabel(commit: Commit): string | null {
  return commit.kind === 'cherry-pick' ? `cherry-pick: ${commit.picked}` : commit.id;
}

/** Each commit's label side (left-to-right graphs), from the lines that leave it up or down. */
function labelSides(graph: GitGraph, lanes: Map<number, number>, labels: Array<string | null>): Side[] {
  const down = new Set<number>();
  const up = new Set<number>();
  const mark = (seq: number, fromLane: number, toLane: number) => (toLane > fromLane ? down : up).add(seq);
  for (const commit of graph.commits) {
    commit.parents.forEach((parent, index) => {
      const [parentLane, lane] = [lanes.get(parent.branch)!, lanes.get(commit.branch)!];
      if (parentLane === lane) return;
      // A branch turns off at its parent; a merge turns in at the merge commit.
      if (index === 0) mark(parent.seq, parentLane, lane);
      else mark(commit.seq, lane, parentLane);
    });
  }
  return graph.commits.map((commit, index) => {
    if (!labels[index] || graph.direction !== 'LR' || !down.has(commit.seq)) return 'below';
    return up.has(commit.seq) ? 'right' : 'above';
  });
}

function layout(graph: GitGraph, lanes: Map<number, number>, labels: Array<string | null>, sides: Side[]): Geometry {
  const laneCount = lanes.size;
  const labelWidths = labels.map((label) => (label ? textWidth(label, SMALL_SIZE) : 0));
  const tagWidths = graph.commits.map((commit) => (commit.tag ? textWidth(commit.tag, SMALL_SIZE) + 10 : 0));
  const labelWidth = Math.max(0, ...labelWidths);
  const tagWidth = Math.max(0, ...tagWidths);
  const nameWidth = Math.max(...graph.branches.map((branch) => textWidth(branch.name, LABEL_SIZE, SEMIBOLD))) + 2 * PILL_PAD;
  const last = graph.commits.length - 1;
  if (graph.direction === 'LR') {
    // Commits as close as their labels allow: neighbours on a lane must not overlap, a centred
    // label or tag must stop short of the lines at the next commits, a label set to the right of
    // its commit short of the next one's.
    const besideWidths = labelWidths.map((width, index) => (sides[index] === 'right' ? width : 0));
    const step = Math.max(
      30,
      spacing(graph, lanes, labelWidths),
      spacing(graph, lanes, tagWidths),
      Math.max(labelWidth, tagWidth) / 2 + 6,
      Math.max(0, ...besideWidths) + 10,
    );
    // A lane's band above holds its labels set above and its tags; below, its labels: bands of
    // neighbouring lanes must not meet.
    const above = graph.commits.reduce(
      (most, commit, index) => Math.max(most, (sides[index] === 'above' && labels[index] ? LABEL_BAND : RADIUS) + (commit.tag ? TAG_HEIGHT + 3 : 0)),
      RADIUS,
    );
    const below = labelWidth > 0 ? LABEL_BAND : RADIUS;
    const lane = Math.max(38, above + below + 6);
    const x0 = MARGIN + nameWidth + 14 + 0.6 * step;
    const y0 = MARGIN + above + 4;
    return {
      point: (seq, index) => [x0 + seq * step, y0 + index * lane],
      width: x0 + (last + 0.4) * step + MARGIN,
      height: y0 + (laneCount - 1) * lane + below + 4 + MARGIN,
    };
  }
  const step = 30;
  const besides = Math.max(0, ...graph.commits.map((_, index) => labelWidths[index]! + tagWidths[index]! + 16));
  // Labels and tags sit left of their commits: lanes far enough apart that they stop short of the lane to the left.
  const besideInner = Math.max(0, ...graph.commits.map((commit, index) => (lanes.get(commit.branch)! > 0 ? labelWidths[index]! + tagWidths[index]! + 16 : 0)));
  const lane = Math.max(nameWidth + 10, 40, besideInner + RADIUS + 2);
  const x0 = MARGIN + Math.max(besides + RADIUS, nameWidth / 2);
  const y0 = MARGIN + 24 + 0.6 * step;
  const length = (last + 1) * step;
  return {
    point: (seq, index) => [x0 + index * lane, graph.direction === 'TB' ? y0 + seq * step : y0 + length - (seq + 1) * step],
    width: x0 + (laneCount - 1) * lane + nameWidth / 2 + MARGIN,
    height: y0 + length - 0.6 * step + 24 + MARGIN,
  };
}

/** The step that keeps centred labels of `widths` apart from the next labelled commit on their lane. */
function spacing(graph: GitGraph, lanes: Map<number, number>, widths: number[]): number {
  let step = 0;
  const last = new Map<number, number>();
  graph.commits.forEach((commit, index) => {
    if (!widths[index]) return;
    const lane = lanes.get(commit.branch)!;
    const before = last.get(lane);
    if (before !== undefined) step = Math.max(step, ((widths[before]! + widths[index]!) / 2 + 6) / (index - before));
    last.set(lane, index);
  });
  return step;
}

/** Two straight runs joined by a rounded corner at `corner`. */
function elbow(from: Point, corner: Point, to: Point): string {
  const towards = (a: Point, b: Point, distance: number): Point => {
    const length = Math.hypot(b[0] - a[0], b[1] - a[1]) || 1;
    return [a[0] + ((b[0] - a[0]) / length) * distance, a[1] + ((b[1] - a[1]) / length) * distance];
  };
  const r = Math.min(CORNER, Math.hypot(corner[0] - from[0], corner[1] - from[1]) / 2, Math.hypot(to[0] - corner[0], to[1] - corner[1]) / 2);
  const a = towards(corner, from, r);
  const b = towards(corner, to, r);
  return `M${n(from[0])} ${n(from[1])}L${n(a[0])} ${n(a[1])}Q${n(corner[0])} ${n(corner[1])} ${n(b[0])} ${n(b[1])}L${n(to[0])} ${n(to[1])}`;
}

function drawCommit(canvas: Canvas, commit: Commit, x: number, y: number, color: DiagramColors['series'][number], colors: DiagramColors): void {
  const ring = { stroke: colors.background, strokeWidth: 1.5 };
  if (commit.type === 'HIGHLIGHT') {
    canvas.rect(x - RADIUS, y - RADIUS, 2 * RADIUS, 2 * RADIUS, { fill: color, ...ring }, 1.5);
    canvas.rect(x - RADIUS / 2, y - RADIUS / 2, RADIUS, RADIUS, { fill: colors.background }, 1);
  } else if (commit.kind === 'cherry-pick') {
    canvas.circle(x, y, RADIUS, { fill: colors.background, stroke: color, strokeWidth: 2 });
    canvas.circle(x, y, 2, { fill: color });
  } else {
    canvas.circle(x, y, RADIUS, { fill: color, ...ring });
    if (commit.kind === 'merge') canvas.circle(x, y, RADIUS / 2.2, { fill: colors.background });
  }
  if (commit.type === 'REVERSE') {
    const d = RADIUS * 0.5;
    canvas.path(`M${n(x - d)} ${n(y - d)}L${n(x + d)} ${n(y + d)}M${n(x + d)} ${n(y - d)}L${n(x - d)} ${n(y + d)}`, {
      stroke: colors.background,
      strokeWidth: 1.5,
      cap: 'round',
    });
  }
}

function drawBranchLabel(
  canvas: Canvas,
  name: string,
  [x, y]: Point,
  direction: GitGraph['direction'],
  color: DiagramColors['series'][number],
  colors: DiagramColors,
): void {
  const width = textWidth(name, LABEL_SIZE, SEMIBOLD) + 2 * PILL_PAD;
  const height = LABEL_SIZE + 8;
  const left = direction === 'LR' ? x - 14 - width : x - width / 2;
  const top = direction === 'LR' ? y - height / 2 : direction === 'TB' ? y - height - 6 : y + 6;
  canvas.rect(left, top, width, height, { fill: color }, height / 2);
  canvas.text(name, left + width / 2, centredBaseline(top + height / 2, LABEL_SIZE, SEMIBOLD), {
    size: LABEL_SIZE,
    color: textOn(color, colors),
    font: SEMIBOLD,
    anchor: 'middle',
  });
}

/** A tag: a label with a pointed end towards its commit, above it (or beside it, top to bottom), `clearance` further off for the commit's label. */
function drawTag(canvas: Canvas, tag: string, x: number, y: number, clearance: number, direction: GitGraph['direction'], colors: DiagramColors): void {
  const width = textWidth(tag, SMALL_SIZE) + 10;
  const height = TAG_HEIGHT;
  const paint = { fill: colors.surface, stroke: colors.border, strokeWidth: 0.75, join: 'round' as const };
  if (direction === 'LR') {
    // Above the commit, or above its label when that is set above.
    const top = y - RADIUS - 6 - height - clearance;
    canvas.path(
      `${roundedRect(x - width / 2, top, width, height, 2)}M${n(x - 3)} ${n(top + height)}L${n(x)} ${n(top + height + 3)}L${n(x + 3)} ${n(top + height)}`,
      paint,
    );
    canvas.text(tag, x, centredBaseline(top + height / 2, SMALL_SIZE), { size: SMALL_SIZE, color: colors.text, anchor: 'middle' });
  } else {
    const right = x - RADIUS - (clearance > 0 ? 10 : 6) - clearance;
    canvas.path(
      `${roundedRect(right - width, y - height / 2, width, height, 2)}M${n(right)} ${n(y - 3)}L${n(right + 3)} ${n(y)}L${n(right)} ${n(y + 3)}`,
      paint,
    );
    canvas.text(tag, right - width / 2, centredBaseline(y, SMALL_SIZE), { size: SMALL_SIZE, color: colors.text, anchor: 'middle' });
  }
}
