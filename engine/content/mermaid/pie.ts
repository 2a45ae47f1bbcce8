import type { Drawing } from '../../drawing/drawing.js';
import { Canvas, centredBaseline, n } from './canvas.js';
import { seriesColor, textOn, type DiagramColors } from './colors.js';
import { textWidth } from './measure.js';
import { LABEL_SIZE, MARGIN, TITLE_BAND, titleStyle } from './sizes.js';
import { unquote, type MermaidSource } from './source.js';
import { MermaidSyntaxError } from './syntax-error.js';

interface Pie {
  title: string | null;
  showData: boolean;
  slices: Array<{ label: string; value: number }>;
}

const RADIUS = 92;
const LEGEND_ROW = 15;
const SWATCH = 9;
/** Slices thinner than this share of the whole keep their percentage to the legend. */
const SMALLEST_LABELLED = 0.04;

export function parsePie(source: MermaidSource): Pie {
  const pie: Pie = { title: null, showData: false, slices: [] };
  let header = source.headerRest;
  if (/^showData\b/i.test(header)) {
    pie.showData = true;
    header = header.slice('showData'.length).trim();
  }
  const readTitle = (statement: string) => /^title\s+(.+)$/i.exec(statement)?.[1]?.trim() ?? null;
  if (header) pie.title = unquote(readTitle(header) ?? invalid(header));
  for (const line of source.lines) {
    const title = readTitle(line);
    if (title !== null) {
      pie.title = unquote(title);
      continue;
    }
    const slice = /^"([^"]*)"\s*:\s*(\S+)$/.exec(line) ?? invalid(line);
    const value = Number(slice[2]);
    if (!Number.isFinite(value) || value < 0) throw new MermaidSyntaxError('a pie slice needs a value of zero or more', line);
    pie.slices.push({ label: slice[1]!, value });
  }
  if (pie.slices.length === 0) throw new MermaidSyntaxError('a pie chart needs at least one "label" : value');
  if (!pie.slices.some((slice) => slice.value > 0)) throw new MermaidSyntaxError('the pie slices add up to nothing');
  return pie;
}

function invalid(statement: string): never {
  throw new MermaidSyntaxError('not a pie chart statement', statement);
}

/** Slices from twelve o'clock clockwise, largest first; percentages inside, a legend beside. */
export function renderPie(source: MermaidSource, colors: DiagramColors): Drawing {
  const pie = parsePie(source);
  const canvas = new Canvas();
  const total = pie.slices.reduce((sum, slice) => sum + slice.value, 0);
  const legendLabels = pie.slices.map((slice) => (pie.showData ? `${slice.label} [${formatNumber(slice.value)}]` : slice.label));
  const legendWidth = SWATCH + 6 + Math.max(...legendLabels.map((label) => textWidth(label, LABEL_SIZE)));
  const legendHeight = pie.slices.length * LEGEND_ROW;
  const bodyHeight = Math.max(2 * RADIUS, legendHeight);
  let width = MARGIN * 2 + 2 * RADIUS + 24 + legendWidth;
  const top = MARGIN + (pie.title ? TITLE_BAND : 0);
  if (pie.title) width = Math.max(width, textWidth(pie.title, titleStyle(colors.text).size) + 2 * MARGIN);
  const cx = MARGIN + RADIUS;
  const cy = top + bodyHeight / 2;

  const order = pie.slices.map((slice, index) => ({ ...slice, index })).sort((a, b) => b.value - a.value);
  let angle = -Math.PI / 2;
  for (const slice of order) {
    const sweep = (slice.value / total) * 2 * Math.PI;
    if (sweep <= 0) continue;
    const fill = seriesColor(colors, slice.index);
    canvas.path(slicePath(cx, cy, RADIUS, angle, angle + sweep), { fill, stroke: colors.background, strokeWidth: 1.5, join: 'round' });
    if (slice.value / total >= SMALLEST_LABELLED) {
      const middle = angle + sweep / 2;
      const at = sweep >= 2 * Math.PI - 1e-9 ? 0 : RADIUS * 0.68;
      canvas.text(`${Math.round((slice.value / total) * 100)}%`, cx + at * Math.cos(middle), centredBaseline(cy + at * Math.sin(middle), LABEL_SIZE), {
        size: LABEL_SIZE,
        color: textOn(fill, colors),
        anchor: 'middle',
      });
    }
    angle += sweep;
  }

  const legendX = MARGIN + 2 * RADIUS + 24;
  const legendTop = cy - legendHeight / 2;
  legendLabels.forEach((label, index) => {
    const rowCentre = legendTop + (index + 0.5) * LEGEND_ROW;
    canvas.rect(legendX, rowCentre - SWATCH / 2, SWATCH, SWATCH, { fill: seriesColor(colors, index) }, 1.5);
    canvas.text(label, legendX + SWATCH + 6, centredBaseline(rowCentre, LABEL_SIZE), { size: LABEL_SIZE, color: colors.text });
  });
  if (pie.title) canvas.text(pie.title, width / 2, MARGIN + titleStyle(colors.text).size, titleStyle(colors.text));
  return canvas.drawing(width, top + bodyHeight + MARGIN);
}

function slicePath(cx: number, cy: number, r: number, from: number, to: number): string {
  if (to - from >= 2 * Math.PI - 1e-9) return `M${n(cx - r)} ${n(cy)}A${r} ${r} 0 1 1 ${n(cx + r)} ${n(cy)}A${r} ${r} 0 1 1 ${n(cx - r)} ${n(cy)}Z`;
  const large = to - from > Math.PI ? 1 : 0;
  const [x1, y1] = [cx + r * Math.cos(from), cy + r * Math.sin(from)];
  const [x2, y2] = [cx + r * Math.cos(to), cy + r * Math.sin(to)];
  return `M${n(cx)} ${n(cy)}L${n(x1)} ${n(y1)}A${r} ${r} 0 ${large} 1 ${n(x2)} ${n(y2)}Z`;
}

/** Up to two decimals, without trailing zeros. */
function formatNumber(value: number): string {
  return String(Math.round(value * 100) / 100);
}
