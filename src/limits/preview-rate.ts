import type { PlanId, PlanLimits } from '../plan-terms.js';
import { rateLimited } from '../service-error.js';
import type { Store } from '../store/store.js';

/**
 * Counts one editor preview against the account's previews per hour (a sliding hour, in the
 * store every instance shares), or refuses it: 429 `rate_limited` naming `previews_per_hour`,
 * with Retry-After until a preview is free again. Previews spend nothing else: not the requests
 * per minute, not the period's documents. A preview the service could not even start (its queue
 * full, no worker) is given back.
 */
export async function admitPreview(
  store: Store,
  account: { id: string; plan: PlanId },
  limits: PlanLimits,
): Promise<{ left: number; giveBack(): Promise<void> }> {
  const grant = await store.takeTokens(account.id, 'preview', limits.previews_per_hour, 1);
  if (!grant.granted) {
    throw rateLimited({ name: 'previews_per_hour', value: limits.previews_per_hour, plan: account.plan }, Math.max(1, Math.ceil(grant.freeInMs / 1000)));
  }
  const held = await store.tokensHeld(account.id, 'preview', limits.previews_per_hour);
  return {
    left: Math.max(0, limits.previews_per_hour - held),
    giveBack: () => store.giveBackTokens(account.id, 'preview', grant.slots),
  };
}
