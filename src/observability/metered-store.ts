/** The store as the render flow sees it, counting every charge and return for the metrics. */
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
  return new Proxy(store, {
    get(target, name, receiver) {
      const own = counted[name as keyof Store];
      if (own) return own;
      const value: unknown = Reflect.get(target, name, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
