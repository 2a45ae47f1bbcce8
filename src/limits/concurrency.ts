import type { Store } from '../store/store.js';

/**
 * Takes one of the account's `concurrency` render slots — from opening the seal's credential and
 * resolving the upload host to the render (queued or in a worker) and its delivery — and returns
 * the function that gives it back, or undefined when every slot is held. The one bound on how
 * much work of every shared kind one account can have waiting, across all instances: a slot is
 * held under this instance's lease, so a killed instance's slots come back when it expires.
 */
export async function takeRenderSlot(store: Store, accountId: string, limit: number): Promise<(() => Promise<void>) | undefined> {
  const grant = await store.takeTokens(accountId, 'render', limit, 1);
  if (!grant.granted) return undefined;
  let given = false;
  return async () => {
    if (given) return;
    given = true;
    await store.giveBackTokens(accountId, 'render', grant.slots);
  };
}
