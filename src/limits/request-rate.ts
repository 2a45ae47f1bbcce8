import { rateLimited } from '../service-error.js';
import type { Store } from '../store/store.js';
import type { PlanId, PlanLimits } from '../plan-terms.js';

/**
 * Counts `count` requests of the account against its requests per minute, or refuses them all:
 * 429 `rate_limited`. The window slides (each admitted request holds one of the account's
 * tokens for a minute, in the store every instance shares), so a burst cannot double up across
 * a fixed-window edge; refused requests hold nothing, so a client that waits as told gets in.
 */
export async function admitRequests(store: Store, account: { id: string; plan: PlanId }, limits: PlanLimits, count = 1): Promise<void> {
  const grant = await store.takeTokens(account.id, 'request', limits.requests_per_min, count);
  if (!grant.granted) {
    throw rateLimited({ name: 'requests_per_min', value: limits.requests_per_min, plan: account.plan }, Math.max(1, Math.ceil(grant.freeInMs / 1000)));
  }
}
