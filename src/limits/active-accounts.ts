/**
 * Which accounts have asked for a shared resource lately. While more than one has, no account may
 * hold every unit of it: one is kept for the others, so an account arriving behind a flood starts
 * at once instead of waiting for one of the flood's renders to end. An account alone uses all.
 */
export class ActiveAccounts {
  private readonly lastSeen = new Map<string, number>();

  constructor(private readonly windowMs: number) {}

  saw(account: string, now: number): void {
    this.lastSeen.set(account, now);
  }

  /** How many of `units` one account may hold at `now`. */
  share(units: number, now: number): number {
    for (const [account, seen] of this.lastSeen) if (seen <= now - this.windowMs) this.lastSeen.delete(account);
    return this.lastSeen.size > 1 ? Math.max(1, units - 1) : Number.POSITIVE_INFINITY;
  }
}
