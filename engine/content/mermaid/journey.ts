import type { Color } from '../../style/color.js';
import type { Drawing } from '../../drawing/drawing.js';
import { Canvas, centredBaseline, n } from './canvas.js';
import { seriesColor, textOn, tintColor, type DiagramColors } from './colors.js';
import { balancedRow } from './rows.js';
import { drawSectionBands } from './section-bands.js';
import { textWidth, wrapText } from './measure.js';
import { LABEL_SIZE, MARGIN, SMALL_SIZE, TITLE_BAND, titleStyle } from './sizes.js';
import { unquote, type MermaidSource } from './source.js';
import { MermaidSyntaxError } from './syntax-error.js';

interface Task {
  name: string;
  score: number;
  actors: string[];
  section: number;
}

interface Journey {
  title: string | null;
  sections: string[];
  tasks: Task[];
  actors: string[];
}

const COLUMN = 70;
const GAP = 6;
const PER_ROW = 6;
const PADDING = 5;
const TASK_SIZE = 8.5;
const LEADING = 1.22;
const FACE = 8;
/** Height of one score step (1 to 5) on the mood track. */
const SCORE_STEP = 11;
/** Faces are green from this score, red below the neutral one. */
const HAPPY = 4;
const NEUTRAL = 3;

export function parseJourney(source: MermaidSource): Journey {
  const journey: Journey = { title: null, sections: [], tasks: [], actors: [] };
  for (const line of source.lines) {
    const title = /^title\s+(.+)$/.exec(line);
    if (title) {
      journey.title = unquote(title[1]!);
      continue;
    }
    const section = /^section\s+(.+)$/.exec(line);
    if (section) {
      journey.sections.push(section[1]!.trim());
      continue;
    }
    const task = /^(.+?)\s*:\s*(-?\d+(?:\.\d+)?)\s*(?::\s*(.*))?$/.exec(line) ?? invalid(line);
    const actors = (task[3] ?? '')
      .split(',')
      .map((actor) => actor.trim())
      .filter(Boolean);
    for (const actor of actors) if (!journey.actors.includes(actor)) journey.actors.push(actor);
    journey.tasks.push({ name: task[1]!.trim(), score: Math.min(5, Math.max(1, Number(task[2]))), actors, section: journey.sections.length - 1 });
  }
  if (journey.tasks.length === 0) throw new MermaidSyntaxError('a journey needs at least one task written "name: score: actors"');
  return journey;
}

function invalid(line: string): never {
  throw new MermaidSyntaxError('a journey task is written "name: score: actors"', line);
}

/**
 * Tasks left to right under their sections (five to a row), the actors taking part as dots,
 * and below them a mood line through faces set as high as each task's score.
 */
