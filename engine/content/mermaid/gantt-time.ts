import { MermaidSyntaxError } from './syntax-error.js';

/** Times are UTC milliseconds: a chart reads the same wherever it is rendered. */
export const DAY = 86_400_000;
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: DAY, w: 7 * DAY };

/** A duration such as `3d`, `12h`, `1.5w`, or null when the text is not one. */
export function parseDuration(text: string): { ms: number; unit: string } | null {
  const match = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d|w)$/.exec(text.trim());
  return match ? { ms: Number(match[1]) * UNIT_MS[match[2]!]!, unit: match[2]! } : null;
}

const TOKENS: Record<string, { pattern: string; set: (parts: DateParts, value: string) => void }> = {
  YYYY: { pattern: '(\\d{4})', set: (parts, value) => (parts.year = Number(value)) },
  YY: { pattern: '(\\d{2})', set: (parts, value) => (parts.year = 2000 + Number(value)) },
  MM: { pattern: '(\\d{2})', set: (parts, value) => (parts.month = Number(value)) },
  M: { pattern: '(\\d{1,2})', set: (parts, value) => (parts.month = Number(value)) },
  DD: { pattern: '(\\d{2})', set: (parts, value) => (parts.day = Number(value)) },
  D: { pattern: '(\\d{1,2})', set: (parts, value) => (parts.day = Number(value)) },
  HH: { pattern: '(\\d{2})', set: (parts, value) => (parts.hour = Number(value)) },
  H: { pattern: '(\\d{1,2})', set: (parts, value) => (parts.hour = Number(value)) },
  mm: { pattern: '(\\d{2})', set: (parts, value) => (parts.minute = Number(value)) },
  ss: { pattern: '(\\d{2})', set: (parts, value) => (parts.second = Number(value)) },
  SSS: { pattern: '(\\d{3})', set: (parts, value) => (parts.millisecond = Number(value)) },
  X: { pattern: '(\\d+(?:\\.\\d+)?)', set: (parts, value) => (parts.epoch = Number(value) * 1000) },
  x: { pattern: '(\\d+)', set: (parts, value) => (parts.epoch = Number(value)) },
};
const TOKEN_PATTERN = /YYYY|YY|MM|M|DD|D|HH|H|mm|ss|SSS|X|x/g;

interface DateParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
  epoch: number | null;
}

