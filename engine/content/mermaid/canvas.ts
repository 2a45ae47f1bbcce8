import { RendererBoundError } from '../../errors.js';
import type { Color } from '../../style/color.js';
import { fontLibrary } from '../../text/font-library.js';
import { IDENTITY, type Matrix } from '../../drawing/matrix.js';
import type { Drawing, DrawingItem, Stroke } from '../../drawing/drawing.js';
import type { FontStyle } from '../../text/font-catalog.js';
import { REGULAR } from './measure.js';

export interface Paint {
  fill?: Color | null;
  fillOpacity?: number;
  stroke?: Color | null;
  strokeWidth?: number;
  dash?: number[] | null;
  cap?: Stroke['cap'];
  join?: Stroke['join'];
}

export interface TextStyle {
  size: number;
  color: Color;
  font?: FontStyle;
  anchor?: 'start' | 'middle' | 'end';
}

/** Items one diagram may draw: far above any readable diagram, low enough to stay quick. */
const MAX_ITEMS = 20_000;

/**
 * What Quire's own diagram renderers draw on: shapes and text in points (one drawing unit is one
 * point), collected into a Drawing. Text stays text, set later in Quire's fonts.
 */
export class Canvas {
  private readonly items: DrawingItem[] = [];

  path(d: string, paint: Paint, transform: Matrix = IDENTITY): void {
    this.push({
      kind: 'path',
      d,
      transform,
      fill: paint.fill ?? null,
      fillOpacity: paint.fillOpacity ?? 1,
      fillRule: 'nonzero',
      stroke: paint.stroke
        ? { color: paint.stroke, width: paint.strokeWidth ?? 1, opacity: 1, cap: paint.cap ?? 'butt', join: paint.join ?? 'miter', dash: paint.dash ?? null }
        : null,
    });
  }

  rect(x: number, y: number, width: number, height: number, paint: Paint, radius = 0): void {
    this.path(roundedRect(x, y, width, height, radius), paint);
  }

  circle(cx: number, cy: number, r: number, paint: Paint): void {
    this.path(`M${n(cx - r)} ${n(cy)}A${n(r)} ${n(r)} 0 1 0 ${n(cx + r)} ${n(cy)}A${n(r)} ${n(r)} 0 1 0 ${n(cx - r)} ${n(cy)}Z`, paint);
  }

  line(x1: number, y1: number, x2: number, y2: number, paint: Paint): void {
    this.path(`M${n(x1)} ${n(y1)}L${n(x2)} ${n(y2)}`, { ...paint, fill: null });
  }

  /** One line of text with its baseline at `y`. */
  text(text: string, x: number, y: number, style: TextStyle): void {
    if (!text.trim()) return;
    this.push({
      kind: 'text',
      text,
      x,
      y,
      transform: IDENTITY,
      size: style.size,
      font: style.font ?? REGULAR,
      color: style.color,
      anchor: style.anchor ?? 'start',
    });
  }

  /** Lines of text set `leading` apart, the block centred vertically on `cy`. */
  textBlock(lines: string[], x: number, cy: number, style: TextStyle, leading = style.size * 1.2): void {
    const first = cy - ((lines.length - 1) * leading) / 2;
    lines.forEach((line, index) => this.text(line, x, centredBaseline(first + index * leading, style.size, style.font), style));
  }

  drawing(width: number, height: number): Drawing {
    return { width, height, unit: 1, baseline: height, items: this.items };
  }

  private push(item: DrawingItem): void {
    if (this.items.length >= MAX_ITEMS) throw new RendererBoundError('ElementLimit', `a diagram draws more than ${MAX_ITEMS} shapes`);
    this.items.push(item);
  }
}

/** The baseline that centres capital letters on `cy`. */
export function centredBaseline(cy: number, size: number, font: FontStyle = REGULAR): number {
  const face = fontLibrary.primary(font);
  return cy + (face.capHeight * face.scale(size)) / 2;
}

export function roundedRect(x: number, y: number, width: number, height: number, radius: number): string {
  const r = Math.max(0, Math.min(radius, width / 2, height / 2));
  if (r === 0) return `M${n(x)} ${n(y)}H${n(x + width)}V${n(y + height)}H${n(x)}Z`;
  return `M${n(x + r)} ${n(y)}H${n(x + width - r)}A${n(r)} ${n(r)} 0 0 1 ${n(x + width)} ${n(y + r)}V${n(y + height - r)}A${n(r)} ${n(r)} 0 0 1 ${n(x + width - r)} ${n(y + height)}H${n(x + r)}A${n(r)} ${n(r)} 0 0 1 ${n(x)} ${n(y + height - r)}V${n(y + r)}A${n(r)} ${n(r)} 0 0 1 ${n(x + r)} ${n(y)}Z`;
}

/** A number for path data: short, and the same on every run. */
export function n(value: number): string {
  return String(Math.round(value * 100) / 100);
}
