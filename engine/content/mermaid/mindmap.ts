import type { Color } from '../../style/color.js';
import type { FontStyle } from '../../text/font-catalog.js';
import type { Drawing } from '../../drawing/drawing.js';
import { Canvas, n, roundedRect } from './canvas.js';
import { seriesColor, textOn, tintColor, type DiagramColors } from './colors.js';
import { REGULAR, SEMIBOLD, textWidth, wrapText } from './measure.js';
import { parseMindmap, type MindmapNode } from './mindmap-parse.js';
import { MARGIN } from './sizes.js';
import type { MermaidSource } from './source.js';

/** Type and spacing per depth: the root largest, leaves plain text on a coloured rule. */
const LOOK = [
  { size: 11, font: SEMIBOLD, maxWidth: 130, padX: 12, padY: 8, gap: 30 },
  { size: 9.5, font: SEMIBOLD, maxWidth: 120, padX: 9, padY: 5, gap: 24 },
  { size: 8.5, font: REGULAR, maxWidth: 120, padX: 3, padY: 3, gap: 18 },
] as const;
const SIBLING_GAP = 6;
const LEADING = 1.2;

interface Placed {
  node: MindmapNode;
  depth: number;
  branch: number;
  lines: string[];
  width: number;
  height: number;
  /** Subtree height, siblings' gaps included. */
  span: number;
  children: Placed[];
  x: number;
  y: number;
  side: 1 | -1;
}

/**
 * The root in the middle, its branches shared between the right and the left by height, every
 * subtree stacked as a tidy tree and joined by curves in its branch's colour.
 */
export function renderMindmap(source: MermaidSource, colors: DiagramColors): Drawing {
  const root = measure(parseMindmap(source), 0, -1);
  root.x = -root.width / 2;
  root.y = -root.height / 2;
  const sides: [Placed[], Placed[]] = [[], []];
  const heights = [0, 0];
  root.children.forEach((child) => {
    const side = heights[0]! <= heights[1]! ? 0 : 1;
    sides[side].push(child);
    heights[side]! += child.span + SIBLING_GAP;
  });
  sides.forEach((children, index) =>
    placeChildren(children, index === 0 ? root.width / 2 + LOOK[0].gap : -root.width / 2 - LOOK[0].gap, 0, index === 0 ? 1 : -1),
  );

  const all = flatten(root);
  const left = Math.min(...all.map((placed) => placed.x)) - MARGIN;
  const top = Math.min(...all.map((placed) => placed.y)) - MARGIN;
  const right = Math.max(...all.map((placed) => placed.x + placed.width)) + MARGIN;
  const bottom = Math.max(...all.map((placed) => placed.y + placed.height)) + MARGIN;
  const canvas = new Canvas();
  for (const placed of all) placed.children.forEach((child) => connect(canvas, placed, child, -left, -top, colors));
  for (const placed of all) drawNode(canvas, placed, -left, -top, colors);
  return canvas.drawing(right - left, bottom - top);
}

function look(depth: number) {
  return LOOK[Math.min(depth, LOOK.length - 1)]!;
}

function measure(node: MindmapNode, depth: number, branch: number): Placed {
  const style = look(depth);
  const lines = wrapText(node.text, style.size, style.maxWidth, style.font);
  const textW = Math.max(...lines.map((line) => textWidth(line, style.size, style.font)), style.size);
  const textH = lines.length * style.size * LEADING;
  let width = textW + 2 * style.padX;
  let height = textH + 2 * style.padY;
  if (node.shape === 'circle') width = height = Math.max(width, height) + 4;
  if (node.shape === 'hexagon') width += height / 2;
  if (node.shape === 'cloud' || node.shape === 'bang') {
    width += 10;
    height += 8;
  }
  const children = node.children.map((child, index) => measure(child, depth + 1, depth === 0 ? index : branch));
  const childSpan = children.reduce((sum, child) => sum + child.span, 0) + Math.max(0, children.length - 1) * SIBLING_GAP;
  return { node, depth, branch, lines, width, height, span: Math.max(height, childSpan), children, x: 0, y: 0, side: 1 };
}

/** Children stacked about `cy`, their inner edges at `edge`, growing towards `side`. */
function placeChildren(children: Placed[], edge: number, cy: number, side: 1 | -1): void {
  const total = children.reduce((sum, child) => sum + child.span, 0) + Math.max(0, children.length - 1) * SIBLING_GAP;
  let y = cy - total / 2;
  for (const child of children) {
    const centre = y + child.span / 2;
    child.side = side;
    child.x = side === 1 ? edge : edge - child.width;
    child.y = centre - child.height / 2;
    const outer = side === 1 ? child.x + child.width : child.x;
    placeChildren(child.children, outer + side * look(child.depth).gap, centre, side);
    y += child.span + SIBLING_GAP;
  }
}

function flatten(placed: Placed): Placed[] {
  return [placed, ...placed.children.flatMap(flatten)];
}

