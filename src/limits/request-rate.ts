import type { Clock } from '../clock.js';

const WINDOW_MS = 60_000;

/**
 * Requests per minute per account, over a sliding minute: the times of the requests admitted in
 * the last 60 seconds are kept, so a burst cannot double up across a fixed-window edge.
 * Refused requests are not counted, so a client that waits as told gets in.
 */
export class RequestRateLimiter {
  private readonly admitted = new Map<string, number[]>();

  constructor(private readonly clock: Clock) {}

  /** Admits one request, or returns the whole seconds to wait before the next one fits. */
  admit(accountId: string, perMinute: number): { ok: true } | { ok: false; retryAfterSeconds: number } {
    const now = this.clock.now();
    const times = this.admitted.get(accountId) ?? [];
    while (times.length > 0 && times[0]! <= now - WINDOW_MS) times.shift();
    if (times.length >= perMinute) {
      const freedAt = times[times.length - perMinute]! + WINDOW_MS;
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((freedAt - now) / 1000)) };
    }
    times.push(now);
    this.admitted.set(accountId, times);
    return { ok: true };
  }
}
