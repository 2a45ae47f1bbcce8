import type { Drawing } from '../../drawing/drawing.js';
import { Canvas } from './canvas.js';
import { mix, seriesColor, type DiagramColors } from './colors.js';
import { SEMIBOLD, textWidth, wrapText } from './measure.js';
import { parseQuadrantChart } from './quadrant-parse.js';
import { LABEL_SIZE, MARGIN, SMALL_SIZE, TITLE_BAND, titleStyle } from './sizes.js';
import type { MermaidSource } from './source.js';

const PLOT = 260;
const AXIS_LABEL_WIDTH = 72;
const POINT_RADIUS = 4.5;
/** The four quadrants' hues (top right, top left, bottom left, bottom right). */
const QUADRANT_HUES = [2, 0, 3, 1];

/** Four tinted quadrants with their names, axis ends written beside the plot, labelled points. */
export function renderQuadrantChart(source: MermaidSource, colors: DiagramColors): Drawing {
  const chart = parseQuadrantChart(source);
  const canvas = new Canvas();
  const yLabels = chart.yAxis.map((label) => (label ? wrapText(label, LABEL_SIZE, AXIS_LABEL_WIDTH) : []));
  const left = MARGIN + (yLabels.some((lines) => lines.length > 0) ? AXIS_LABEL_WIDTH + 8 : 0);
  const top = MARGIN + (chart.title ? TITLE_BAND : 0);
  const half = PLOT / 2;
  const width = left + PLOT + MARGIN;

  // Quadrants numbered as Mermaid does: 1 top right, 2 top left, 3 bottom left, 4 bottom right.
  const origins: Array<[number, number]> = [
    [left + half, top],
    [left, top],
    [left, top + half],
    [left + half, top + half],
  ];
  origins.forEach(([x, y], index) => {
    const fill = mix(seriesColor(colors, QUADRANT_HUES[index]!), colors.background, 0.16);
    canvas.rect(x + 0.75, y + 0.75, half - 1.5, half - 1.5, { fill });
    const name = chart.quadrants[index];
    if (name) {
      const lines = wrapText(name, LABEL_SIZE + 0.5, half - 16, SEMIBOLD);
      const cy = chart.points.length > 0 ? y + 10 + (lines.length * (LABEL_SIZE + 0.5) * 1.2) / 2 : y + half / 2;
      canvas.textBlock(lines, x + half / 2, cy, { size: LABEL_SIZE + 0.5, color: mix(colors.text, fill, 0.8), font: SEMIBOLD, anchor: 'middle' });
    }
  });
  canvas.rect(left, top, PLOT, PLOT, { stroke: colors.border, strokeWidth: 0.75 });

  // Axis ends: x under the plot (left and right halves), y beside it (lower and upper halves).
  const [xLow, xHigh] = chart.xAxis;
  const xBaseline = top + PLOT + 6 + LABEL_SIZE;
  if (xLow && xHigh) {
    canvas.text(xLow, left + half / 2, xBaseline, { size: LABEL_SIZE, color: colors.muted, anchor: 'middle' });
    canvas.text(xHigh, left + 1.5 * half, xBaseline, { size: LABEL_SIZE, color: colors.muted, anchor: 'middle' });
  } else if (xLow) canvas.text(xLow, left + half, xBaseline, { size: LABEL_SIZE, color: colors.muted, anchor: 'middle' });
  const [yLow, yHigh] = yLabels;
  const style = { size: LABEL_SIZE, color: colors.muted, anchor: 'end' as const };
  if (yHigh!.length > 0) {
    canvas.textBlock(yLow!, left - 8, top + 1.5 * half, style);
    canvas.textBlock(yHigh!, left - 8, top + half / 2, style);
    const ax = left - 8 - Math.max(...[...yLow!, ...yHigh!].map((line) => textWidth(line, LABEL_SIZE))) / 2;
    canvas.path(`M${ax} ${top + half + 12}V${top + half - 12}M${ax - 3} ${top + half - 8}L${ax} ${top + half - 12}L${ax + 3} ${top + half - 8}`, {
      stroke: colors.muted,
      strokeWidth: 0.75,
      cap: 'round',
      join: 'round',
    });
  } else if (yLow!.length > 0) canvas.textBlock(yLow!, left - 8, top + half, style);
  if (xLow && xHigh)
    canvas.path(
      `M${left + half - 12} ${xBaseline - 3}H${left + half + 12}M${left + half + 8} ${xBaseline - 6}L${left + half + 12} ${xBaseline - 3}L${left + half + 8} ${xBaseline}`,
      { stroke: colors.muted, strokeWidth: 0.75, cap: 'round', join: 'round' },
    );

  for (const point of chart.points) {
    const cx = left + point.x * PLOT;
    const cy = top + (1 - point.y) * PLOT;
    const radius = point.radius ?? POINT_RADIUS;
    const fill = point.color ?? colors.accent;
    canvas.circle(cx, cy, radius, { fill, stroke: point.strokeColor ?? colors.background, strokeWidth: point.strokeWidth ?? 1 });
    const labelWidth = textWidth(point.name, SMALL_SIZE + 0.5);
    const below = cy + radius + 3 + SMALL_SIZE + 0.5 <= top + PLOT - 2;
    const labelY = below ? cy + radius + 2.5 + SMALL_SIZE : cy - radius - 3;
    const labelX = Math.min(Math.max(cx, left + labelWidth / 2 + 2), left + PLOT - labelWidth / 2 - 2);
    canvas.text(point.name, labelX, labelY, { size: SMALL_SIZE + 0.5, color: colors.text, anchor: 'middle' });
  }
  if (chart.title) canvas.text(chart.title, left + half, MARGIN + titleStyle(colors.text).size, titleStyle(colors.text));
  return canvas.drawing(width, xBaseline + (xLow ? 6 : 0) + MARGIN);
}
