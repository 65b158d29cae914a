// Several instances and their faults (issue 20): two apps in one process on one PostgreSQL database and one
// Redis (keys under a test prefix, reached through a TCP proxy this file controls), one anvil chain.
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, buildApp } from "../src/app.ts";
import { connectChain } from "../src/chain/service.ts";
import { testConfig } from "../src/config.ts";
import { type Database, openDatabase } from "../src/db/client.ts";
import { chainConfigFor, startTestChain, type TestChain } from "./chain-helpers.ts";
import { createPostgresDatabase } from "./helpers.ts";
import {
  api,
  createMerchant,
  createPayment,
  PASSWORD,
  paymentTestConfig,
  signUp,
} from "./payment-helpers.ts";
import { TcpProxy } from "./tcp-proxy.ts";
import { TestSocket, uniquePrefix } from "./ws-client.ts";

const databaseUrl = process.env.DATABASE_URL;
const redisUrl = process.env.REDIS_URL;
const needsBoth = !databaseUrl
  ? "DATABASE_URL is not set (PostgreSQL needed)"
  : !redisUrl
    ? "REDIS_URL is not set (Redis needed)"
    : null;
if (needsBoth) console.info(`instances.test.ts: the two-instance tests are skipped: ${needsBoth}`);
if (!databaseUrl)
  console.info("instances.test.ts: the database-outage test is skipped: DATABASE_URL is not set");

/** A PostgreSQL database of this file's own, beside DATABASE_URL's, that can refuse connections for a while. */
async function ownDatabase() {
  const own = await createPostgresDatabase(databaseUrl!);
  return {
    ...own,
    /** Refuses new connections and ends the open ones, as a database being restored or moved does. */
    async refuse() {
      await own.admin(`alter database "${own.name}" with allow_connections false`);
      await own.admin(`select pg_terminate_backend(pid) from pg_stat_activity where datname = '${own.name}'`);
    },
    allow: () => own.admin(`alter database "${own.name}" with allow_connections true`),
  };
}

function sessionCookie(res: { cookies: { name: string; value: string }[] }) {
  const cookie = res.cookies.find((c) => c.name === "cpxtb_session");
  return cookie ? `cpxtb_session=${cookie.value}` : null;
}

async function login(app: App, username: string) {
  const res = await api(app).post("/api/login", { username, password: PASSWORD });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.body}`);
  return sessionCookie(res)!;
}

/** Over HTTP, as a browser asks: a request that arrives after another instance answered a revocation. */
async function me(app: App, cookie: string) {
  const { port } = app.server.address() as { port: number };
  const res = await fetch(`http://127.0.0.1:${port}/api/user`, { headers: { cookie } });
  await res.arrayBuffer();
  return res.status;
}
const ready = async (app: App) => (await api(app).get("/api/ready")).json();

