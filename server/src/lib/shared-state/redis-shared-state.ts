import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import type { SharedState, WindowResult } from "./shared-state.ts";

// Exact sliding window as a sorted set of hit times. Redis's clock is the only clock, so instances with
// skewed clocks still agree. Atomic: a burst split across instances cannot overshoot the limit.
const HIT_WINDOW = `
local key = KEYS[1]
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
local count = redis.call('ZCARD', key)
if count >= limit then
  local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
  local retry = 1
  if oldest[2] then retry = math.max(1, tonumber(oldest[2]) + window - now) end
  return {0, count, retry}
end
redis.call('ZADD', key, now, ARGV[3])
redis.call('PEXPIRE', key, window)
return {1, count + 1, 0}
`;

const INCREMENT = `
local value = redis.call('INCRBY', KEYS[1], ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return value
`;

export type RedisSharedStateOptions = {
  url: string;
  keyPrefix: string;
  /** ioredis's own command timeout: a backstop so commands sent into a dead connection do not pile up. */
  commandTimeoutMs?: number;
};

/** Waits at most `ms` for `promise`, without leaving a timer behind. */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<undefined>((r) => {
        timer = setTimeout(() => r(undefined), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export class RedisSharedState implements SharedState {
  readonly kind = "redis" as const;
  private redis: Redis;
  private subscriber: Redis | null = null;
  private listeners = new Map<string, Set<(message: string) => void>>();
  private readonly prefix: string;
  private statusListeners: (() => void)[] = [];

  constructor(options: RedisSharedStateOptions) {
    this.prefix = options.keyPrefix;
    // A command fails at once while the connection is down (no offline queue, no retries of commands sent
    // into a dropped connection): callers decide how to degrade (see failover-shared-state.ts). The client
    // itself keeps reconnecting in the background.
    this.redis = new Redis(options.url, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: options.commandTimeoutMs ?? 2000,
      connectTimeout: 2000,
      retryStrategy: (times) => Math.min(times * 100, 1000),
    });
    this.redis.on("error", () => {});
    this.watch(this.redis);
  }

  private watch(connection: Redis) {
    for (const event of ["ready", "close", "end", "reconnecting"]) {
      connection.on(event, () => {
        for (const listener of this.statusListeners) listener();
      });
    }
  }

  /** Called whenever a connection (commands or subscriber) comes up or goes down. */
  onStatusChange(listener: () => void) {
    this.statusListeners.push(listener);
  }

  /** Both connections are up: commands are answered and published messages are heard. */
  isReady() {
    return this.redis.status === "ready" && (this.subscriber === null || this.subscriber.status === "ready");
  }

  async ping() {
    await this.redis.ping();
  }

  /** Connects and checks the server answers, so a wrong REDIS_URL fails at boot, not on the first request. */
  async connect() {
    await this.redis.connect();
    await this.redis.ping();
  }

  private k(key: string) {
    return this.prefix + key;
  }

  async set(key: string, value: string, ttlMs?: number) {
    if (ttlMs) await this.redis.set(this.k(key), value, "PX", Math.max(1, Math.ceil(ttlMs)));
    else await this.redis.set(this.k(key), value);
  }

  async setIfAbsent(key: string, value: string, ttlMs: number) {
    const result = await this.redis.set(this.k(key), value, "PX", Math.max(1, Math.ceil(ttlMs)), "NX");
    return result === "OK";
  }

  async get(key: string) {
    return this.redis.get(this.k(key));
  }

  async delete(key: string) {
    await this.redis.del(this.k(key));
  }

  async increment(key: string, ttlMs: number, by = 1) {
    const value = await this.redis.eval(INCREMENT, 1, this.k(key), Math.max(1, Math.ceil(ttlMs)), by);
    return Number(value);
  }

  async hitWindow(key: string, limit: number, windowMs: number): Promise<WindowResult> {
    const member = randomBytes(8).toString("hex");
    const [allowed, count, retry] = (await this.redis.eval(
      HIT_WINDOW,
      1,
      this.k(key),
      limit,
      Math.ceil(windowMs),
      member,
    )) as [number, number, number];
    return { allowed: allowed === 1, count, retryAfterMs: retry };
  }

  async heartbeat(group: string, instanceId: string, value: string, ttlMs: number) {
    await this.redis
      .multi()
      .set(this.k(`hb:${group}:${instanceId}`), value, "PX", Math.max(1, Math.ceil(ttlMs)))
      .sadd(this.k(`hb:${group}`), instanceId)
      .exec();
  }

  async readHeartbeats(group: string) {
    const ids = await this.redis.smembers(this.k(`hb:${group}`));
    const result = new Map<string, string>();
    if (ids.length === 0) return result;
    const values = await this.redis.mget(ids.map((id) => this.k(`hb:${group}:${id}`)));
    const dead: string[] = [];
    ids.forEach((id, i) => {
      const value = values[i];
      if (value === null || value === undefined) dead.push(id);
      else result.set(id, value);
    });
    // The member set has no expiry of its own; whoever reads it forgets instances whose heartbeat expired.
    if (dead.length > 0) await this.redis.srem(this.k(`hb:${group}`), ...dead);
    return result;
  }

  async removeHeartbeat(group: string, instanceId: string) {
    await this.redis
      .multi()
      .del(this.k(`hb:${group}:${instanceId}`))
      .srem(this.k(`hb:${group}`), instanceId)
      .exec();
  }

  async publish(channel: string, message: string) {
    return this.redis.publish(this.k(channel), message);
  }

  async subscribe(channel: string, listener: (message: string) => void) {
    const subscriber = await this.getSubscriber();
    const name = this.k(channel);
    let set = this.listeners.get(name);
    if (!set) {
      set = new Set();
      this.listeners.set(name, set);
      await subscriber.subscribe(name);
    }
    set.add(listener);
    return async () => {
      set.delete(listener);
      if (set.size === 0 && this.listeners.get(name) === set) {
        this.listeners.delete(name);
        await subscriber.unsubscribe(name).catch(() => {});
      }
    };
  }

  private async getSubscriber() {
    if (this.subscriber) return this.subscriber;
    // The subscriber queues its (re)subscriptions while down and replays them when Redis returns.
    const subscriber = this.redis.duplicate({ enableOfflineQueue: true, maxRetriesPerRequest: null });
    subscriber.on("error", () => {});
    this.watch(subscriber);
    subscriber.on("message", (channel: string, message: string) => {
      for (const listener of this.listeners.get(channel) ?? []) listener(message);
    });
    this.subscriber = subscriber;
    if (subscriber.status === "wait") await subscriber.connect();
    return subscriber;
  }

  /** Quick even while Redis is away: a polite QUIT when connected (bounded), a hard disconnect otherwise. */
  async close() {
    this.listeners.clear();
    this.statusListeners = [];
    await Promise.allSettled(
      [this.subscriber, this.redis].map(async (connection) => {
        if (!connection) return;
        if (connection.status === "ready")
          await within(
            connection.quit().catch(() => {}),
            500,
          );
        connection.disconnect();
      }),
    );
  }
}
