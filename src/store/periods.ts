/**
 * Usage-period boundaries (docs/api.md "GET /v1/usage"): scheduled periods start on the account's anchor
 * day at 00:00 UTC; in shorter months the month's last day is used without moving the anchor.
 * A plan change re-anchors the account at the instant of the change (`anchorFrom`), so the period
 * it opens runs from that instant to the next anchor day.
 */
const DAY_MS = 86_400_000;

export interface PeriodAnchor {
  day: number;
  from: number;
}

export interface Span {
  start: number;
  end: number;
}

/** The anchor an account gets when it signs up, or changes plan, at `instant`. */
export function anchorAt(instant: number, { startOfDay }: { startOfDay: boolean }): PeriodAnchor {
  const day = new Date(instant).getUTCDate();
  return { day, from: startOfDay ? instant - (instant % DAY_MS) : instant };
}

/** The scheduled period containing `now` (assumed not before `anchor.from`). */
export function scheduledPeriod(anchor: PeriodAnchor, now: number): Span {
  const first = boundaryAfter(anchor, anchor.from);
  if (now < first) return { start: anchor.from, end: first };
  const date = new Date(now);
  let year = date.getUTCFullYear();
  let month = date.getUTCMonth();
  if (boundary(year, month, anchor.day) > now) [year, month] = previousMonth(year, month);
  const start = boundary(year, month, anchor.day);
  const [nextYear, nextMonth] = followingMonth(year, month);
  return { start, end: boundary(nextYear, nextMonth, anchor.day) };
}

/** The first monthly boundary strictly after `instant`. */
function boundaryAfter(anchor: PeriodAnchor, instant: number): number {
  const date = new Date(instant);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth();
  const thisMonth = boundary(year, month, anchor.day);
  if (thisMonth > instant) return thisMonth;
  const [nextYear, nextMonth] = followingMonth(year, month);
  return boundary(nextYear, nextMonth, anchor.day);
}

/** 00:00 UTC on the anchor day of a month, or on its last day when the month is shorter. */
function boundary(year: number, month: number, anchorDay: number): number {
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return Date.UTC(year, month, Math.min(anchorDay, lastDay));
}

function followingMonth(year: number, month: number): [number, number] {
  return month === 11 ? [year + 1, 0] : [year, month + 1];
}

function previousMonth(year: number, month: number): [number, number] {
  return month === 0 ? [year - 1, 11] : [year, month - 1];
}
