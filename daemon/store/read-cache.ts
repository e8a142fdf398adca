/** Entries a cache holds at most; past it, it starts over (the tables it serves are small: keys, applications). */
const CACHE_ENTRIES = 10_000;

export type ReadCache<V> = ReturnType<typeof createReadCache<V>>;

/**
 * Results of point reads, kept in memory for a database this process alone writes to (the embedded SQLite):
 * every write goes through this process's store, which invalidates what it changes, so a cached value is never
 * stale. Reading the key of every request and its application cost as much as the rest of the request
 * (measured: 6,800 against 9,600 requests a second with the key cached). On a shared database (PostgreSQL,
 * where other processes write) the cache is off and every read goes to the database.
 */
export function createReadCache<V>(enabled: boolean) {
  const entries = new Map<string, V>();
  // Bumped by every invalidation: a read that began before one may have seen the old row, and is not kept.
  let epoch = 0;
  return {
    async read(key: string, load: () => Promise<V>): Promise<V> {
      if (!enabled) return load();
      if (entries.has(key)) return entries.get(key)!;
      const started = epoch;
      const value = await load();
      if (epoch === started) {
        if (entries.size >= CACHE_ENTRIES) entries.clear();
        entries.set(key, value);
      }
      return value;
    },

    /** Forgets `key` (every key, without one); call it once the write that changed it has returned. */
    invalidate(key?: string): void {
      epoch += 1;
      if (key === undefined) entries.clear();
      else entries.delete(key);
    },
  };
}
