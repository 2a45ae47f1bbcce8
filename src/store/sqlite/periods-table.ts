import { effectiveLimits } from '../../limits/plans.js';
import { scheduledPeriod } from '../periods.js';
import type { Account, Period } from '../store.js';
import type { Db } from './database.js';

export interface PeriodRow {
  id: number;
  account_id: string;
  plan: Account['plan'];
  starts_at: number;
  ends_at: number;
  included: number;
  granted: number;
  used: number;
  reserved: number;
}

export function toPeriod(row: PeriodRow): Period {
  return {
    id: String(row.id),
    plan: row.plan,
    startsAt: row.starts_at,
    endsAt: row.ends_at,
    included: row.included,
    granted: row.granted,
    used: row.used,
  };
}

/** The account's stored period containing `now`, if one was opened. */
export function storedCurrentPeriod(db: Db, accountId: string, now: number): PeriodRow | undefined {
  return db
    .prepare(
      `SELECT * FROM periods WHERE account_id = ? AND starts_at <= ? AND ends_at > ?
       ORDER BY starts_at DESC, id DESC LIMIT 1`,
    )
    .get(accountId, now, now) as PeriodRow | undefined;
}

/** The period `now` falls in as it would be opened: the plan's documents, nothing used yet. */
export function scheduledFor(account: Account, now: number): Period {
  const span = scheduledPeriod({ day: account.anchorDay, from: account.anchorFrom }, now);
  return {
    id: undefined,
    plan: account.plan,
    startsAt: span.start,
    endsAt: span.end,
    included: effectiveLimits(account.plan, account.overrides).documents,
    granted: 0,
    used: 0,
  };
}

/** The current period, opened (inserted) if it is only scheduled. Call inside a write transaction. */
export function openCurrentPeriod(db: Db, account: Account, now: number): PeriodRow {
  const stored = storedCurrentPeriod(db, account.id, now);
  if (stored) return stored;
  return insertPeriod(db, account.id, scheduledFor(account, now));
}

export function insertPeriod(db: Db, accountId: string, period: Period): PeriodRow {
  return db
    .prepare(
      `INSERT INTO periods (account_id, plan, starts_at, ends_at, included, granted)
       VALUES (?, ?, ?, ?, ?, ?) RETURNING *`,
    )
    .get(accountId, period.plan, period.startsAt, period.endsAt, period.included, period.granted) as PeriodRow;
}

export function addGrant(db: Db, periodId: number, documents: number, reason: 'admin' | 'carry_over', now: number): void {
  db.prepare('UPDATE periods SET granted = granted + ? WHERE id = ?').run(documents, periodId);
  db.prepare('INSERT INTO grants (period_id, documents, reason, created_at) VALUES (?, ?, ?, ?)').run(periodId, documents, reason, now);
}

/** Documents of a period neither charged nor held by a render in flight. */
export function documentsLeft(row: PeriodRow): number {
  return row.included + row.granted - row.used - row.reserved;
}
