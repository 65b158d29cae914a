/**
 * State that every server instance must agree on: rate-limit windows, single-use markers, per-instance
 * heartbeats and a publish/subscribe bus. Redis backs it when REDIS_URL is set (several instances);
 * otherwise an in-process implementation with the same behaviour serves a single instance.
 *
 * Keys are plain strings chosen by the caller; the implementation adds its own prefix (REDIS_KEY_PREFIX),
 * so tests and several deployments can share one Redis.
 */
export interface SharedState {
  readonly kind: "redis" | "memory";

  /** Stores a value, optionally expiring after `ttlMs`. */
  set(key: string, value: string, ttlMs?: number): Promise<void>;
  /** Stores a value only if the key is absent; true when it was stored (the caller "won"). */
  setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean>;
  get(key: string): Promise<string | null>;
  delete(key: string): Promise<void>;

  /** Adds `by` to an integer counter (missing counts as 0) and (re)sets its expiry; returns the new value. */
  increment(key: string, ttlMs: number, by?: number): Promise<number>;

  /**
   * Sliding-window rate counting (exact: a log of hit times). Records a hit when fewer than `limit` hits
   * fall inside the last `windowMs`; a refused hit is not recorded, so a client that keeps trying is not
   * locked out forever.
   */
  hitWindow(key: string, limit: number, windowMs: number): Promise<WindowResult>;

  /** Announces that `instanceId` is alive with `value`, for `ttlMs`; a dead instance's entry expires by itself. */
  heartbeat(group: string, instanceId: string, value: string, ttlMs: number): Promise<void>;
  /** The live entries of a heartbeat group, by instance id (expired ones are dropped). */
  readHeartbeats(group: string): Promise<Map<string, string>>;
  /** Removes an instance's entry at once (clean shutdown). */
  removeHeartbeat(group: string, instanceId: string): Promise<void>;

  /**
   * Hands `message` to every subscriber of `channel`; returns how many subscriptions it was handed to (Redis:
   * one per instance listening, this one included), or null when that is not known (Redis was away: it may not
   * have reached the other instances).
   */
  publish(channel: string, message: string): Promise<number | null>;
  /** Calls `listener` for every message on `channel` (including this instance's own); returns an unsubscribe. */
  subscribe(channel: string, listener: (message: string) => void): Promise<() => Promise<void>>;

  close(): Promise<void>;

  /**
   * Whether the state is really shared right now. Absent: always (the in-process state of a single instance).
   * Redis in a cluster says `local` while it is unreachable and this instance answers from its own state.
   */
  status?(): SharedStateStatus;
}

export type SharedStateStatus = {
  mode: "shared" | "local";
  /** When the current mode began (null: since the start). */
  since: string | null;
  /** Incremented at every change of mode: what was learned from the other instances before may be stale. */
  epoch: number;
};

export type WindowResult = {
  allowed: boolean;
  /** Hits inside the window, including this one when allowed. */
  count: number;
  /** When refused: milliseconds until the oldest hit leaves the window (a slot frees up); otherwise 0. */
  retryAfterMs: number;
};