export function renderJourney(source: MermaidSource, colors: DiagramColors): Drawing {
  const journey = parseJourney(source);
  const canvas = new Canvas();
  const perRow = balancedRow(journey.tasks.length, PER_ROW);
  const columns = Math.min(perRow, journey.tasks.length);
  const width = 2 * MARGIN + columns * COLUMN + (columns - 1) * GAP;
  const actorColor = (actor: string) => seriesColor(colors, journey.actors.indexOf(actor) + 4);
  let y = MARGIN + (journey.title ? TITLE_BAND : 0);

  if (journey.actors.length > 0) {
    let x = MARGIN;
    for (const actor of journey.actors) {
      const label = textWidth(actor, LABEL_SIZE);
      if (x > MARGIN && x + 10 + label > width - MARGIN) {
        x = MARGIN;
        y += LABEL_SIZE * 1.6;
      }
      canvas.circle(x + 4, y + LABEL_SIZE / 2, 4, { fill: actorColor(actor) });
      canvas.text(actor, x + 11, centredBaseline(y + LABEL_SIZE / 2, LABEL_SIZE), { size: LABEL_SIZE, color: colors.text });
      x += 11 + label + 14;
    }
    y += LABEL_SIZE + 12;
  }

  for (let first = 0; first < journey.tasks.length; first += perRow) {
    const row = journey.tasks.slice(first, first + perRow);
    const left = (column: number) => MARGIN + column * (COLUMN + GAP);
    if (journey.sections.length > 0)
      y =
        drawSectionBands(
          canvas,
          journey.sections,
          row.map((task) => task.section),
          { left, width: COLUMN, gap: GAP },
          y,
          colors,
        ) + 6;

    const lines = row.map((task) => wrapText(task.name, TASK_SIZE, COLUMN - 2 * PADDING));
    const boxHeight = Math.max(...lines.map((text) => text.length)) * TASK_SIZE * LEADING + 2 * PADDING;
    row.forEach((task, column) => {
      const fill = tintColor(colors, Math.max(task.section, 0));
      canvas.rect(left(column), y, COLUMN, boxHeight, { fill, stroke: seriesColor(colors, Math.max(task.section, 0)), strokeWidth: 0.75 }, 4);
      canvas.textBlock(
        lines[column]!,
        left(column) + COLUMN / 2,
        y + boxHeight / 2,
        { size: TASK_SIZE, color: textOn(fill, colors), anchor: 'middle' },
        TASK_SIZE * LEADING,
      );
      task.actors.forEach((actor, index) => {
        const cx = left(column) + COLUMN / 2 + (index - (task.actors.length - 1) / 2) * 9;
        canvas.circle(cx, y + boxHeight + 7, 3.5, { fill: actorColor(actor), stroke: colors.background, strokeWidth: 1 });
      });
    });
    y += boxHeight + 14;

    // The mood track: faces from score 5 at the top to 1 at the bottom, joined by a line.
    const top = y + FACE;
    const faceY = (score: number) => top + (5 - score) * SCORE_STEP;
    const centres = row.map((task, column): [number, number] => [left(column) + COLUMN / 2, faceY(task.score)]);
    centres.forEach(([cx]) => canvas.line(cx, y - 4, cx, faceY(1) + FACE, { stroke: colors.grid, strokeWidth: 0.75, dash: [2, 2] }));
    if (centres.length > 1)
      canvas.path(centres.map(([cx, cy], index) => `${index === 0 ? 'M' : 'L'}${n(cx)} ${n(cy)}`).join(''), {
        stroke: colors.line,
        strokeWidth: 1.25,
        join: 'round',
      });
    row.forEach((task, column) => drawFace(canvas, centres[column]![0], centres[column]![1], task.score, colors));
    y = faceY(1) + FACE + 18;
  }
  if (journey.title) canvas.text(journey.title, width / 2, MARGIN + titleStyle(colors.text).size, titleStyle(colors.text));
  return canvas.drawing(width, y - 18 + MARGIN);
}

/** A face: smiling from a good score, straight-mouthed at the middle one, frowning below. */
function drawFace(canvas: Canvas, cx: number, cy: number, score: number, colors: DiagramColors): void {
  const fill: Color = score >= HAPPY ? seriesColor(colors, 2) : score >= NEUTRAL ? seriesColor(colors, 5) : seriesColor(colors, 3);
  const ink = textOn(fill, colors);
  canvas.circle(cx, cy, FACE, { fill, stroke: colors.background, strokeWidth: 1.5 });
  canvas.circle(cx - 2.8, cy - 2.2, 1.1, { fill: ink });
  canvas.circle(cx + 2.8, cy - 2.2, 1.1, { fill: ink });
  const mouth =
    score >= HAPPY
      ? `M${n(cx - 3.6)} ${n(cy + 1.6)}Q${n(cx)} ${n(cy + 5.4)} ${n(cx + 3.6)} ${n(cy + 1.6)}`
      : score >= NEUTRAL
        ? `M${n(cx - 3.2)} ${n(cy + 3)}L${n(cx + 3.2)} ${n(cy + 3)}`
        : `M${n(cx - 3.6)} ${n(cy + 4.4)}Q${n(cx)} ${n(cy + 0.8)} ${n(cx + 3.6)} ${n(cy + 4.4)}`;
  canvas.path(mouth, { stroke: ink, strokeWidth: 1.1, cap: 'round' });
  canvas.text(String(score), cx + FACE + 2, cy + FACE, { size: SMALL_SIZE - 1, color: colors.muted });
}
