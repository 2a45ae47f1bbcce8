import type { Drawing } from '../../drawing/drawing.js';
import { Canvas, centredBaseline, n } from './canvas.js';
import { mix, seriesColor, textOn, tintColor, type DiagramColors } from './colors.js';
import { DAY, defaultAxisFormat, formatTime, ticks } from './gantt-time.js';
import { parseGantt, type Gantt, type GanttTask } from './gantt-parse.js';
import { SEMIBOLD, textWidth, wrapText } from './measure.js';
import { LABEL_SIZE, MARGIN, SMALL_SIZE, TITLE_BAND, titleStyle } from './sizes.js';
import type { MermaidSource } from './source.js';

const WIDTH = 470;
const ROW = 19;
const BAR = 13;
const AXIS_BAND = 18;
const TASK_SIZE = 8.5;
const SECTION_COLUMN_MAX = 110;
/** Excluded days are shaded only while there are few enough to see one by one. */
const MAX_SHADED_DAYS = 1_000;
/** Critical tasks are red, so sections take the other hues. */
const CRITICAL_HUE = 3;
const SECTION_HUES = [0, 1, 2, 4, 6, 5, 7, 8, 9];
const sectionHue = (section: number) => SECTION_HUES[section % SECTION_HUES.length]!;

/** Sections down the left, one row per task on a time axis, excluded days shaded. */
export function renderGantt(source: MermaidSource, colors: DiagramColors): Drawing {
  const gantt = parseGantt(source);
  const canvas = new Canvas();
  const named = gantt.sections.some(Boolean);
  const sectionLines = gantt.sections.map((name) => wrapText(name, LABEL_SIZE, SECTION_COLUMN_MAX - 12, SEMIBOLD));
  const column = named ? Math.min(SECTION_COLUMN_MAX, Math.max(...sectionLines.flat().map((line) => textWidth(line, LABEL_SIZE, SEMIBOLD))) + 12) : 0;
  const top = MARGIN + (gantt.title ? TITLE_BAND : 0);
  // A little room inside the axis, so milestones at either end keep their whole diamond.
  const x0 = MARGIN + column + 8;
  const x1 = WIDTH - MARGIN - 8;
  const from = Math.min(...gantt.tasks.map((task) => task.start));
  const to = Math.max(...gantt.tasks.map((task) => task.end), from + DAY / 24);
  const x = (time: number) => x0 + ((time - from) / (to - from)) * (x1 - x0);

  // Rows: tasks in written order, grouped by section; each section at least as tall as its name.
  const rows = new Map<GanttTask, number>();
  let y = top;
  const bands: Array<{ section: number; top: number; bottom: number }> = [];
  gantt.sections.forEach((_, section) => {
    const tasks = gantt.tasks.filter((task) => task.section === section);
    if (tasks.length === 0 && !gantt.sections[section]) return;
    const bandTop = y;
    tasks.forEach((task) => {
      rows.set(task, y + ROW / 2);
      y += ROW;
    });
    y = Math.max(y, bandTop + sectionLines[section]!.length * LABEL_SIZE * 1.25 + 6);
    bands.push({ section, top: bandTop, bottom: y });
  });
  const chartBottom = y;

  bands.forEach((band, index) => {
    if (index % 2 === 0)
      canvas.rect(MARGIN, band.top, WIDTH - 2 * MARGIN, band.bottom - band.top, {
        fill: mix(seriesColor(colors, sectionHue(band.section)), colors.background, 0.07),
      });
    if (named)
      canvas.textBlock(
        sectionLines[band.section]!,
        MARGIN + 6,
        (band.top + band.bottom) / 2,
        { size: LABEL_SIZE, color: colors.text, font: SEMIBOLD },
        LABEL_SIZE * 1.25,
      );
  });
  if (gantt.excluded) shadeExcluded(canvas, gantt.excluded, from, to, x, top, chartBottom, colors);

  const format = gantt.axisFormat ?? defaultAxisFormat(from, to);
  let labelledTo = -Infinity;
  for (const tick of ticks(from, to, 10, gantt.tickInterval, gantt.weekStart)) {
    canvas.line(x(tick), top, x(tick), chartBottom + 3, { stroke: colors.grid, strokeWidth: 0.5 });
    // Every tick keeps its line; a label that would touch the one before is left out.
    const label = formatTime(tick, format);
    const half = textWidth(label, SMALL_SIZE) / 2;
    if (x(tick) - half < labelledTo + 6) continue;
    canvas.text(label, x(tick), chartBottom + 3 + SMALL_SIZE * 1.3, { size: SMALL_SIZE, color: colors.muted, anchor: 'middle' });
    labelledTo = x(tick) + half;
  }
  canvas.line(x0 - 8, chartBottom, x1 + 8, chartBottom, { stroke: colors.line, strokeWidth: 0.75 });

  for (const task of gantt.tasks) drawTask(canvas, task, rows.get(task)!, x, x0, x1, colors);
  if (gantt.title) canvas.text(gantt.title, WIDTH / 2, MARGIN + titleStyle(colors.text).size, titleStyle(colors.text));
  return canvas.drawing(WIDTH, chartBottom + AXIS_BAND + MARGIN);
}

