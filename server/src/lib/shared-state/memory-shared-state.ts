import type { SharedState, WindowResult } from "./shared-state.ts";

type Entry = { value: string; expiresAt: number };

/** Single-process implementation: the same semantics as Redis, for `npm start` without REDIS_URL and for tests. */
export class MemorySharedState implements SharedState {
  readonly kind = "memory" as const;
  private values = new Map<string, Entry>();
  /** Hit times per key, oldest first; `head` skips the ones that left the window (no copy per hit). */
  private windows = new Map<string, { times: number[]; head: number }>();
  private listeners = new Map<string, Set<(message: string) => void>>();
  private sweeper: NodeJS.Timeout;

  constructor(private now: () => number = Date.now) {
    // Expired entries are dropped on read; the sweeper only bounds memory for keys nobody reads again.
    this.sweeper = setInterval(() => this.sweep(), 60_000);
    this.sweeper.unref();
  }

  async set(key: string, value: string, ttlMs?: number) {
    this.values.set(key, { value, expiresAt: ttlMs ? this.now() + ttlMs : Number.POSITIVE_INFINITY });
  }

  async setIfAbsent(key: string, value: string, ttlMs: number) {
    if (this.read(key) !== null) return false;
    await this.set(key, value, ttlMs);
    return true;
  }

  async get(key: string) {
    return this.read(key);
  }

  async delete(key: string) {
    this.values.delete(key);
    this.windows.delete(key);
  }

  async increment(key: string, ttlMs: number, by = 1) {
    const next = Number(this.read(key) ?? 0) + by;
    await this.set(key, String(next), ttlMs);
    return next;
  }

  async hitWindow(key: string, limit: number, windowMs: number): Promise<WindowResult> {
    const now = this.now();
    let log = this.windows.get(key);
    if (!log) {
      log = { times: [], head: 0 };
      this.windows.set(key, log);
    }
    // Each hit leaves the window once: amortised O(1) per call, even with a large limit.
    const cutoff = now - windowMs;
    while (log.head < log.times.length && log.times[log.head]! <= cutoff) log.head++;
    if (log.head > 1024 && log.head * 2 > log.times.length) {
      log.times = log.times.slice(log.head);
      log.head = 0;
    }
    const count = log.times.length - log.head;
    if (count >= limit) {
      return { allowed: false, count, retryAfterMs: Math.max(1, log.times[log.head]! + windowMs - now) };
    }
    log.times.push(now);
    return { allowed: true, count: count + 1, retryAfterMs: 0 };
  }

  async heartbeat(group: string, instanceId: string, value: string, ttlMs: number) {
    await this.set(`hb:${group}:${instanceId}`, value, ttlMs);
  }

  async readHeartbeats(group: string) {
    const prefix = `hb:${group}:`;
    const result = new Map<string, string>();
    for (const key of [...this.values.keys()]) {
      if (!key.startsWith(prefix)) continue;
      const value = this.read(key);
      if (value !== null) result.set(key.slice(prefix.length), value);
    }
    return result;
  }

  async removeHeartbeat(group: string, instanceId: string) {
    this.values.delete(`hb:${group}:${instanceId}`);
  }

  async publish(channel: string, message: string) {
    // Asynchronous like a real bus: a publisher never re-enters its own listener synchronously.
    const listeners = [...(this.listeners.get(channel) ?? [])];
    queueMicrotask(() => {
      for (const listener of listeners) listener(message);
    });
    return listeners.length;
  }

  async subscribe(channel: string, listener: (message: string) => void) {
    const set = this.listeners.get(channel) ?? new Set();
    set.add(listener);
    this.listeners.set(channel, set);
    return async () => {
      set.delete(listener);
    };
  }

  async close() {
    clearInterval(this.sweeper);
    this.values.clear();
    this.windows.clear();
    this.listeners.clear();
  }

  private read(key: string): string | null {
    const entry = this.values.get(key);
    if (!entry) return null;
    if (entry.expiresAt <= this.now()) {
      this.values.delete(key);
      return null;
    }
    return entry.value;
  }

  private sweep() {
    const now = this.now();
    for (const [key, entry] of this.values) if (entry.expiresAt <= now) this.values.delete(key);
    // A window whose newest hit is older than any sane window (1 day) is dead.
    for (const [key, log] of this.windows) {
      if ((log.times.at(-1) ?? 0) < now - 86_400_000) this.windows.delete(key);
    }
  }
}
