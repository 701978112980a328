/**
 * A Map that keeps at most `limit` entries, forgetting the one written longest ago: for the hints
 * a function instance remembers between requests (where a number's or vanity name's links led,
 * whether a company has records of a resource). A hint is a few bytes; the limit only keeps a
 * long-lived instance serving many companies from growing without end.
 */
export class RecentMap<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(private readonly limit: number) {}

  get(key: K): V | undefined {
    return this.entries.get(key);
  }

  /** Stores the value as the newest entry; the oldest goes when the map is over its limit. */
  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.limit) this.entries.delete(this.entries.keys().next().value!);
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }
}
