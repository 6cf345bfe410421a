/**
 * Yoga's caches of parsed documents and of parse errors, keyed by the query's text, bounded by count and by bytes
 * of that text (decision 195). Yoga's own keep 1,024 of each for an hour whatever their size, and a parsed
 * document takes many times its text in memory: an integrator's many one-off queries, or large ones, would
 * grow the process. The most recently used stay; a text over a tenth of the bytes is never kept.
 */
export class TextKeyedCache<T> {
  private readonly entries = new Map<string, T>();
  private keptBytes = 0;

  constructor(
    private readonly maxEntries = 1_000,
    private readonly maxBytes = 2 * 1024 * 1024,
  ) {}

  get(key: string): T | undefined {
    const value = this.entries.get(key);
    if (value === undefined) return undefined;
    // Most recently used last: a Map keeps insertion order, so the first key is the one to drop.
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  set(key: string, value: T): void {
    if (key.length > this.maxBytes / 10) return;
    if (this.entries.delete(key)) this.keptBytes -= key.length;
    for (const oldest of this.entries.keys()) {
      if (this.entries.size < this.maxEntries && this.keptBytes + key.length <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.keptBytes -= oldest.length;
    }
    this.entries.set(key, value);
    this.keptBytes += key.length;
  }

  get size(): number {
    return this.entries.size;
  }

  /** Characters of query text kept (the parsed documents they stand for take several times that). */
  get bytes(): number {
    return this.keptBytes;
  }
}
