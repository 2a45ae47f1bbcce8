/**
 * Rows as both databases return them, and what they mean to the service. Columns are the same in
 * both schemas (src/store/migrations.ts); only SQLite's lack of booleans and JSON shows here.
 */
import type { IncludedDocuments, LimitOverrides, PlanId } from '../plan-terms.js';
import { scheduledPeriod } from './periods.js';
import type { Account, CertificateSummary, IdempotencyRecord, Period, StoredCertificate } from './store.js';

export interface AccountRow {
  id: string;
  email: string;
  plan: PlanId;
  /** SQLite: 0 or 1. */
  blocked: boolean | number;
  email_verified: boolean | number;
  /** SQLite: JSON text; PostgreSQL: parsed JSONB. */
  limit_overrides: string | LimitOverrides;
  anchor_day: number;
  anchor_from: number;
  created_at: number;
}

export function toAccount(row: AccountRow): Account {
  return {
    id: row.id,
    email: row.email,
    plan: row.plan,
    blocked: Boolean(row.blocked),
    emailVerified: Boolean(row.email_verified),
    overrides: typeof row.limit_overrides === 'string' ? (JSON.parse(row.limit_overrides) as LimitOverrides) : row.limit_overrides,
    createdAt: row.created_at,
    anchorDay: row.anchor_day,
    anchorFrom: row.anchor_from,
  };
}

export interface PeriodRow {
  id: number;
  account_id: string;
  plan: PlanId;
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

/** Documents of a period neither charged nor held by a render in flight. */
export function documentsLeft(row: PeriodRow): number {
  return row.included + row.granted - row.used - row.reserved;
}

/** The period `now` falls in as it would be opened: the documents the policy includes, nothing used yet. */
export function scheduledFor(account: Account, now: number, included: IncludedDocuments): Period {
  const span = scheduledPeriod({ day: account.anchorDay, from: account.anchorFrom }, now);
  return {
    id: undefined,
    plan: account.plan,
    startsAt: span.start,
    endsAt: span.end,
    included: included(account),
    granted: 0,
    used: 0,
  };
}

/** INSERT_PERIOD's parameters. */
export function periodValues(accountId: string, period: Period) {
  const { plan, startsAt, endsAt, included, granted } = period;
  return { accountId, plan, startsAt, endsAt, included, granted };
}

export interface KeySpendingRow {
  id: string;
  name: string | null;
  revoked_at: number | null;
  credits: number;
}

export interface IdempotencyRow {
  state: IdempotencyRecord['state'];
  fingerprint: string;
  resources: string | null;
  replays: number;
  created_at: number;
}

export function toIdempotencyRecord(row: IdempotencyRow): IdempotencyRecord {
  return { state: row.state, fingerprint: row.fingerprint, resources: row.resources, replays: row.replays, createdAt: row.created_at };
}

export interface CertificateRow {
  name: string;
  sealed: Buffer;
  key_type: string;
  not_after: number;
  created_at: number;
}

export const CERTIFICATE_SUMMARY_COLUMNS = 'name, key_type, not_after, created_at';

export function toCertificateSummary(row: Omit<CertificateRow, 'sealed'>): CertificateSummary {
  return { name: row.name, keyType: row.key_type, notAfter: row.not_after, createdAt: row.created_at };
}

export function toStoredCertificate(row: CertificateRow): StoredCertificate {
  return { ...toCertificateSummary(row), sealed: row.sealed };
}
