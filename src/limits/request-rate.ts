import type { Clock } from '../clock.js';
import { rateLimited } from '../service-error.js';
import type { PlanId, PlanLimits } from './plans.js';

const WINDOW_MS = 60_000;

/**
 * Requests per minute per account, over a sliding minute: the times of the requests admitted in
 * the last 60 seconds are kept, so a burst cannot double up across a fixed-window edge.
 * Refused requests are not counted, so a client that waits as told gets in.
 */
export class RequestRateLimiter {
  private readonly admitted = new Map<string, number[]>();

  constructor(private readonly clock: Clock) {}

  /**
   * Admits `count` requests together, or none and returns the whole seconds to wait until they
   * fit (a minute when more than the whole limit is asked at once: they never will).
   */
  admit(accountId: string, perMinute: number, count = 1): { ok: true } | { ok: false; retryAfterSeconds: number } {
    const now = this.clock.now();
    const times = this.admitted.get(accountId) ?? [];
    while (times.length > 0 && times[0]! <= now - WINDOW_MS) times.shift();
    if (times.length + count > perMinute) {
      if (count > perMinute) return { ok: false, retryAfterSeconds: WINDOW_MS / 1000 };
      const freedAt = times[times.length + count - 1 - perMinute]! + WINDOW_MS;
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((freedAt - now) / 1000)) };
    }
    for (let i = 0; i < count; i += 1) times.push(now);
    this.admitted.set(accountId, times);
    return { ok: true };
  }
}

/** Counts `count` requests of the account against its requests per minute, or refuses them: 429 `rate_limited`. */
export function admitRequests(limiter: RequestRateLimiter, account: { id: string; plan: PlanId }, limits: PlanLimits, count = 1): void {
  const admitted = limiter.admit(account.id, limits.requests_per_min, count);
  if (!admitted.ok) {
    throw rateLimited({ name: 'requests_per_min', value: limits.requests_per_min, plan: account.plan }, admitted.retryAfterSeconds);
  }
}
