import type { LimitOverrides, PlanId } from '../../limits/plans.js';
import { UnknownRecordError, type Account } from '../store.js';
import type { Db } from './database.js';

export interface AccountRow {
  id: string;
  email: string;
  plan: PlanId;
  blocked: number;
  email_verified: number;
  limit_overrides: string;
  anchor_day: number;
  anchor_from: number;
  created_at: number;
}

export function toAccount(row: AccountRow): Account {
  return {
    id: row.id,
    email: row.email,
    plan: row.plan,
    blocked: row.blocked === 1,
    emailVerified: row.email_verified === 1,
    overrides: JSON.parse(row.limit_overrides) as LimitOverrides,
    createdAt: row.created_at,
    anchorDay: row.anchor_day,
    anchorFrom: row.anchor_from,
  };
}

export function selectAccount(db: Db, accountId: string): Account {
  const row = db.prepare('SELECT * FROM accounts WHERE id = ?').get(accountId) as AccountRow | undefined;
  if (!row) throw new UnknownRecordError('account', accountId);
  return toAccount(row);
}
