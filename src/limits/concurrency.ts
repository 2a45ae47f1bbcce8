/**
 * Requests past the free checks per account, against the account's `concurrency`: from opening
 * the seal's credential and resolving the upload host to the render (queued or in a worker) and
 * its delivery. The one bound on how much work of every shared kind one account can have waiting.
 */
export class ConcurrencyLimiter {
  private readonly running = new Map<string, number>();

  /** A release function when a slot was free, undefined when the account is at its limit. */
  tryAcquire(accountId: string, limit: number): (() => void) | undefined {
    const count = this.running.get(accountId) ?? 0;
    if (count >= limit) return undefined;
    this.running.set(accountId, count + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.running.get(accountId) ?? 1) - 1;
      if (left === 0) this.running.delete(accountId);
      else this.running.set(accountId, left);
    };
  }
}
