// GET /api/user signed out and signed in, and the public payment read (what every pay page and payer's refresh
// asks): req/s and latency with autocannon (50 connections, 10 s each) against the server as `npm start` runs it:
// scripts/start.mjs, fully embedded (PGlite, anvil), the compiled server with its default logging ("info", one
// line per request), written to a file as a deployment's would be.
// Goals (issue 14): >= 20,000 req/s signed out, >= 10,000 signed in; the public read >= 5,000 req/s, p99 <= 50 ms
// on the embedded database and on PostgreSQL: BENCH_POSTGRES=1 runs the same server on a new database beside
// DATABASE_URL's (dropped afterwards), the chain still embedded; bench/two-instances.ts runs two instances.
// BENCH_ONLY="signed out" | "signed in" | "public" runs one.
import { spawn } from "node:child_process";
import { mkdtempSync, openSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { autocannon, createBenchDatabase, createMerchantWithPayment } from "./http-bench.ts";

const duration = Number(process.env.BENCH_SECONDS ?? 10);
const dataDir = mkdtempSync(join(tmpdir(), "cpxtb-bench-"));
const onPostgres = process.env.BENCH_POSTGRES === "1";
if (onPostgres && !process.env.DATABASE_URL) throw new Error("BENCH_POSTGRES=1 needs DATABASE_URL");
const database = onPostgres ? await createBenchDatabase(process.env.DATABASE_URL!) : null;

const port = await new Promise<number>((resolve, reject) => {
  const probe = createServer();
  probe.once("error", reject);
  probe.listen(0, "127.0.0.1", () => {
    const { port } = probe.address() as { port: number };
    probe.close(() => resolve(port));
  });
});
const address = `http://127.0.0.1:${port}`;
const log = openSync(join(dataDir, "server.log"), "w");
const server = spawn(process.execPath, ["scripts/start.mjs"], {
  env: {
    ...process.env,
    SKIP_BUILD: "1",
    HOST: "127.0.0.1",
    PORT: String(port),
    DATA_DIR: dataDir,
    DATABASE_URL: database?.url ?? "",
    // A deployment on PostgreSQL names its public origin (config.ts requires it there).
    ...(database ? { PUBLIC_URL: address } : {}),
    REDIS_URL: "",
    // The bench measures the endpoint with its limiter running, not the limiter refusing one busy address.
    RATE_LIMIT_GENERAL: process.env.RATE_LIMIT_GENERAL ?? "999999/60s",
    RATE_LIMIT_ACCOUNT: process.env.RATE_LIMIT_ACCOUNT ?? "999999/60s",
    RATE_LIMIT_PUBLIC: process.env.RATE_LIMIT_PUBLIC ?? "999999/60s",
  },
  stdio: ["ignore", log, log],
});
const stop = () =>
  new Promise<void>((resolve) => {
    if (server.exitCode !== null) return resolve();
    server.once("exit", () => resolve());
    server.kill("SIGTERM");
  });
for (let waited = 0; ; waited += 100) {
  if (server.exitCode !== null)
    throw new Error(`server exited with ${server.exitCode}: see ${dataDir}/server.log`);
  if (waited > 120_000) throw new Error("server did not start within 120 s");
  if (
    await fetch(`${address}/api/health`).then(
      (r) => r.ok,
      () => false,
    )
  )
    break;
  await new Promise((r) => setTimeout(r, 100));
}

async function run(title: string, path: string, headers: Record<string, string> = {}) {
  const result = await autocannon(`${address}${path}`, { connections: 50, seconds: duration, headers });
  console.log(
    `${title.padEnd(20)} ${Math.round(result.requests.average).toLocaleString("en")} req/s  ` +
      `p50 ${result.latency.p50} ms  p99 ${result.latency.p99} ms  errors ${result.errors}  non-2xx ${result.non2xx}`,
  );
}

console.log(
  `GET /api/user and the public payment read, 50 connections, ${duration} s each, npm start ` +
    `${database ? "on PostgreSQL (embedded chain)" : "fully embedded (PGlite)"}, default logging to a file; ` +
    `load average ${loadavg()[0]!.toFixed(1)}`,
);
try {
  const { cookie, reference } = await createMerchantWithPayment(address, "bench_user");
  const only = process.env.BENCH_ONLY;
  if (!only || only === "signed out") await run("signed out", "/api/user"); // every answer: a visitor's 401
  if (!only || only === "signed in") await run("signed in", "/api/user", { cookie });
  if (!only || only === "public") await run("public payment read", `/api/payments/public/${reference}`);
} finally {
  await stop();
  await database?.drop();
  rmSync(dataDir, { recursive: true, force: true });
}