describe.skipIf(needsBoth !== null)("two instances on one PostgreSQL and one Redis", () => {
  let chain: TestChain;
  let proxy: TcpProxy;
  let database: Awaited<ReturnType<typeof ownDatabase>>;
  const databases: Database[] = [];
  const apps: App[] = [];
  let a: App;
  let b: App;
  const ws: Record<"a" | "b", string> = { a: "", b: "" };
  const sockets: TestSocket[] = [];

  beforeAll(async () => {
    chain = await startTestChain();
    const target = new URL(redisUrl!);
    proxy = await TcpProxy.start({ host: target.hostname, port: Number(target.port || 6379) });
    database = await ownDatabase();
    const prefix = uniquePrefix("instances");
    const limits = paymentTestConfig().rateLimits;
    for (let i = 0; i < 2; i++) {
      const db = await openDatabase({ driver: "pg", url: database.url, poolSize: 5 });
      databases.push(db);
      await db.migrate();
      const app = await buildApp(
        testConfig({
          clientDist: "/nonexistent",
          rateLimits: { ...limits, claim: { limit: 3, windowMs: 60_000 } },
          redisUrl: proxy.url(redisUrl!),
          redisKeyPrefix: prefix,
        }),
        {
          database: db,
          chain: await connectChain(chainConfigFor(chain.url, chain.deployment, { confirmations: 1 })),
          payments: { runtime: { lockEveryMs: 100, pollMs: 100, leaderStaleMs: 300 } },
          // A route of the small "claim" group: the limiter's fallback is watched through it.
          extraRoutes: async (app) => {
            app.get("/api/test/limited", { config: { rateLimit: "claim" } }, async () => ({ ok: true }));
          },
        },
      );
      apps.push(app);
      await app.listen({ host: "127.0.0.1", port: 0 });
      app.payments.start();
    }
    [a, b] = apps as [App, App];
    ws.a = `ws://127.0.0.1:${(a.server.address() as { port: number }).port}/ws`;
    ws.b = `ws://127.0.0.1:${(b.server.address() as { port: number }).port}/ws`;
  });

  afterAll(async () => {
    await Promise.allSettled(sockets.map((s) => s.close()));
    for (const app of apps) {
      await app.close();
      await app.chain?.close();
    }
    for (const db of databases) await db.close();
    await database?.drop();
    await proxy?.close();
    await chain?.stop();
  });

  async function open(url: string, cookie: string) {
    const socket = await TestSocket.open(url, { headers: { cookie } });
    sockets.push(socket);
    return socket;
  }

  describe("revocation is immediate on every instance", () => {
    it("sign-out on B ends the session on A, whose cache had it a moment ago", async () => {
      const { cookie } = await signUp(a);
      expect(await me(a, cookie)).toBe(200);
      expect(await me(b, cookie)).toBe(200);
      expect((await api(b, cookie).post("/api/logout")).statusCode).toBe(200);
      expect(await me(a, cookie)).toBe(401);
      expect(await me(b, cookie)).toBe(401);
    });

    it("a password change on B ends the other sessions on A, and sign-out everywhere ends them all", async () => {
      const { cookie: first, username } = await signUp(a);
      const second = await login(a, username);
      expect(await me(a, first)).toBe(200);
      expect(await me(a, second)).toBe(200);
      const changed = await api(b, second).post("/api/user/password", {
        currentPassword: PASSWORD,
        newPassword: `${PASSWORD} and more`,
      });
      expect(changed.statusCode).toBe(200);
      expect(await me(a, first)).toBe(401);
      expect(await me(a, second)).toBe(200);

      const res = await b.inject({
        method: "DELETE",
        url: "/api/user/sessions",
        headers: { cookie: second },
      });
      expect(res.statusCode).toBe(200);
      expect(await me(a, second)).toBe(401);
    });

    it("a revoked session's merchant feed ends on both instances; the owner's other session keeps it", async () => {
      const merchant = await createMerchant(a);
      const user = (await api(a, merchant.cookie).get("/api/user")).json() as { username: string };
      const other = await login(a, user.username);
      const loggedOut = await login(b, user.username);
      const revokedOnA = await open(ws.a, merchant.cookie);
      const revokedOnB = await open(ws.b, merchant.cookie);
      const signedOutOnA = await open(ws.a, loggedOut);
      const keptOnA = await open(ws.a, other);
      const keptOnB = await open(ws.b, other);
      for (const socket of [revokedOnA, revokedOnB, signedOutOnA, keptOnA, keptOnB]) {
        socket.send({ type: "subscribeMerchant" });
        await socket.next((m) => m.type === "merchantSubscribed");
      }

      // DELETE /api/user/sessions/:id on B for the first session; sign-out on B for the third.
      const sessions = (await api(b, other).get("/api/user/sessions")).json() as {
        sessions: { id: string; current: boolean; lastSeenAt: string }[];
      };
      const first = (await api(a, merchant.cookie).get("/api/user/sessions")).json() as typeof sessions;
      const firstId = first.sessions.find((s) => s.current)!.id;
      expect(sessions.sessions.map((s) => s.id)).toContain(firstId);
      const revoked = await b.inject({
        method: "DELETE",
        url: `/api/user/sessions/${firstId}`,
        headers: { cookie: other },
      });
      expect(revoked.statusCode).toBe(200);
      expect((await api(b, loggedOut).post("/api/logout")).statusCode).toBe(200);

      for (const socket of [revokedOnA, revokedOnB, signedOutOnA]) {
        await socket.next((m) => m.type === "merchantError" && m.code === "UNAUTHENTICATED");
      }
      const payment = await createPayment(b, other);
      const update = (m: Record<string, unknown>) =>
        m.type === "merchantPaymentUpdate" && (m.payment as { id: string }).id === payment.id;
      await keptOnA.next(update);
      await keptOnB.next(update);
      // Both instances delivered this event to their sockets in one pass: the ended feeds got nothing.
      for (const socket of [revokedOnA, revokedOnB, signedOutOnA]) {
        expect(socket.messages.filter((m) => m.type === "merchantPaymentUpdate")).toEqual([]);
      }
    });
  });

  describe("readiness", () => {
    it("a quiet chain is healthy on the standby although the leader's last checkpoint is old", async () => {
      await expect.poll(() => apps.filter((app) => app.payments.isLeader).length).toBe(1);
      const standby = a.payments.isLeader ? b : a;
      // No block is mined here: the leader's newest checkpoint ages past leaderStaleMs (300 ms).
      await expect
        .poll(async () => {
          const body = await ready(standby);
          const at = body.indexer?.leader?.checkpointAt;
          return at ? Date.now() - Date.parse(at) > 600 : false;
        })
        .toBe(true);
      const body = await ready(standby);
      expect(body.indexer).toMatchObject({
        role: "standby",
        healthy: true,
        chain: { reachable: true },
        leader: { stalled: false },
      });
    });
  });

  describe("Redis lost at runtime", () => {
    it("keeps answering fast with per-instance limits, says so, and shares again when Redis returns", async () => {
      const { cookie, username } = await signUp(a);
      const merchant = await createMerchant(a);
      const payment = await createPayment(a, merchant.cookie);
      expect((await ready(a)).sharedState).toMatchObject({ kind: "redis", mode: "shared" });

      let timings: number[] = [];
      const timed = async (run: () => Promise<{ statusCode: number }>, status: number) => {
        const started = performance.now();
        const res = await run();
        timings.push(performance.now() - started);
        expect(res.statusCode).toBe(status);
      };
      const median = () => timings.sort((x, y) => x - y)[Math.floor(timings.length / 2)]!;
      const reads = async () => {
        for (const app of [a, b, a, b, a, b]) {
          await timed(() => api(app, cookie).get("/api/user"), 200);
          await timed(() => api(app).get(`/api/payments/public/${payment.reference}`), 200);
        }
      };
      // The same reads with Redis up: what this (possibly busy) machine takes anyway.
      await reads();
      const usual = median();
      timings = [];

      proxy.cut();
      await reads();
      for (const app of [a, b]) {
        expect((await ready(app)).sharedState).toMatchObject({ kind: "redis", mode: "local" });
      }
      // Sign-in works with the per-instance throttle; so does registration.
      const signedIn = await api(b).post("/api/login", { username, password: PASSWORD });
      expect(signedIn.statusCode).toBe(200);
      expect(await me(a, sessionCookie(signedIn)!)).toBe(200);
      await signUp(b);
      // No request waited for Redis: as fast as with Redis up (under 100 ms on an idle machine), never the
      // seconds of ioredis's retries.
      expect(median()).toBeLessThan(Math.max(100, usual * 3));
      expect(timings.at(-1)!).toBeLessThan(1000);

      // Limits fall back to each instance's own count.
      for (let i = 0; i < 3; i++) expect((await api(a).get("/api/test/limited")).statusCode).toBe(200);
      expect((await api(a).get("/api/test/limited")).statusCode).toBe(429);
      expect((await api(b).get("/api/test/limited")).statusCode).toBe(200);

      // A revocation made now still counts at once on the other instance (no cache while not shared).
      const again = await login(a, username);
      expect(await me(b, again)).toBe(200);
      expect((await api(a, again).post("/api/logout")).statusCode).toBe(200);
      expect(await me(b, again)).toBe(401);

      proxy.restore();
      for (const app of [a, b]) {
        await expect
          .poll(async () => (await ready(app)).sharedState.mode, { timeout: 15_000, interval: 100 })
          .toBe("shared");
      }
      // Shared again: hits on A count on B. (The outage's per-instance hits stayed local.)
      await a.sharedState.delete("rl:claim:ip:127.0.0.1");
      for (let i = 0; i < 3; i++) expect((await api(a).get("/api/test/limited")).statusCode).toBe(200);
      expect((await api(b).get("/api/test/limited")).statusCode).toBe(429);
      await a.sharedState.delete("rl:claim:ip:127.0.0.1");
    });
  });

  describe("SIGTERM while Redis is away", () => {
    it("the server process (main.ts) exits cleanly at once, not after the 10 s forced close", async () => {
      const target = new URL(redisUrl!);
      const own = await TcpProxy.start({ host: target.hostname, port: Number(target.port || 6379) });
      const dataDir = await mkdtemp(join(tmpdir(), "cpxtb-sigterm-"));
      // A known free port: with PORT=0 the public origin is unknown, which the configuration refuses (decision 010).
      const port = await new Promise<number>((resolve) => {
        const probe = createServer().listen(0, "127.0.0.1", () => {
          const { port } = probe.address() as { port: number };
          probe.close(() => resolve(port));
        });
      });
      const child = spawn(process.execPath, ["--import", "tsx", "server/src/main.ts"], {
        env: {
          ...process.env,
          NODE_ENV: "development",
          HOST: "127.0.0.1",
          PORT: String(port),
          DATA_DIR: dataDir,
          DATABASE_URL: database.url,
          REDIS_URL: own.url(redisUrl!),
          REDIS_KEY_PREFIX: uniquePrefix("sigterm"),
          RPC_URL: chain.url,
          CHAIN_ID: "31337",
          TOKEN_ADDRESS: chain.deployment.token,
          PRICE_SOURCE: "fixed",
          CLIENT_DIST: "/nonexistent",
          LOG_LEVEL: "silent",
        },
        stdio: ["ignore", "pipe", "inherit"],
      });
      const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
      try {
        const url = await new Promise<string>((resolve, reject) => {
          let out = "";
          // Generous: tsx compiles the server on start, slow on a busy machine.
          const timer = setTimeout(() => reject(new Error(`server did not start: ${out}`)), 200_000);
          child.stdout!.on("data", (chunk) => {
            out += chunk;
            const match = /running at (http:\/\/\S+)/.exec(out);
            if (match) {
              clearTimeout(timer);
              resolve(match[1]!.replace("localhost", "127.0.0.1"));
            }
          });
          child.on("exit", () => reject(new Error(`server exited: ${out}`)));
        });
        own.cut();
        await expect
          .poll(async () => {
            const res = await fetch(`${url}/api/ready`);
            return ((await res.json()) as { sharedState?: { mode: string } }).sharedState?.mode;
          })
          .toBe("local");
        const started = Date.now();
        child.kill("SIGTERM");
        // A clean exit (0), not the 10 s forced one (1) of a close that waits for Redis to come back (0.6-0.7 s
        // measured at load average 15 on 2 cores, of which app.close() ~230 ms; printed, with a margin asserted).
        expect(await exited).toBe(0);
        const elapsed = Date.now() - started;
        console.log(`SIGTERM during the Redis outage: exited in ${elapsed} ms`);
        expect(elapsed).toBeLessThan(8000);
      } finally {
        child.kill("SIGKILL");
        await own.close();
        await rm(dataDir, { recursive: true, force: true });
      }
    }, 240_000);
  });

  describe("the chain node stopped", () => {
    it("both instances' /api/ready report it within seconds", async () => {
      for (const app of apps) expect((await ready(app)).indexer.healthy).toBe(true);
      await chain.stop();
      const stopped = Date.now();
      await Promise.all(
        apps.map((app) =>
          expect
            .poll(async () => (await ready(app)).indexer, { timeout: 10_000, interval: 50 })
            .toMatchObject({ healthy: false, chain: { reachable: false } }),
        ),
      );
      // Under 2 s on a quiet machine (printed); the assertion leaves a busy machine's margin.
      const elapsed = Date.now() - stopped;
      console.log(`chain node stopped: both instances said so in ${elapsed} ms`);
      expect(elapsed).toBeLessThan(10_000);
    });
  });
});

