import { rateLimited } from '../service-error.js';
import type { Account, Store } from '../store/store.js';
import type { PlanLimits } from '../plan-terms.js';

/**
 * Takes one of the account's `concurrency` render slots — from opening the seal's credential and
 * resolving the upload host to the render (queued or in a worker) and its delivery, or a preview's
 * drawing — and returns the function that gives it back; every slot held: 429 `rate_limited`
 * naming `concurrency`. The one bound on how much work of every shared kind one account can have
 * waiting, across all instances: a slot is held under this instance's lease, so a killed
 * instance's slots come back when it expires.
 */
export async function takeRenderSlot(
  store: Store,
  account: Pick<Account, 'id' | 'plan'>,
  limits: Pick<PlanLimits, 'concurrency'>,
): Promise<() => Promise<void>> {
  const grant = await store.takeTokens(account.id, 'render', limits.concurrency, 1);
  if (!grant.granted) throw rateLimited({ name: 'concurrency', value: limits.concurrency, plan: account.plan }, 1);
  let given = false;
  return async () => {
    if (given) return;
    given = true;
    await store.giveBackTokens(account.id, 'render', grant.slots);
  };
}
