import { RendererBoundError } from '../../errors.js';
import { dateReader, DAY, parseDuration, parseTickInterval, WEEKDAY_NAMES, type TickInterval } from './gantt-time.js';
import { unquote, type MermaidSource } from './source.js';
import { MermaidSyntaxError } from './syntax-error.js';

export type TaskTag = 'done' | 'active' | 'crit' | 'milestone';

export interface GanttTask {
  name: string;
  section: number;
  tags: Set<TaskTag>;
  start: number;
  end: number;
}

export interface Gantt {
  title: string | null;
  sections: string[];
  tasks: GanttTask[];
  axisFormat: string | null;
  tickInterval: TickInterval | null;
  /** Day of the week (0 = Sunday) weekly ticks fall on. */
  weekStart: number;
  /** Whole UTC days left out of durations and shaded, as a test on the day's start; null when none are. */
  excluded: ((day: number) => boolean) | null;
}

interface WrittenTask {
  name: string;
  section: number;
  tags: Set<TaskTag>;
  id: string | null;
  start: string | null;
  end: string;
  line: string;
}

const TAGS = new Set<string>(['done', 'active', 'crit', 'milestone']);
/** Days a task may be pushed across excluded days before the chart is refused. */
const MAX_CALENDAR_DAYS = 100_000;
/** Settings Mermaid accepts that change nothing in a printed chart. */
const IGNORED = /^(todayMarker|click|displayMode|topAxis|inclusiveEndDates|call|href)\b/;

export function parseGantt(source: MermaidSource): Gantt {
  let dateFormat = 'YYYY-MM-DD';
  let title: string | null = null;
  let axisFormat: string | null = null;
  let tickInterval: TickInterval | null = null;
  let weekStart = 0;
  let weekend = [0, 6];
  const excludes: string[] = [];
  const includes: string[] = [];
  const sections: string[] = [];
  const written: WrittenTask[] = [];
  for (const line of source.lines) {
    const [keyword, rest = ''] = splitKeyword(line);
    switch (keyword) {
      case 'title':
        title = unquote(rest);
        continue;
      case 'dateFormat':
        dateFormat = rest;
        continue;
      case 'axisFormat':
        axisFormat = rest;
        continue;
      case 'tickInterval':
        tickInterval = parseTickInterval(rest);
        continue;
      case 'excludes':
        excludes.push(...rest.split(/[\s,]+/).filter(Boolean));
        continue;
      case 'includes':
        includes.push(...rest.split(/[\s,]+/).filter(Boolean));
        continue;
      case 'weekday':
        weekStart = weekdayIndex(rest, line);
        continue;
      case 'weekend':
        weekend = rest.toLowerCase() === 'friday' ? [5, 6] : [0, 6];
        continue;
      case 'section':
        sections.push(rest);
        continue;
    }
    if (IGNORED.test(line)) continue;
    const colon = line.indexOf(':');
    if (colon < 0) throw new MermaidSyntaxError('a gantt task needs ":" before its dates', line);
    written.push(readTask(line.slice(0, colon).trim(), line.slice(colon + 1), Math.max(0, sections.length - 1), line));
  }
  if (written.length === 0) throw new MermaidSyntaxError('a gantt chart needs at least one task');
  if (sections.length === 0) sections.push('');
  const readDate = dateReader(dateFormat);
  const excluded = excludes.length > 0 ? exclusionTest(excludes, includes, weekend, readDate) : null;
  return { title, sections, axisFormat, tickInterval, weekStart, excluded, tasks: resolveTasks(written, readDate, excluded) };
}

function splitKeyword(line: string): [string, string?] {
  const match = /^(title|dateFormat|axisFormat|tickInterval|excludes|includes|weekday|weekend|section)\b\s*(.*)$/.exec(line);
  return match ? [match[1]!, match[2]!.trim()] : [''];
}

function weekdayIndex(name: string, line: string): number {
  const index = WEEKDAY_NAMES.indexOf(name.trim().toLowerCase());
  if (index < 0) throw new MermaidSyntaxError('not a weekday', line);
  return index;
}

/** `name : tags…, id, start, end` — the id and start are optional, as in Mermaid. */
function readTask(name: string, meta: string, section: number, line: string): WrittenTask {
  const items = meta
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  const tags = new Set<TaskTag>();
  while (items.length > 0 && TAGS.has(items[0]!)) tags.add(items.shift() as TaskTag);
  if (items.length === 0 && !tags.has('milestone')) throw new MermaidSyntaxError('a gantt task needs a duration or an end', line);
  if (items.length > 3) throw new MermaidSyntaxError('a gantt task has too many fields', line);
  const end = items.pop() ?? '0d';
  const start = items.pop() ?? null;
  const id = items.pop() ?? null;
  return { name, section, tags, id, start, end, line };
}

