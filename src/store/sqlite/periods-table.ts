import { periodValues, scheduledFor, type PeriodRow } from '../rows.js';
import * as sql from '../statements.js';
import type { IncludedDocuments } from '../../plan-terms.js';
import type { Account, Period } from '../store.js';
import type { Db } from './database.js';

/** The account's stored period containing `now`, if one was opened. */
export function storedCurrentPeriod(db: Db, accountId: string, now: number): PeriodRow | undefined {
  return db.prepare(sql.CURRENT_PERIOD).get({ accountId, now }) as PeriodRow | undefined;
}

/** The current period, opened (inserted) if it is only scheduled. Call inside a write transaction. */
export function openCurrentPeriod(db: Db, account: Account, now: number, included: IncludedDocuments): PeriodRow {
  const stored = storedCurrentPeriod(db, account.id, now);
  if (stored) return stored;
  return insertPeriod(db, account.id, scheduledFor(account, now, included));
}

export function insertPeriod(db: Db, accountId: string, period: Period): PeriodRow {
  return db.prepare(sql.INSERT_PERIOD).get(periodValues(accountId, period)) as PeriodRow;
}

export function addGrant(db: Db, periodId: number, documents: number, reason: 'admin' | 'carry_over', now: number): void {
  db.prepare(sql.ADD_GRANT).run({ documents, periodId });
  db.prepare(sql.RECORD_GRANT).run({ periodId, documents, reason, now });
}
