/**
 * A map whose entries together weigh at most `capacity` (each entry's weight from `weigh`):
 * reading or writing an entry makes it the newest, and the oldest go first. An entry heavier than
 * the whole capacity is not kept.
 */
export class RecentlyUsed<K, V> {
  private readonly entries = new Map<K, { value: V; weight: number }>();
  private weight = 0;

  constructor(
    private readonly capacity: number,
    private readonly weigh: (value: V) => number = () => 1,
  ) {}

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: K, value: V): void {
    this.delete(key);
    const weight = this.weigh(value);
    if (weight > this.capacity) return;
    this.entries.set(key, { value, weight });
    this.weight += weight;
    for (const [oldest] of this.entries) {
      if (this.weight <= this.capacity) break;
      this.delete(oldest);
    }
  }

  /** What the entries weigh together. */
  get size(): number {
    return this.weight;
  }

  private delete(key: K): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    this.weight -= entry.weight;
  }
}