function drawTask(canvas: Canvas, task: GanttTask, cy: number, x: (time: number) => number, x0: number, x1: number, colors: DiagramColors): void {
  const critical = seriesColor(colors, CRITICAL_HUE);
  const hue = sectionHue(task.section);
  const stroke = task.tags.has('crit') ? critical : task.tags.has('done') ? colors.muted : seriesColor(colors, hue);
  const fill = task.tags.has('done')
    ? mix(colors.muted, colors.background, 0.3)
    : task.tags.has('crit')
      ? mix(critical, colors.background, 0.3)
      : task.tags.has('active')
        ? colors.background
        : tintColor(colors, hue);
  const strokeWidth = task.tags.has('active') || task.tags.has('crit') ? 1.5 : 0.75;
  const left = x(task.start);
  const right = x(task.end);
  const width = textWidth(task.name, TASK_SIZE);
  const baseline = centredBaseline(cy, TASK_SIZE);
  const outside = { size: TASK_SIZE, color: colors.text };
  // Beside the shape from `from` to `to`: on the right unless only the left has room.
  const beside = (from: number, to: number, gap: number) => {
    if (to + gap + width <= x1 || from - gap - width < x0) canvas.text(task.name, to + gap, baseline, outside);
    else canvas.text(task.name, from - gap, baseline, { ...outside, anchor: 'end' });
  };
  if (task.tags.has('milestone')) {
    // A diamond in the middle of the milestone's time, as Mermaid sets it.
    const mx = (left + right) / 2;
    const h = BAR / 2 + 1;
    canvas.path(`M${n(mx)} ${n(cy - h)}L${n(mx + h)} ${n(cy)}L${n(mx)} ${n(cy + h)}L${n(mx - h)} ${n(cy)}Z`, {
      fill: stroke,
      stroke,
      strokeWidth: 0.75,
      join: 'round',
    });
    beside(mx - h, mx + h, 4);
    return;
  }
  canvas.rect(left, cy - BAR / 2, Math.max(right - left, 1), BAR, { fill, stroke, strokeWidth }, 2.5);
  if (width + 8 <= right - left) canvas.text(task.name, (left + right) / 2, baseline, { size: TASK_SIZE, color: textOn(fill, colors), anchor: 'middle' });
  else beside(left, right, 4);
}

function shadeExcluded(
  canvas: Canvas,
  excluded: NonNullable<Gantt['excluded']>,
  from: number,
  to: number,
  x: (time: number) => number,
  top: number,
  bottom: number,
  colors: DiagramColors,
): void {
  const first = Math.floor(from / DAY) * DAY;
  if ((to - first) / DAY > MAX_SHADED_DAYS) return;
  let runStart: number | null = null;
  for (let day = first; day <= to; day += DAY) {
    const out = excluded(day);
    if (out && runStart === null) runStart = day;
    if ((!out || day + DAY > to) && runStart !== null) {
      const end = out ? day + DAY : day;
      const left = x(Math.max(runStart, from));
      canvas.rect(left, top, x(Math.min(end, to)) - left, bottom - top, { fill: colors.grid, fillOpacity: 0.45 });
      runStart = null;
    }
  }
}
