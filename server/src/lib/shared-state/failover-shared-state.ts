import type { MemorySharedState } from "./memory-shared-state.ts";
import type { RedisSharedState } from "./redis-shared-state.ts";
import type { SharedState, SharedStateStatus, WindowResult } from "./shared-state.ts";

export type FailoverOptions = {
  /** Deadline of one shared-state call; past it the call is answered from this instance's own state. */
  commandTimeoutMs: number;
  /**
   * The circuit opens after this many failed calls in a row with no answer from Redis for `silenceMs` (a slow
   * moment of a busy machine is not an outage); a lost connection opens it at once.
   */
  failureThreshold?: number;
  silenceMs?: number;
  /** Deadline of calls no request waits for (heartbeats, publishing events): longer, so they rarely miss. */
  backgroundTimeoutMs?: number;
  /** While open: how often Redis is tried again. */
  probeEveryMs?: number;
  log: { warn: (obj: object, msg: string) => void; info: (obj: object, msg: string) => void };
};

class DeadlineError extends Error {
  constructor(ms: number) {
    super(`shared state did not answer within ${ms} ms`);
    this.name = "DeadlineError";
  }
}

/**
 * Rejects when `promise` has not settled `ms` after the call. The verdict waits for one more turn of the event
 * loop (setImmediate runs after pending I/O), so an answer that arrived while the process was busy still wins
 * over a timer that expired meanwhile: a loaded machine does not read as an outage.
 */
function deadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const timer = setTimeout(() => {
      setImmediate(() => {
        if (settled) return;
        settled = true;
        reject(new DeadlineError(ms));
      });
    }, ms);
    promise.then(
      (value) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(value);
      },
      (error) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/**
 * Redis with a short deadline on every call and a circuit breaker in front of it (decision 008). While Redis is
 * away (connection lost, or `failureThreshold` calls in a row past their deadline) every call is answered by an
 * in-process state instead: limits, single-use markers and counts become per instance, the site keeps working,
 * and no request waits for Redis. Said once in the log and in `status()` (shown by /api/ready). A probe every
 * `probeEveryMs` closes the circuit again when Redis answers: no restart needed.
 */
export class FailoverSharedState implements SharedState {
  readonly kind = "redis" as const;
  private open = false;
  private since: Date | null = null;
  private epoch = 0;
  private failures = 0;
  private lastAnswerAt = Date.now();
  private probeTimer: NodeJS.Timeout | null = null;
  private probing = false;
  private closed = false;
  private readonly threshold: number;
  private readonly probeEveryMs: number;
  private readonly silenceMs: number;
  private readonly backgroundMs: number;

  constructor(
    private readonly primary: RedisSharedState,
    private readonly local: MemorySharedState,
    private readonly options: FailoverOptions,
  ) {
    this.threshold = options.failureThreshold ?? 3;
    this.probeEveryMs = options.probeEveryMs ?? 500;
    this.silenceMs = options.silenceMs ?? 1000;
    this.backgroundMs = options.backgroundTimeoutMs ?? Math.max(1000, options.commandTimeoutMs * 20);
    primary.onStatusChange(() => {
      if (this.closed) return;
      if (!primary.isReady()) this.trip("connection to Redis lost");
      else if (this.open) void this.probe();
    });
  }

  status(): SharedStateStatus {
    return {
      mode: this.open ? "local" : "shared",
      since: this.since?.toISOString() ?? null,
      epoch: this.epoch,
    };
  }

  private trip(reason: string) {
    if (this.open || this.closed) return;
    this.open = true;
    this.since = new Date();
    this.epoch += 1;
    this.options.log.warn(
      { reason },
      "shared state: Redis unavailable; this instance uses its own in-process limits, counts and events until it returns",
    );
    this.scheduleProbe();
  }

  private scheduleProbe() {
    if (this.probeTimer || this.closed) return;
    this.probeTimer = setInterval(() => void this.probe(), this.probeEveryMs);
    this.probeTimer.unref();
  }

