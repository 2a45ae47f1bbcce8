import type { Color } from '../../style/color.js';
import { parseColor } from '../svg/css-values.js';
import { unquote, type MermaidSource } from './source.js';
import { MermaidSyntaxError } from './syntax-error.js';

export interface PointStyle {
  radius?: number;
  color?: Color;
  strokeColor?: Color;
  strokeWidth?: number;
}

export interface QuadrantPoint extends PointStyle {
  name: string;
  x: number;
  y: number;
}

export interface QuadrantChart {
  title: string | null;
  /** Axis ends: x left and right, y bottom and top; null where not written. */
  xAxis: [string | null, string | null];
  yAxis: [string | null, string | null];
  /** quadrant-1 (top right) to quadrant-4 (bottom right), anticlockwise as Mermaid numbers them. */
  quadrants: [string | null, string | null, string | null, string | null];
  points: QuadrantPoint[];
}

export function parseQuadrantChart(source: MermaidSource): QuadrantChart {
  const chart: QuadrantChart = { title: null, xAxis: [null, null], yAxis: [null, null], quadrants: [null, null, null, null], points: [] };
  const classes = new Map<string, PointStyle>();
  const points: Array<{ point: QuadrantPoint; className: string | null; line: string }> = [];
  for (const line of source.lines) {
    let match: RegExpExecArray | null;
    if ((match = /^title\s+(.+)$/.exec(line))) chart.title = unquote(match[1]!);
    else if ((match = /^([xy])-axis\s+(.*)$/.exec(line))) {
      const [low, high] = match[2]!.split(/\s*-->\s*/);
      const ends: [string | null, string | null] = [low ? unquote(low) : null, high ? unquote(high) : null];
      if (match[1] === 'x') chart.xAxis = ends;
      else chart.yAxis = ends;
    } else if ((match = /^quadrant-([1-4])\s+(.+)$/.exec(line))) chart.quadrants[Number(match[1]) - 1] = unquote(match[2]!);
    else if ((match = /^classDef\s+(\S+)\s+(.+)$/.exec(line))) classes.set(match[1]!, readStyle(match[2]!, line));
    else if ((match = /^(.+?)(?::::([\w-]+))?\s*:\s*\[\s*([^,\]]+)\s*,\s*([^\]]+)\]\s*(.*)$/.exec(line))) {
      const x = Number(match[3]);
      const y = Number(match[4]);
      if (!(x >= 0 && x <= 1 && y >= 0 && y <= 1)) throw new MermaidSyntaxError('quadrant points lie between 0 and 1', line);
      points.push({ point: { name: unquote(match[1]!), x, y, ...readStyle(match[5]!, line) }, className: match[2] ?? null, line });
    } else throw new MermaidSyntaxError('not a quadrantChart statement', line);
  }
  // A class gives defaults; a point's own style wins.
  chart.points = points.map(({ point, className, line }) => {
    if (className === null) return point;
    const style = classes.get(className);
    if (!style) throw new MermaidSyntaxError(`no classDef "${className}"`, line);
    return { ...style, ...point };
  });
  return chart;
}

/** `radius: 12, color: #ff3300, stroke-color: #10f0f0, stroke-width: 5px` */
function readStyle(text: string, line: string): PointStyle {
  const style: PointStyle = {};
  for (const part of text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)) {
    const [key, value] = part.split(/\s*:\s*/) as [string, string | undefined];
    if (value === undefined) throw new MermaidSyntaxError('a point style is written "name: value"', line);
    if (key === 'radius') style.radius = Math.min(40, Math.max(1, Number.parseFloat(value) || 5));
    else if (key === 'stroke-width') style.strokeWidth = Math.min(10, Math.max(0, Number.parseFloat(value) || 0));
    else if (key === 'color' || key === 'stroke-color') {
      const color = parseColor(value)?.color ?? null;
      if (!color) throw new MermaidSyntaxError(`"${value}" is not a colour`, line);
      if (key === 'color') style.color = color;
      else style.strokeColor = color;
    } else throw new MermaidSyntaxError(`"${key}" is not a point style`, line);
  }
  return style;
}
