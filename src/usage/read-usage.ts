/** GET /v1/usage: the report for the period open now, or for one of the account's periods by id. */
import { z } from 'zod';
import { authenticate } from '../admission/authenticate.js';
import { validated } from '../render/schema-refusal.js';
import { notFound } from '../service-error.js';
import type { Store } from '../store/store.js';
import { usageReport } from './usage-report.js';

/** The `period` query parameter (docs/api.md "GET /v1/usage"). */
export const PERIOD_SCHEMA = z
  .string()
  .regex(/^[1-9]\d{0,18}$/, { error: '"period" must be a usage-period id (digits, not starting with 0).' })
  .describe('A usage-period id (X-Service-Period-Id of an earlier answer); omitted: the period open now.');

export interface IncomingUsage {
  authorization: string | undefined;
  /** The `period` query parameter, undefined when absent. */
  period: string | undefined;
}

export async function readUsage(store: Store, incoming: IncomingUsage): Promise<Response> {
  const { account } = await authenticate(store, incoming.authorization);
  if (incoming.period !== undefined) validated(PERIOD_SCHEMA, incoming.period, 'invalid_period');
  const usage = await store.usage(account.id, incoming.period === undefined ? undefined : BigInt(incoming.period));
  // One answer for unknown and foreign periods, so ids of other accounts cannot be probed.
  if (!usage) throw notFound('No such usage period.');
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (usage.period.id !== undefined) headers['X-Service-Period-Id'] = usage.period.id;
  return new Response(JSON.stringify(usageReport(usage, account)), { status: 200, headers });
}
