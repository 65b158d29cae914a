import { afterAll, describe, expect, it } from "vitest";
import { MemorySharedState } from "../src/lib/shared-state/memory-shared-state.ts";
import { openSharedState } from "../src/lib/shared-state/open-shared-state.ts";
import { RedisSharedState } from "../src/lib/shared-state/redis-shared-state.ts";
import type { SharedState } from "../src/lib/shared-state/shared-state.ts";
import { TcpProxy } from "./tcp-proxy.ts";
import { redisUrl, uniquePrefix } from "./ws-client.ts";

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

async function redisState() {
  const state = new RedisSharedState({ url: redisUrl, keyPrefix: uniquePrefix("shared-state") });
  await state.connect();
  return state;
}

// One contract, two implementations: whatever passes here behaves the same with and without Redis.
// The in-process implementation runs on a clock the test moves; Redis runs on its own clock, so a short expiry is
// awaited (at least its length, then polled), and whatever must still be there is given a minute: no assertion
// depends on two calls landing within a few milliseconds of each other on a busy machine.
let memoryNow = Date.now();
const memory: SharedState = new MemorySharedState(() => memoryNow);
const redis: SharedState = await redisState();
// What the app uses with REDIS_URL: Redis behind a deadline and a circuit breaker (same contract while up).
// Its deadline is one a busy machine's Redis meets: past it a call is answered locally (tested below on its own).
const failover: SharedState = await openSharedState({
  redisUrl,
  keyPrefix: uniquePrefix("failover"),
  commandTimeoutMs: 2000,
});
afterAll(async () => {
  await memory.close();
  await redis.close();
  await failover.close();
});

const MINUTE = 60_000;
/** Lets at least `ms` pass on the implementation's clock. */
type PassTime = (ms: number) => Promise<void>;
const moveMemoryClock: PassTime = async (ms) => {
  memoryNow += ms;
};
const realTime: PassTime = (ms) => sleep(ms);
/** Waits for what an expiry leads to: at once on the moved clock, within seconds on Redis's. */
const eventually = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 10_000, interval: 50 });

describe.each([
  ["memory", memory, moveMemoryClock],
  ["redis", redis, realTime],
  ["redis with failover", failover, realTime],
])("shared state (%s)", (_name, state, passTime) => {
  it("stores values with expiry and set-if-absent", async () => {
    await state.set("a", "1", MINUTE);
    expect(await state.get("a")).toBe("1");
    expect(await state.setIfAbsent("a", "2", MINUTE)).toBe(false);
    await state.set("short", "1", 100);
    await passTime(100);
    await eventually(() => state.get("short")).toBeNull();
    expect(await state.setIfAbsent("short", "3", MINUTE)).toBe(true);
    expect(await state.get("short")).toBe("3");
    expect(await state.get("a")).toBe("1");
    await state.delete("a");
    await state.delete("short");
    expect(await state.get("a")).toBeNull();
  });

  it("increments counters that expire", async () => {
    expect(await state.increment("n", MINUTE)).toBe(1);
    expect(await state.increment("n", MINUTE, 4)).toBe(5);
    expect(await state.increment("short-n", 100)).toBe(1);
    await passTime(100);
    await eventually(() => state.get("short-n")).toBeNull();
    expect(await state.increment("short-n", 100)).toBe(1);
    expect(await state.increment("n", MINUTE)).toBe(6);
    await state.delete("n");
    await state.delete("short-n");
  });

  it("allows exactly `limit` hits per sliding window and frees a slot as the oldest leaves", async () => {
    // Seconds, not milliseconds: the three hits must fall in one window however slow the machine is.
    const windowMs = 3_000;
    for (let i = 1; i <= 3; i++)
      expect(await state.hitWindow("w", 3, windowMs)).toMatchObject({ allowed: true, count: i });
    const refused = await state.hitWindow("w", 3, windowMs);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterMs).toBeGreaterThan(0);
    expect(refused.retryAfterMs).toBeLessThanOrEqual(windowMs);
    await passTime(refused.retryAfterMs + 20);
    await eventually(async () => (await state.hitWindow("w", 3, windowMs)).allowed).toBe(true);
    await state.delete("w");
    expect(await state.hitWindow("w", 3, windowMs)).toMatchObject({ allowed: true, count: 1 });
    await state.delete("w");
  });

  it("keeps heartbeats while they are renewed and forgets them when they stop", async () => {
    await state.heartbeat("g", "one", "5", 150);
    await state.heartbeat("g", "two", "7", MINUTE);
    expect((await state.readHeartbeats("g")).get("two")).toBe("7");
    await passTime(150);
    await eventually(async () => Object.fromEntries(await state.readHeartbeats("g"))).toEqual({ two: "7" });
    await state.heartbeat("g", "one", "6", MINUTE);
    expect(Object.fromEntries(await state.readHeartbeats("g"))).toEqual({ one: "6", two: "7" });
    await state.removeHeartbeat("g", "one");
    await state.removeHeartbeat("g", "two");
    expect((await state.readHeartbeats("g")).size).toBe(0);
  });

  it("delivers published messages to subscribers until they unsubscribe", async () => {
    const got: string[] = [];
    const unsubscribe = await state.subscribe("ch", (m) => got.push(m));
    await state.publish("ch", "hello");
    await eventually(async () => [...got]).toEqual(["hello"]);
    await unsubscribe();
    // A second subscriber hears what follows in publishing order: once it has heard the marker, a message sent
    // before it would have reached the first subscriber too, had it still been subscribed.
    const later: string[] = [];
    const unsubscribeLater = await state.subscribe("ch", (m) => later.push(m));
    await state.publish("ch", "again");
    await state.publish("ch", "marker");
    await eventually(async () => [...later]).toEqual(["again", "marker"]);
    expect(got).toEqual(["hello"]);
    await unsubscribeLater();
  });
});

describe("Redis that stops answering (connection open, nothing comes back)", () => {
  it("answers within the deadline from local state, opens the circuit, and shares again after Redis returns", async () => {
    const target = new URL(redisUrl);
    const proxy = await TcpProxy.start({ host: target.hostname, port: Number(target.port || 6379) });
    const state = await openSharedState({
      redisUrl: proxy.url(redisUrl),
      keyPrefix: uniquePrefix("stall"),
      commandTimeoutMs: 50,
    });
    try {
      expect(state.status?.().mode).toBe("shared");
      proxy.stall();
      const started = performance.now();
      for (let i = 0; i < 3; i++) expect((await state.hitWindow("w", 5, 60_000)).allowed).toBe(true);
      // Each call waited for its deadline at most (plus a busy machine's scheduling), never ioredis's retries.
      expect(performance.now() - started).toBeLessThan(3 * 1000);
      await expect
        .poll(async () => {
          await state.get("probe");
          return state.status?.().mode;
        })
        .toBe("local");
      // Per-instance now: the local window has counted every hit answered locally.
      expect((await state.hitWindow("w", 3, 60_000)).allowed).toBe(false);
      proxy.cut();
      proxy.restore();
      await expect.poll(() => state.status?.().mode, { timeout: 15_000 }).toBe("shared");
      // Redis never saw the hits answered locally.
      expect((await state.hitWindow("w", 3, 60_000)).allowed).toBe(true);
      await state.delete("w");
    } finally {
      await state.close();
      await proxy.close();
    }
  });
});
