import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Database } from "../src/db/client.ts";
import type { SharedState } from "../src/lib/shared-state/shared-state.ts";
import { insertSession, insertUser } from "../src/modules/auth/repository.ts";
import { SESSION_CACHE_TTL_MS, SessionCache } from "../src/modules/auth/session-cache.ts";
import { createTestDatabase } from "./helpers.ts";

/**
 * A shared bus as Redis is one: every subscriber hears every message and `publish` says how many subscribers
 * it reached. Each subscriber has its own delivery delay, as an instance whose event loop is busy does
 * (Infinity: it never hears anything, as a hung instance).
 */
class Bus {
  private subscribers: { listener: (message: string) => void; delayMs: number }[] = [];

  /** The shared state of one instance on this bus, its messages delivered after `delayMs`. */
  instance(delayMs = 0): SharedState {
    return {
      subscribe: async (_channel: string, listener: (message: string) => void) => {
        const subscriber = { listener, delayMs };
        this.subscribers.push(subscriber);
        return async () => {
          this.subscribers = this.subscribers.filter((s) => s !== subscriber);
        };
      },
      publish: async (_channel: string, message: string) => {
        for (const { listener, delayMs } of this.subscribers) {
          if (delayMs !== Number.POSITIVE_INFINITY) setTimeout(() => listener(message), delayMs);
        }
        return this.subscribers.length;
      },
      status: () => ({ mode: "shared", since: null, epoch: 1 }),
    } as unknown as SharedState;
  }
}

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

let count = 0;
/** A user with one live session; returns the session's token hash. */
async function signedIn() {
  count += 1;
  const user = await insertUser(database.db, { id: `u${count}`, username: `user${count}` });
  await insertSession(database.db, {
    id: `s${count}`,
    tokenHash: `hash${count}`,
    userId: user.id,
    expiresAt: new Date(Date.now() + 3_600_000),
  });
  return { userId: user.id, tokenHash: `hash${count}` };
}

function instance(bus: Bus, delayMs = 0) {
  const warnings: string[] = [];
  const cache = new SessionCache(bus.instance(delayMs), { warn: (_obj, msg) => warnings.push(msg) });
  return { cache, warnings };
}

describe("session cache across instances", () => {
  it("a change on B is answered only once A, slow to hear it, has forgotten the session", async () => {
    const bus = new Bus();
    const a = instance(bus, 600);
    const b = instance(bus);
    await a.cache.start();
    await b.cache.start();
    const { userId, tokenHash } = await signedIn();
    expect(await a.cache.lookup(database.db, tokenHash, new Date())).not.toBeNull();
    expect(a.cache.get(tokenHash, Date.now())).not.toBeNull(); // A answers this session from its cache

    const started = Date.now();
    await b.cache.changed(userId, { ended: true });
    // A heard the change 600 ms after it was published: B waited for A's word, not for a fixed time.
    expect(Date.now() - started).toBeGreaterThanOrEqual(590);
    expect(a.cache.get(tokenHash, Date.now())).toBeNull();
    expect(b.warnings).toEqual([]);
    await a.cache.stop();
    await b.cache.stop();
  });

  it("an instance that never confirms: B waits until what A cached before the change has expired", async () => {
    const bus = new Bus();
    const a = instance(bus, Number.POSITIVE_INFINITY);
    const b = instance(bus);
    await a.cache.start();
    await b.cache.start();
    const { userId, tokenHash } = await signedIn();
    const cachedAt = Date.now();
    await a.cache.lookup(database.db, tokenHash, new Date(cachedAt));

    await b.cache.changed(userId, { ended: true });
    expect(a.cache.get(tokenHash, Date.now())).toBeNull(); // expired: it can no longer be answered from cache
    expect(Date.now() - cachedAt).toBeGreaterThanOrEqual(SESSION_CACHE_TTL_MS);
    expect(b.warnings).toEqual([
      "sessions: not every instance confirmed a change; waited until what they cached had expired",
    ]);
    await a.cache.stop();
    await b.cache.stop();
  });

  it("a single instance does not wait", async () => {
    const bus = new Bus();
    const b = instance(bus);
    await b.cache.start();
    const { userId } = await signedIn();
    // On a clock the test moves (a busy machine cannot stretch it): a change that waited for another instance's
    // word would still be pending just before the deadline.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      let settled = false;
      const change = b.cache.changed(userId, { ended: false }).then(() => {
        settled = true;
      });
      await vi.advanceTimersByTimeAsync(SESSION_CACHE_TTL_MS - 1);
      expect(settled).toBe(true);
      await change;
    } finally {
      vi.useRealTimers();
    }
    expect(b.warnings).toEqual([]);
    await b.cache.stop();
  });
});