function exclusionTest(excludes: string[], includes: string[], weekend: number[], readDate: (text: string) => number | null): (day: number) => boolean {
  const weekdays = new Set<number>();
  const dates = new Set<number>();
  const included = new Set(
    includes
      .map((text) => readDate(text))
      .filter((time): time is number => time !== null)
      .map(startOfDay),
  );
  for (const item of excludes.map((text) => text.toLowerCase())) {
    if (item === 'weekends') weekend.forEach((day) => weekdays.add(day));
    else if (WEEKDAY_NAMES.includes(item)) weekdays.add(WEEKDAY_NAMES.indexOf(item));
    else {
      const time = readDate(item);
      if (time === null) throw new MermaidSyntaxError('not a date or weekday to exclude', item);
      dates.add(startOfDay(time));
    }
  }
  return (day) => !included.has(day) && (weekdays.has(new Date(day).getUTCDay()) || dates.has(day));
}

function startOfDay(time: number): number {
  return Math.floor(time / DAY) * DAY;
}

/**
 * Start and end times for every task: a start is a date, `after` other tasks, or the end of the
 * task before; an end is a date, a duration (counted over working days when days are
 * excluded), or `until` another task. Tasks may refer to tasks written later.
 */
function resolveTasks(written: WrittenTask[], readDate: (text: string) => number | null, excluded: Gantt['excluded']): GanttTask[] {
  const byId = new Map<string, number>();
  written.forEach((task, index) => task.id && byId.set(task.id, index));
  const times: Array<{ start: number; end: number } | null> = written.map(() => null);
  const visiting = new Set<number>();

  const resolve = (index: number): { start: number; end: number } => {
    const known = times[index];
    if (known) return known;
    const task = written[index]!;
    if (visiting.has(index)) throw new MermaidSyntaxError('gantt tasks depend on each other in a circle', task.line);
    visiting.add(index);
    const start = startOf(task, index);
    const end = endOf(task, start);
    visiting.delete(index);
    const result = { start, end: Math.max(start, end) };
    times[index] = result;
    return result;
  };

  const referenced = (id: string, line: string) => {
    const index = byId.get(id);
    if (index === undefined) throw new MermaidSyntaxError(`no gantt task has the id "${id}"`, line);
    return resolve(index);
  };

  const startOf = (task: WrittenTask, index: number): number => {
    if (task.start === null) {
      if (index === 0) throw new MermaidSyntaxError('the first gantt task needs a start date', task.line);
      return resolve(index - 1).end;
    }
    const after = /^after\s+(.+)$/.exec(task.start);
    if (after) return Math.max(...after[1]!.split(/\s+/).map((id) => referenced(id, task.line).end));
    return readDate(task.start) ?? invalidDate(task.start, task.line);
  };

  const endOf = (task: WrittenTask, start: number): number => {
    const until = /^until\s+(.+)$/.exec(task.end);
    if (until) return Math.min(...until[1]!.split(/\s+/).map((id) => referenced(id, task.line).start));
    const duration = parseDuration(task.end);
    if (duration) return excluded && (duration.unit === 'd' || duration.unit === 'w') ? addWorkingTime(start, duration.ms, excluded) : start + duration.ms;
    return readDate(task.end) ?? invalidDate(task.end, task.line);
  };

  return written.map((task, index) => ({ name: task.name, section: task.section, tags: task.tags, ...resolve(index) }));
}

function invalidDate(text: string, line: string): never {
  throw new MermaidSyntaxError(`"${text}" is not a date in the chart's dateFormat`, line);
}

/** `start` plus `ms` of time, skipping whole excluded days as Mermaid does. */
function addWorkingTime(start: number, ms: number, excluded: (day: number) => boolean): number {
  let time = start;
  let left = ms;
  for (let days = 0; left > 0; days++) {
    if (days > MAX_CALENDAR_DAYS) throw new RendererBoundError('ElementLimit', `a gantt task spans more than ${MAX_CALENDAR_DAYS} days`);
    const dayEnd = startOfDay(time) + DAY;
    if (excluded(startOfDay(time))) {
      time = dayEnd;
      continue;
    }
    const step = Math.min(left, dayEnd - time);
    time += step;
    left -= step;
  }
  return time;
}