  private async probe() {
    if (!this.open || this.probing || this.closed) return;
    if (!this.primary.isReady()) return;
    this.probing = true;
    try {
      await deadline(this.primary.ping(), Math.max(this.options.commandTimeoutMs, 200));
      if (this.closed || !this.primary.isReady()) return;
      this.open = false;
      this.failures = 0;
      this.lastAnswerAt = Date.now();
      this.since = new Date();
      this.epoch += 1;
      if (this.probeTimer) clearInterval(this.probeTimer);
      this.probeTimer = null;
      this.options.log.info({}, "shared state: Redis is back; limits, counts and events are shared again");
    } catch {
      // Still away: the next probe tries again.
    } finally {
      this.probing = false;
    }
  }

  /** Runs `op` on Redis within the deadline, or on the local state when Redis is away or too slow. */
  private async call<T>(op: (state: SharedState) => Promise<T>, background = false): Promise<T> {
    if (this.open || this.closed) return op(this.local);
    if (!this.primary.isReady()) {
      this.trip("connection to Redis lost");
      return op(this.local);
    }
    try {
      const value = await deadline(
        op(this.primary),
        background ? this.backgroundMs : this.options.commandTimeoutMs,
      );
      this.answered();
      return value;
    } catch (error) {
      this.failed(error);
      return op(this.local);
    }
  }

  private answered() {
    this.failures = 0;
    this.lastAnswerAt = Date.now();
  }

  private failed(error: unknown) {
    this.failures += 1;
    const silent = Date.now() - this.lastAnswerAt >= this.silenceMs;
    if ((this.failures >= this.threshold && silent) || !this.primary.isReady()) {
      this.trip(error instanceof Error ? error.message : String(error));
    }
  }

  set(key: string, value: string, ttlMs?: number) {
    return this.call((s) => s.set(key, value, ttlMs));
  }

  setIfAbsent(key: string, value: string, ttlMs: number) {
    return this.call((s) => s.setIfAbsent(key, value, ttlMs));
  }

  get(key: string) {
    return this.call((s) => s.get(key));
  }

  delete(key: string) {
    return this.call((s) => s.delete(key));
  }

  increment(key: string, ttlMs: number, by?: number) {
    return this.call((s) => s.increment(key, ttlMs, by));
  }

  hitWindow(key: string, limit: number, windowMs: number): Promise<WindowResult> {
    return this.call((s) => s.hitWindow(key, limit, windowMs));
  }

  heartbeat(group: string, instanceId: string, value: string, ttlMs: number) {
    return this.call((s) => s.heartbeat(group, instanceId, value, ttlMs), true);
  }

  readHeartbeats(group: string) {
    return this.call((s) => s.readHeartbeats(group), true);
  }

  async removeHeartbeat(group: string, instanceId: string) {
    await Promise.all([
      this.local.removeHeartbeat(group, instanceId),
      this.call((s) => (s === this.local ? Promise.resolve() : s.removeHeartbeat(group, instanceId)), true),
    ]);
  }

  /**
   * Through Redis when it is up (every instance hears it, this one included); to this instance's own listeners
   * when it is away. A publish that only ran out of time was sent and is not delivered twice.
   */
  async publish(channel: string, message: string) {
    if (this.open || this.closed || !this.primary.isReady()) {
      if (!this.open) this.trip("connection to Redis lost");
      await this.local.publish(channel, message);
      return null;
    }
    try {
      const receivers = await deadline(this.primary.publish(channel, message), this.backgroundMs);
      this.answered();
      return receivers;
    } catch (error) {
      this.failed(error);
      if (!(error instanceof DeadlineError)) await this.local.publish(channel, message);
      return null;
    }
  }

  /** Listens on both: Redis (when up) and the local bus (used while Redis is away). */
  async subscribe(channel: string, listener: (message: string) => void) {
    const local = await this.local.subscribe(channel, listener);
    const remote = this.primary.subscribe(channel, listener);
    remote.catch((error) => this.options.log.warn({ err: error, channel }, "shared state: subscribe failed"));
    // A subscription made while Redis is away completes when it returns; nobody waits for it meanwhile.
    await deadline(remote, Math.max(this.options.commandTimeoutMs, 1000)).catch(() => {});
    return async () => {
      await local();
      await deadline(
        remote.then((unsubscribe) => unsubscribe()),
        this.options.commandTimeoutMs,
      ).catch(() => {});
    };
  }

  async close() {
    this.closed = true;
    if (this.probeTimer) clearInterval(this.probeTimer);
    this.probeTimer = null;
    await Promise.allSettled([this.local.close(), this.primary.close()]);
  }
}
