import type { FastifyBaseLogger } from "fastify";
import { describe, expect, it } from "vitest";
import { MemorySharedState } from "../src/lib/shared-state/memory-shared-state.ts";
import { LiveUserCount } from "../src/modules/live-users/live-user-count.ts";
import type { RealtimeHub } from "../src/modules/realtime/hub.ts";

/** An instance's hub as the counter sees it: its browsers, its connect listeners and what it broadcast. */
function fakeHub() {
  const connects: (() => void)[] = [];
  const disconnects: (() => void)[] = [];
  const hub = {
    browsers: 0,
    broadcasts: [] as number[],
    onConnect: (listener: () => void) => connects.push(listener),
    onDisconnect: (listener: () => void) => disconnects.push(listener),
    broadcast: (message: { count?: unknown }) => hub.broadcasts.push(Number(message.count)),
    connect() {
      hub.browsers++;
      for (const listener of connects) listener();
    },
    disconnect() {
      hub.browsers--;
      for (const listener of disconnects) listener();
    },
  };
  return hub;
}

const log = { warn: () => {} } as unknown as FastifyBaseLogger;
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Waits for `condition`, at most 5 s (a busy machine delays timers, never skips them). */
async function until(condition: () => boolean) {
  for (const deadline = Date.now() + 5000; !condition() && Date.now() < deadline; ) await wait(10);
}

describe("live user count", () => {
  it("corrects a client told a total from before another instance's change, when the total returns to the last broadcast", async () => {
    const state = new MemorySharedState();
    const hubA = fakeHub();
    const hubB = fakeHub();
    // A coalesces for 500 ms, B syncs at once: B's change is published while A's re-read is still waiting.
    const a = new LiveUserCount(state, hubA as unknown as RealtimeHub, {
      heartbeatMs: 60_000,
      broadcastDelayMs: 500,
      log,
      instanceId: "a",
    });
    const b = new LiveUserCount(state, hubB as unknown as RealtimeHub, {
      heartbeatMs: 60_000,
      broadcastDelayMs: 0,
      log,
      instanceId: "b",
    });
    await a.start();
    await b.start();
    hubB.connect();
    await until(() => hubA.broadcasts.at(-1) === 1);
    expect(hubA.broadcasts.at(-1)).toBe(1); // what A's clients were last told: B's one browser

    // B's browser leaves and B publishes at once; A will re-read in 500 ms. Meanwhile a browser connects to A and
    // is told A's 1 plus B's 1 that A still holds: 2.
    hubB.disconnect();
    await wait(15);
    hubA.connect();
    expect(a.totalForOneClient()).toBe(2);
    const before = hubA.broadcasts.length;
    // A re-reads: the total is 1 again, the last broadcast's value. The new client must hear it all the same.
    const heard = () => hubA.broadcasts.slice(before).at(-1);
    await until(() => heard() === 1);
    expect(a.total()).toBe(1);
    expect(heard()).toBe(1);
    await a.stop();
    await b.stop();
  });
});
