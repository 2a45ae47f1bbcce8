/**
 * The store as the render flow sees it: every call timed by operation (the service's overhead
 * per render on its database), and every charge and return counted.
 */
import type { Store } from '../store/store.js';
import type { ServiceMetrics } from './metrics.js';

export function meteredStore(store: Store, metrics: ServiceMetrics): Store {
  const counted: Partial<Store> = {
    async chargeReservation(...args) {
      await store.chargeReservation(...args);
      metrics.documentCharged();
    },
    async returnReservation(...args) {
      await store.returnReservation(...args);
      metrics.documentReturned(args[1]);
    },
  };
  const timed =
    (operation: string, call: (...args: unknown[]) => Promise<unknown>) =>
    async (...args: unknown[]) => {
      const started = performance.now();
      try {
        return await call(...args);
      } finally {
        metrics.storeCall(operation, (performance.now() - started) / 1000);
      }
    };
  return new Proxy(store, {
    get(target, name, receiver) {
      const own = counted[name as keyof Store];
      const value: unknown = own ?? Reflect.get(target, name, receiver);
      if (typeof value !== 'function' || typeof name !== 'string') return value;
      return timed(name, (value as (...args: unknown[]) => Promise<unknown>).bind(own ? undefined : target));
    },
  });
}
