/**
 * Work waiting for a resource every account shares (render workers, credential threads), served
 * fairly between accounts: the next item comes from the account with the fewest items running,
 * among those from the one served longest ago (an account new to the queue first), and within an
 * account first in, first out. So an account arriving behind a flood waits for one running item
 * to finish, not for the flood. How much one account can queue is bounded before it gets here,
 * by its concurrency slots (src/limits/concurrency.ts).
 */
export class FairQueue<T> {
  private readonly waiting = new Map<string, T[]>();
  private readonly running = new Map<string, number>();
  /** When each account with items waiting or running was last served; forgotten once it has neither. */
  private readonly servedAt = new Map<string, number>();
  private turns = 0;
  private size = 0;

  /**
   * @param accountOf whose turn an item takes
   * @param runningPerAccount items one account may have running at once (a resource with few
   *   threads keeps one for the others this way)
   */
  constructor(
    private readonly accountOf: (item: T) => string,
    private readonly runningPerAccount = Number.POSITIVE_INFINITY,
  ) {}

  get length(): number {
    return this.size;
  }

  push(item: T): void {
    const account = this.accountOf(item);
    const items = this.waiting.get(account);
    if (items) items.push(item);
    else this.waiting.set(account, [item]);
    this.size += 1;
  }

  /**
   * Takes an item out to keep the queue within its bound after `newcomer` was pushed: the newest
   * item of the account waiting most, when that account waits more than the newcomer's does — so
   * a flood gives way to others — and otherwise the newcomer itself (its account's newest).
   */
  shed(newcomer: T): T {
    let from = this.accountOf(newcomer);
    for (const [account, items] of this.waiting) if (items.length > this.waitingOf(from)) from = account;
    const items = this.waiting.get(from)!;
    const shed = items.pop()!;
    if (items.length === 0) this.waiting.delete(from);
    this.size -= 1;
    this.forgetIfIdle(from);
    return shed;
  }

  /**
   * The next item to run, counted as running for its account until `finished` is called with it;
   * none from an account already running `runningPerAccount` (the queue's own cap unless given).
   */
  take(runningPerAccount = this.runningPerAccount): T | undefined {
    let chosen: string | undefined;
    let chosenRunning = 0;
    let chosenServedAt = 0;
    for (const account of this.waiting.keys()) {
      const running = this.running.get(account) ?? 0;
      const servedAt = this.servedAt.get(account) ?? -1;
      if (running >= runningPerAccount) continue;
      if (chosen === undefined || running < chosenRunning || (running === chosenRunning && servedAt < chosenServedAt)) {
        chosen = account;
        chosenRunning = running;
        chosenServedAt = servedAt;
      }
    }
    if (chosen === undefined) return undefined;
    const items = this.waiting.get(chosen)!;
    const item = items.shift()!;
    if (items.length === 0) this.waiting.delete(chosen);
    this.size -= 1;
    this.running.set(chosen, chosenRunning + 1);
    this.servedAt.set(chosen, (this.turns += 1));
    return item;
  }

  finished(item: T): void {
    const account = this.accountOf(item);
    const left = (this.running.get(account) ?? 1) - 1;
    if (left > 0) this.running.set(account, left);
    else this.running.delete(account);
    this.forgetIfIdle(account);
  }

  /** Every waiting item, in no particular order, leaving the queue empty. */
  drain(): T[] {
    const accounts = [...this.waiting.keys()];
    const items = [...this.waiting.values()].flat();
    this.waiting.clear();
    this.size = 0;
    for (const account of accounts) this.forgetIfIdle(account);
    return items;
  }

  private waitingOf(account: string): number {
    return this.waiting.get(account)?.length ?? 0;
  }

  private forgetIfIdle(account: string): void {
    if (!this.waiting.has(account) && !this.running.has(account)) this.servedAt.delete(account);
  }
}