/** Where a line meets a node: its middle, or the rule under text set without a box. */
function anchorY(placed: Placed): number {
  return placed.depth >= 2 && placed.node.shape === 'default' ? placed.y + placed.height : placed.y + placed.height / 2;
}

function connect(canvas: Canvas, parent: Placed, child: Placed, dx: number, dy: number, colors: DiagramColors): void {
  const side = child.side;
  const x1 = (side === 1 ? parent.x + parent.width : parent.x) + dx;
  const y1 = anchorY(parent) + dy;
  const x2 = (side === 1 ? child.x : child.x + child.width) + dx;
  const y2 = anchorY(child) + dy;
  const bend = (x2 - x1) / 2;
  const width = Math.max(1, 2.6 - parent.depth * 0.6);
  canvas.path(`M${n(x1)} ${n(y1)}C${n(x1 + bend)} ${n(y1)} ${n(x2 - bend)} ${n(y2)} ${n(x2)} ${n(y2)}`, {
    stroke: seriesColor(colors, child.branch),
    strokeWidth: width,
    cap: 'round',
  });
}

function drawNode(canvas: Canvas, placed: Placed, dx: number, dy: number, colors: DiagramColors): void {
  const style = look(placed.depth);
  const x = placed.x + dx;
  const y = placed.y + dy;
  const { width, height } = placed;
  const branchColor = placed.depth === 0 ? colors.accent : seriesColor(colors, placed.branch);
  const fill: Color = placed.depth === 0 ? colors.accent : placed.depth === 1 ? tintColor(colors, placed.branch) : colors.background;
  const paint = { fill, stroke: branchColor, strokeWidth: placed.depth === 0 ? 0 : 1 };
  switch (placed.depth >= 2 && placed.node.shape === 'default' ? 'rule' : placed.node.shape) {
    case 'rule':
      canvas.line(x, y + height, x + width, y + height, { stroke: branchColor, strokeWidth: 1.25, cap: 'round' });
      break;
    case 'circle':
      canvas.circle(x + width / 2, y + height / 2, width / 2, paint);
      break;
    case 'square':
      canvas.rect(x, y, width, height, paint);
      break;
    case 'hexagon': {
      const inset = height / 4;
      canvas.path(
        `M${n(x + inset)} ${n(y)}H${n(x + width - inset)}L${n(x + width)} ${n(y + height / 2)}L${n(x + width - inset)} ${n(y + height)}H${n(x + inset)}L${n(x)} ${n(y + height / 2)}Z`,
        paint,
      );
      break;
    }
    case 'cloud':
      canvas.path(cloudPath(x, y, width, height), paint);
      break;
    case 'bang':
      canvas.path(bangPath(x, y, width, height), paint);
      break;
    default:
      canvas.path(roundedRect(x, y, width, height, placed.depth === 0 ? height / 2 : 5), paint);
  }
  const textColor = placed.depth >= 2 && placed.node.shape === 'default' ? colors.text : textOn(fill, colors);
  const font: FontStyle = style.font;
  canvas.textBlock(
    placed.lines,
    x + width / 2,
    y + height / 2 + (placed.depth >= 2 && placed.node.shape === 'default' ? -1 : 0),
    { size: style.size, color: textColor, font, anchor: 'middle' },
    style.size * LEADING,
  );
}

/** A cloud: bumps of half-circles all round the box. */
function cloudPath(x: number, y: number, width: number, height: number): string {
  const bumpsX = Math.max(2, Math.round(width / 22));
  const bumpsY = Math.max(1, Math.round(height / 22));
  const rx = width / bumpsX / 2;
  const ry = height / bumpsY / 2;
  let d = `M${n(x)} ${n(y)}`;
  for (let i = 0; i < bumpsX; i++) d += `A${n(rx)} ${n(ry * 0.7)} 0 0 1 ${n(x + (i + 1) * 2 * rx)} ${n(y)}`;
  for (let i = 0; i < bumpsY; i++) d += `A${n(rx * 0.7)} ${n(ry)} 0 0 1 ${n(x + width)} ${n(y + (i + 1) * 2 * ry)}`;
  for (let i = bumpsX - 1; i >= 0; i--) d += `A${n(rx)} ${n(ry * 0.7)} 0 0 1 ${n(x + i * 2 * rx)} ${n(y + height)}`;
  for (let i = bumpsY - 1; i >= 0; i--) d += `A${n(rx * 0.7)} ${n(ry)} 0 0 1 ${n(x)} ${n(y + i * 2 * ry)}`;
  return `${d}Z`;
}

/** A bang: a burst with points all round the box. */
function bangPath(x: number, y: number, width: number, height: number): string {
  const cx = x + width / 2;
  const cy = y + height / 2;
  const points = 16;
  let d = '';
  for (let i = 0; i < points * 2; i++) {
    const angle = (i / (points * 2)) * 2 * Math.PI;
    const scale = i % 2 === 0 ? 0.62 : 0.5;
    d += `${i === 0 ? 'M' : 'L'}${n(cx + Math.cos(angle) * width * scale)} ${n(cy + Math.sin(angle) * height * scale)}`;
  }
  return `${d}Z`;
}
