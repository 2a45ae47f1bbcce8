/**
 * Keeps this instance's leases alive while it runs, and returns the work of instances that
 * stopped without settling it once their leases expire — on every instance, so the survivors of
 * a crash give its documents back without a restart.
 */
import type { Log } from '../log.js';
import { renewalIntervalMs, type LeaseHolder } from './leases.js';
import type { Store } from './store.js';

export interface LeaseKeeper {
  stop(): Promise<void>;
}

export function keepLeases(store: Store, holder: LeaseHolder, log: Log): LeaseKeeper {
  let running: Promise<void> | undefined;
  const tick = async () => {
    try {
      await store.renewLeases();
      const recovered = await store.recoverExpired();
      if (recovered.returned + recovered.released > 0) log({ event: 'leases_expired', ...recovered });
    } catch (error) {
      log({ event: 'lease_upkeep_failed', error: error instanceof Error ? error.message : String(error) });
    }
  };
  const timer = setInterval(() => {
    running ??= tick().finally(() => (running = undefined));
  }, renewalIntervalMs(holder)).unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
