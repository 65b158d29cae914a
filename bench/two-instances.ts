// Two server instances (each its own process, started as `npm start` starts it, default logging) on one
// PostgreSQL, one Redis and one anvil chain; autocannon with 50 connections split between them (25 each, two autocannon processes at once), 10 s:
// `GET /api/user` signed out and the public payment read. Prints the total and each instance's share.
// Needs DATABASE_URL (a database is created beside it and dropped) and REDIS_URL (keys under a bench prefix).
//   DATABASE_URL=postgres://… REDIS_URL=redis://127.0.0.1:6379/0 npx tsx bench/two-instances.ts
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, openSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestChain } from "../server/test/chain-helpers.ts";
import { autocannon, createBenchDatabase, createMerchantWithPayment } from "./http-bench.ts";

const duration = Number(process.env.BENCH_SECONDS ?? 10);
const databaseUrl = process.env.DATABASE_URL;
const redisUrl = process.env.REDIS_URL;
if (!databaseUrl || !redisUrl) throw new Error("set DATABASE_URL and REDIS_URL");

const database = await createBenchDatabase(databaseUrl);
const chain = await startTestChain();
const dataDir = mkdtempSync(join(tmpdir(), "cpxtb-bench2-"));
const prefix = `bench:${randomBytes(4).toString("hex")}:`;

/** A free TCP port on 127.0.0.1 (the instance needs a known port: its public origin is configured up front). */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/**
 * One instance as `npm start` runs it (scripts/start.mjs: the compiled server, default logging at "info"), its
 * log written to a file as a deployment's would be; ready once /api/health answers.
 */
async function startInstance(): Promise<{ child: ChildProcess; address: string }> {
  const port = await freePort();
  const address = `http://127.0.0.1:${port}`;
  const log = openSync(join(dataDir, `instance-${port}.log`), "w");
  const child = spawn(process.execPath, ["scripts/start.mjs"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      PUBLIC_URL: address,
      DATA_DIR: dataDir,
      DATABASE_URL: database.url,
      REDIS_URL: redisUrl,
      REDIS_KEY_PREFIX: prefix,
      CHALLENGE_SECRET: "bench-secret-bench-secret-bench-secret-0001",
      WALLET_MASTER_SEED: `0x${randomBytes(32).toString("hex")}`,
      RPC_URL: chain.url,
      CHAIN_ID: "31337",
      TOKEN_ADDRESS: chain.deployment.token,
      PRICE_SOURCE: "fixed",
      CONFIRMATIONS: "1",
      // The bench measures the endpoints with their limiter running, not the limiter refusing one address.
      RATE_LIMIT_GENERAL: "999999/60s",
      RATE_LIMIT_PUBLIC: "999999/60s",
      RATE_LIMIT_AUTH: "1000/60s",
    },
    stdio: ["ignore", log, log],
  });
  const exited = new Promise<never>((_, reject) =>
    child.on("exit", (code) => reject(new Error(`instance exited with ${code}: see ${dataDir}`))),
  );
  const healthy = (async () => {
    for (;;) {
      const ok = await fetch(`${address}/api/health`).then(
        (res) => res.ok,
        () => false,
      );
      if (ok) return { child, address };
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  return Promise.race([healthy, exited]);
}

const first = await startInstance();
const second = await startInstance();
const instances = [first, second];

// A merchant with one payment: its reference is what the public read asks for.
const payment = await createMerchantWithPayment(first.address, "bench_two");

async function run(title: string, path: string, expected2xx: boolean) {
  const results = await Promise.all(
    instances.map((i) => autocannon(`${i.address}${path}`, { connections: 25, seconds: duration })),
  );
  const total = results.reduce((sum, r) => sum + r.requests.average, 0);
  const shares = results
    .map(
      (r, i) =>
        `instance ${i + 1}: ${Math.round(r.requests.average).toLocaleString("en")} (${Math.round((100 * r.requests.average) / total)} %, p99 ${r.latency.p99} ms)`,
    )
    .join("; ");
  const errors = results.reduce((sum, r) => sum + r.errors + (expected2xx ? r.non2xx : 0), 0);
  console.log(
    `${title.padEnd(22)} ${Math.round(total).toLocaleString("en")} req/s  ${shares}  errors ${errors}`,
  );
}

console.log(`two instances, 50 connections (25 each), ${duration} s, PostgreSQL + Redis`);
await run("GET /api/user (401)", "/api/user", false);
await run("public payment read", `/api/payments/public/${payment.reference}`, true);

for (const { child } of instances) child.kill("SIGTERM");
await new Promise((r) => setTimeout(r, 2000));
await chain.stop();
await database.drop();
rmSync(dataDir, { recursive: true, force: true });
process.exit(0);
