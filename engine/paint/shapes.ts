import type { Color } from '../style/color.js';
import { num, rgb } from './pdf-values.js';

/** Bézier control distance for a quarter circle. */
const KAPPA = 0.5522847498;

/**
 * Content-stream operators for Quire's simple shapes, written directly in the page's top-left
 * coordinates (PDFKit flips the page's coordinate system when it adds a page).
 */
export function rectOps(x: number, y: number, width: number, height: number, radius: number): string {
  if (radius <= 0) return `${num(x)} ${num(y)} ${num(width)} ${num(height)} re`;
  const r = Math.min(radius, width / 2, height / 2);
  const k = r * KAPPA;
  const right = x + width;
  const bottom = y + height;
  return [
    `${num(x + r)} ${num(y)} m`,
    `${num(right - r)} ${num(y)} l`,
    `${num(right - r + k)} ${num(y)} ${num(right)} ${num(y + r - k)} ${num(right)} ${num(y + r)} c`,
    `${num(right)} ${num(bottom - r)} l`,
    `${num(right)} ${num(bottom - r + k)} ${num(right - r + k)} ${num(bottom)} ${num(right - r)} ${num(bottom)} c`,
    `${num(x + r)} ${num(bottom)} l`,
    `${num(x + r - k)} ${num(bottom)} ${num(x)} ${num(bottom - r + k)} ${num(x)} ${num(bottom - r)} c`,
    `${num(x)} ${num(y + r)} l`,
    `${num(x)} ${num(y + r - k)} ${num(x + r - k)} ${num(y)} ${num(x + r)} ${num(y)} c`,
    'h',
  ].join('\n');
}

export interface ShapePaint {
  fill: Color | null;
  stroke: Color | null;
  lineWidth: number;
}

/** Paints a path already written as operators, with its colours, inside its own graphics state. */
export function paintOps(path: string, paint: ShapePaint): string {
  const ops = ['q'];
  if (paint.fill) ops.push(`${rgb(paint.fill)} rg`);
  if (paint.stroke) ops.push(`${rgb(paint.stroke)} RG`, `${num(paint.lineWidth)} w`);
  ops.push(path, paint.fill && paint.stroke ? 'B' : paint.fill ? 'f' : 'S', 'Q');
  return ops.join('\n');
}

export function lineOps(x1: number, y1: number, x2: number, y2: number, width: number, color: Color): string {
  return ['q', `${rgb(color)} RG`, `${num(width)} w`, '0 J', `${num(x1)} ${num(y1)} m`, `${num(x2)} ${num(y2)} l`, 'S', 'Q'].join('\n');
}
