import type { Drawing } from '../../drawing/drawing.js';
import { Canvas } from './canvas.js';
import { seriesColor, textOn, tintColor, type DiagramColors } from './colors.js';
import { balancedRow } from './rows.js';
import { drawSectionBands } from './section-bands.js';
import { SEMIBOLD, wrapText } from './measure.js';
import { LABEL_SIZE, MARGIN, TITLE_BAND, titleStyle } from './sizes.js';
import { unquote, type MermaidSource } from './source.js';
import { MermaidSyntaxError } from './syntax-error.js';

interface Period {
  label: string;
  section: number;
  events: string[];
}

interface Timeline {
  title: string | null;
  sections: string[];
  periods: Period[];
}

const COLUMN = 84;
const GAP = 8;
const PER_ROW = 5;
const PADDING = 5;
const EVENT_SIZE = 8.5;
const LEADING = 1.22;
const ROW_GAP = 18;

export function parseTimeline(source: MermaidSource): Timeline {
  const timeline: Timeline = { title: null, sections: [], periods: [] };
  for (const line of source.lines) {
    const title = /^title\s+(.+)$/.exec(line);
    if (title) {
      timeline.title = unquote(title[1]!);
      continue;
    }
    const section = /^section\s+(.+)$/.exec(line);
    if (section) {
      timeline.sections.push(section[1]!.trim());
      continue;
    }
    // `period : event : event`; a line starting with ':' adds events to the period before.
    const [period = '', ...events] = line.split(/\s*:(?=\s|$)\s*/).map((part) => part.trim());
    if (period) timeline.periods.push({ label: period, section: timeline.sections.length - 1, events: [] });
    const current = timeline.periods.at(-1);
    if (!current) throw new MermaidSyntaxError('events need a time period before them', line);
    current.events.push(...events.filter(Boolean));
  }
  if (timeline.periods.length === 0) throw new MermaidSyntaxError('a timeline needs at least one time period');
  return timeline;
}

/**
 * Time periods left to right (five to a row, so long timelines wrap rather than shrink), each
 * with its events stacked below; sections as bands over their periods.
 */
export function renderTimeline(source: MermaidSource, colors: DiagramColors): Drawing {
  const timeline = parseTimeline(source);
  const canvas = new Canvas();
  const perRow = balancedRow(timeline.periods.length, PER_ROW);
  const columns = Math.min(perRow, timeline.periods.length);
  const width = 2 * MARGIN + columns * COLUMN + (columns - 1) * GAP;
  const hasSections = timeline.sections.length > 0;
  const hue = (period: Period, index: number) => (hasSections ? Math.max(period.section, 0) : index);
  const textWidthLimit = COLUMN - 2 * PADDING;
  let y = MARGIN + (timeline.title ? TITLE_BAND : 0);

  for (let first = 0; first < timeline.periods.length; first += perRow) {
    const row = timeline.periods.slice(first, first + perRow);
    const left = (column: number) => MARGIN + column * (COLUMN + GAP);

    if (hasSections)
      y =
        drawSectionBands(
          canvas,
          timeline.sections,
          row.map((period) => period.section),
          { left, width: COLUMN, gap: GAP },
          y,
          colors,
        ) + 6;

    const periodLines = row.map((period) => wrapText(period.label, LABEL_SIZE, textWidthLimit, SEMIBOLD));
    const periodHeight = Math.max(...periodLines.map((lines) => lines.length)) * LABEL_SIZE * LEADING + 2 * PADDING;
    row.forEach((period, column) => {
      const fill = hasSections ? tintColor(colors, hue(period, first + column)) : seriesColor(colors, hue(period, first + column));
      canvas.rect(left(column), y, COLUMN, periodHeight, { fill, stroke: seriesColor(colors, hue(period, first + column)), strokeWidth: 0.75 }, 4);
      canvas.textBlock(
        periodLines[column]!,
        left(column) + COLUMN / 2,
        y + periodHeight / 2,
        { size: LABEL_SIZE, color: textOn(fill, colors), font: SEMIBOLD, anchor: 'middle' },
        LABEL_SIZE * LEADING,
      );
    });
    y += periodHeight;

    // The time line itself, an arrow on the last row.
    const axisY = y + 12;
    const axisEnd = left(row.length - 1) + COLUMN + (first + perRow >= timeline.periods.length ? 4 : 0);
    canvas.line(MARGIN, axisY, axisEnd, axisY, { stroke: colors.line, strokeWidth: 1.25 });
    if (first + perRow >= timeline.periods.length)
      canvas.path(`M${axisEnd + 5} ${axisY}L${axisEnd - 2} ${axisY - 3.5}L${axisEnd - 2} ${axisY + 3.5}Z`, { fill: colors.line });

    let bottom = axisY;
    row.forEach((period, column) => {
      const cx = left(column) + COLUMN / 2;
      canvas.circle(cx, axisY, 3, { fill: seriesColor(colors, hue(period, first + column)), stroke: colors.background, strokeWidth: 1 });
      let eventTop = axisY + 12;
      for (const event of period.events) {
        const lines = wrapText(event, EVENT_SIZE, textWidthLimit);
        const height = lines.length * EVENT_SIZE * LEADING + 2 * PADDING - 2;
        canvas.line(cx, eventTop - (eventTop === axisY + 12 ? 8 : 6), cx, eventTop, { stroke: colors.border, strokeWidth: 0.75, dash: [2, 2] });
        canvas.rect(left(column), eventTop, COLUMN, height, { fill: colors.surface, stroke: colors.border, strokeWidth: 0.5 }, 3);
        canvas.textBlock(lines, cx, eventTop + height / 2, { size: EVENT_SIZE, color: colors.text, anchor: 'middle' }, EVENT_SIZE * LEADING);
        eventTop += height + 6;
      }
      bottom = Math.max(bottom, eventTop - 6);
    });
    y = bottom + ROW_GAP;
  }
  if (timeline.title) canvas.text(timeline.title, width / 2, MARGIN + titleStyle(colors.text).size, titleStyle(colors.text));
  return canvas.drawing(width, y - ROW_GAP + MARGIN);
}