describe.skipIf(!databaseUrl)("the database unavailable", () => {
  it("answers 503 SERVICE_UNAVAILABLE with Retry-After, keeps health, and recovers by itself", async () => {
    const own = await ownDatabase();
    const db = await openDatabase({ driver: "pg", url: own.url, poolSize: 3 });
    await db.migrate();
    const app = await buildApp(testConfig({ clientDist: "/nonexistent" }), { database: db });
    try {
      const { cookie, username } = await signUp(app);
      await own.refuse();
      for (const res of [
        await api(app, cookie).get("/api/user/sessions"),
        await api(app).post("/api/login", { username, password: PASSWORD }),
        await api(app, "cpxtb_session=unknown-token").get("/api/user"),
      ]) {
        expect(res.statusCode).toBe(503);
        expect(res.headers["retry-after"]).toBe("5");
        expect(res.json()).toEqual({
          error: { code: "SERVICE_UNAVAILABLE", message: expect.any(String) },
        });
      }
      expect((await api(app).get("/api/health")).statusCode).toBe(200);
      expect((await api(app).get("/api/user")).statusCode).toBe(401);
      expect((await api(app).get("/api/ready")).statusCode).toBe(503);

      await own.allow();
      await expect
        .poll(async () => (await api(app, cookie).get("/api/user/sessions")).statusCode, { timeout: 10_000 })
        .toBe(200);
      expect((await api(app).get("/api/ready")).statusCode).toBe(200);
    } finally {
      await app.close();
      await db.close();
      await own.drop();
    }
  });
});
