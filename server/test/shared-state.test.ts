import { afterAll, describe, expect, it } from "vitest";
import { MemorySharedState } from "../src/lib/shared-state/memory-shared-state.ts";
import { openSharedState } from "../src/lib/shared-state/open-shared-state.ts";
import { RedisSharedState } from "../src/lib/shared-state/redis-shared-state.ts";
import type { SharedState } from "../src/lib/shared-state/shared-state.ts";
import { TcpProxy } from "./tcp-proxy.ts";
import { redisUrl, uniquePrefix } from "./ws-client.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function redisState() {
  const state = new RedisSharedState({ url: redisUrl, keyPrefix: uniquePrefix("shared-state") });
  await state.connect();
  return state;
}

// One contract, two implementations: whatever passes here behaves the same with and without Redis.
const memory: SharedState = new MemorySharedState();
const redis: SharedState = await redisState();
// What the app uses with REDIS_URL: Redis behind a deadline and a circuit breaker (same contract while up).
const failover: SharedState = await openSharedState({ redisUrl, keyPrefix: uniquePrefix("failover") });
afterAll(async () => {
  await memory.close();
  await redis.close();
  await failover.close();
});

describe.each([
  ["memory", memory],
  ["redis", redis],
  ["redis with failover", failover],
])("shared state (%s)", (_name, state) => {
  it("stores values with expiry and set-if-absent", async () => {
    await state.set("a", "1", 100);
    expect(await state.get("a")).toBe("1");
    expect(await state.setIfAbsent("a", "2", 1000)).toBe(false);
    await sleep(150);
    expect(await state.get("a")).toBeNull();
    expect(await state.setIfAbsent("a", "3", 1000)).toBe(true);
    expect(await state.get("a")).toBe("3");
    await state.delete("a");
    expect(await state.get("a")).toBeNull();
  });

  it("increments counters that expire", async () => {
    expect(await state.increment("n", 100)).toBe(1);
    expect(await state.increment("n", 100, 4)).toBe(5);
    await sleep(150);
    expect(await state.increment("n", 100)).toBe(1);
  });

  it("allows exactly `limit` hits per sliding window and frees a slot as the oldest leaves", async () => {
    for (let i = 1; i <= 3; i++)
      expect(await state.hitWindow("w", 3, 300)).toMatchObject({ allowed: true, count: i });
    const refused = await state.hitWindow("w", 3, 300);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterMs).toBeGreaterThan(0);
    expect(refused.retryAfterMs).toBeLessThanOrEqual(300);
    await sleep(refused.retryAfterMs + 20);
    expect((await state.hitWindow("w", 3, 300)).allowed).toBe(true);
    await state.delete("w");
    expect(await state.hitWindow("w", 3, 300)).toMatchObject({ allowed: true, count: 1 });
  });

  it("keeps heartbeats while they are renewed and forgets them when they stop", async () => {
    await state.heartbeat("g", "one", "5", 150);
    await state.heartbeat("g", "two", "7", 1000);
    expect(Object.fromEntries(await state.readHeartbeats("g"))).toEqual({ one: "5", two: "7" });
    await sleep(200);
    expect(Object.fromEntries(await state.readHeartbeats("g"))).toEqual({ two: "7" });
    await state.removeHeartbeat("g", "two");
    expect((await state.readHeartbeats("g")).size).toBe(0);
  });

  it("delivers published messages to subscribers until they unsubscribe", async () => {
    const got: string[] = [];
    const unsubscribe = await state.subscribe("ch", (m) => got.push(m));
    await state.publish("ch", "hello");
    await sleep(50);
    expect(got).toEqual(["hello"]);
    await unsubscribe();
    await state.publish("ch", "again");
    await sleep(50);
    expect(got).toEqual(["hello"]);
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
