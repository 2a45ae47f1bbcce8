/** The Usage report of docs/api.md, field for field. */
import { effectiveLimits, LIMIT_NAMES } from '../limits/plans.js';
import type { UsageReport } from '../openapi/response-schemas.js';
import type { Account, Usage } from '../store/store.js';

/** `limits` shows the period's plan with its current values and the account's overrides. */
export function usageReport(usage: Usage, account: Account): UsageReport {
  const { period } = usage;
  const planLimits = effectiveLimits(period.plan, account.overrides);
  const limits = Object.fromEntries(LIMIT_NAMES.filter((name) => name !== 'documents').map((name) => [name, planLimits[name]])) as UsageReport['limits'];
  return {
    plan: period.plan,
    period_start: new Date(period.startsAt).toISOString(),
    period_end: new Date(period.endsAt).toISOString(),
    credits_included: period.included,
    credits_granted: period.granted,
    credits_used: period.used,
    limits,
    keys: usage.keys.map((key) => ({ id: key.id, name: key.name, credits: key.credits })),
  };
}
