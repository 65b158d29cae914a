/**
 * Caches a value per key for `ttlMs` and shares one in-flight load between concurrent callers of the same key,
 * so a burst of identical requests costs one RPC call. Failures are not cached.
 */
export function createCoalescingCache<V>(ttlMs: number, maxEntries = 10_000, now: () => number = Date.now) {
  const entries = new Map<string, { value: Promise<V>; expiresAt: number }>();

  return {
    get(key: string, load: () => Promise<V>): Promise<V> {
      const at = now();
      const hit = entries.get(key);
      if (hit && hit.expiresAt > at) return hit.value;
      if (entries.size >= maxEntries) {
        for (const [k, entry] of entries) if (entry.expiresAt <= at) entries.delete(k);
        if (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string);
      }
      // While loading, the entry never expires; its TTL starts when the value arrives.
      const entry = { value: load(), expiresAt: Number.POSITIVE_INFINITY };
      entries.set(key, entry);
      entry.value.then(
        () => {
          entry.expiresAt = now() + ttlMs;
        },
        () => {
          if (entries.get(key) === entry) entries.delete(key);
        },
      );
      return entry.value;
    },
    clear() {
      entries.clear();
    },
  };
}