/** A reader for dates written in a Day.js `dateFormat` (the tokens Mermaid charts use). */
export function dateReader(format: string): (text: string) => number | null {
  const setters: Array<(parts: DateParts, value: string) => void> = [];
  let pattern = '';
  let last = 0;
  for (const match of format.matchAll(TOKEN_PATTERN)) {
    pattern += escapeRegExp(format.slice(last, match.index)) + TOKENS[match[0]]!.pattern;
    setters.push(TOKENS[match[0]]!.set);
    last = match.index + match[0].length;
  }
  const regex = new RegExp(`^${pattern}${escapeRegExp(format.slice(last))}$`);
  return (text) => {
    const match = regex.exec(text.trim());
    if (!match) return null;
    const parts: DateParts = { year: 1970, month: 1, day: 1, hour: 0, minute: 0, second: 0, millisecond: 0, epoch: null };
    setters.forEach((set, index) => set(parts, match[index + 1]!));
    if (parts.epoch !== null) return parts.epoch;
    if (parts.month < 1 || parts.month > 12 || parts.day < 1 || parts.day > 31 || parts.hour > 24 || parts.minute > 59 || parts.second > 59) return null;
    return Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second, parts.millisecond);
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
export const WEEKDAY_NAMES = WEEKDAYS.map((day) => day.toLowerCase());

/** A time written with a d3 `axisFormat` (`%Y-%m-%d`, `%b %e`, `%H:%M`…), in UTC. */
export function formatTime(time: number, format: string): string {
  const date = new Date(time);
  const pad = (value: number, width = 2) => String(value).padStart(width, '0');
  return format.replace(/%([a-zA-Z%])/g, (whole, code: string) => {
    switch (code) {
      case 'Y':
        return String(date.getUTCFullYear());
      case 'y':
        return pad(date.getUTCFullYear() % 100);
      case 'm':
        return pad(date.getUTCMonth() + 1);
      case 'd':
        return pad(date.getUTCDate());
      case 'e':
        return String(date.getUTCDate());
      case 'b':
        return MONTHS[date.getUTCMonth()]!.slice(0, 3);
      case 'B':
        return MONTHS[date.getUTCMonth()]!;
      case 'a':
        return WEEKDAYS[date.getUTCDay()]!.slice(0, 3);
      case 'A':
        return WEEKDAYS[date.getUTCDay()]!;
      case 'H':
        return pad(date.getUTCHours());
      case 'I':
        return pad(date.getUTCHours() % 12 || 12);
      case 'p':
        return date.getUTCHours() < 12 ? 'AM' : 'PM';
      case 'M':
        return pad(date.getUTCMinutes());
      case 'S':
        return pad(date.getUTCSeconds());
      case 'L':
        return pad(date.getUTCMilliseconds(), 3);
      case 'j':
        return pad(Math.floor((time - Date.UTC(date.getUTCFullYear(), 0, 1)) / DAY) + 1, 3);
      case '%':
        return '%';
      default:
        return whole;
    }
  });
}

export interface TickInterval {
  /** Step in milliseconds, or in months for calendar steps. */
  step: number;
  months: boolean;
}

/** Steps the axis may use, from fine to coarse, as d3's time scale chooses them. */
const STEPS: TickInterval[] = [
  ...[1, 5, 15, 30].map((s) => ({ step: s * 1000, months: false })),
  ...[1, 5, 15, 30].map((m) => ({ step: m * 60_000, months: false })),
  ...[1, 3, 6, 12].map((h) => ({ step: h * 3_600_000, months: false })),
  { step: DAY, months: false },
  { step: 2 * DAY, months: false },
  { step: 7 * DAY, months: false },
  { step: 1, months: true },
  { step: 3, months: true },
  { step: 12, months: true },
];

/** `tickInterval` as Mermaid writes it: `1day`, `2week`, `1month`… */
export function parseTickInterval(text: string): TickInterval {
  const match = /^([1-9]\d*)(millisecond|second|minute|hour|day|week|month)$/.exec(text.trim()) ?? invalidInterval(text);
  const count = Number(match[1]);
  const unit = { millisecond: 1, second: 1000, minute: 60_000, hour: 3_600_000, day: DAY, week: 7 * DAY, month: 0 }[match[2] as 'day'];
  return unit === 0 ? { step: count, months: true } : { step: count * unit, months: false };
}

function invalidInterval(text: string): never {
  throw new MermaidSyntaxError('not a tick interval', text);
}

/** Tick times between `from` and `to`: the given interval (if it leaves a readable number), else about `target` of them. */
export function ticks(from: number, to: number, target: number, given: TickInterval | null, weekStart: number): number[] {
  const span = to - from;
  const count = (interval: TickInterval) => span / (interval.months ? interval.step * 30 * DAY : interval.step);
  let interval = given && count(given) <= 60 ? given : null;
  interval ??= STEPS.find((candidate) => count(candidate) <= target) ?? yearSteps(span, target);
  const times: number[] = [];
  let time = alignedStart(from, interval, weekStart);
  for (let index = 0; time <= to && index < 200; index++) {
    if (time >= from) times.push(time);
    time = advance(time, interval);
  }
  return times;
}

function yearSteps(span: number, target: number): TickInterval {
  const years = span / (365 * DAY) / target;
  const nice = [2, 5, 10, 20, 50, 100, 200, 500, 1000].find((step) => step >= years) ?? Math.ceil(years / 1000) * 1000;
  return { step: nice * 12, months: true };
}

function alignedStart(time: number, interval: TickInterval, weekStart: number): number {
  const date = new Date(time);
  if (interval.months) {
    const months = date.getUTCFullYear() * 12 + date.getUTCMonth();
    const aligned = Math.ceil(months / interval.step) * interval.step;
    const start = Date.UTC(Math.floor(aligned / 12), aligned % 12, 1);
    return start;
  }
  if (interval.step === 7 * DAY) {
    const day = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
    const offset = (new Date(day).getUTCDay() - weekStart + 7) % 7;
    return offset === 0 && day >= time ? day : day + (7 - offset) * DAY;
  }
  return Math.ceil(time / interval.step) * interval.step;
}

function advance(time: number, interval: TickInterval): number {
  if (!interval.months) return time + interval.step;
  const date = new Date(time);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + interval.step, 1);
}

/** The default axis format for ticks `step` apart: no more detail than the ticks carry. */
export function defaultAxisFormat(from: number, to: number): string {
  const span = to - from;
  if (span <= 2 * DAY) return '%H:%M';
  if (span <= 400 * DAY) return '%Y-%m-%d';
  return '%Y-%m';
}
