// GET /api/user signed out and signed in: req/s and latency with autocannon (50 connections, 10 s each)
// against the real server on the embedded database. Goals: >= 20,000 req/s signed out, >= 8,000 signed in.
// autocannon runs in a process of its own so the load generator does not share the server's event loop.
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildApp } from "../server/src/app.ts";
import { loadConfig } from "../server/src/config.ts";

const duration = Number(process.env.BENCH_SECONDS ?? 10);
const config = loadConfig({
  NODE_ENV: "production",
  LOG_LEVEL: "silent",
  DATA_DIR: mkdtempSync(join(tmpdir(), "cpxtb-bench-")),
  CLIENT_DIST: "/nonexistent",
  // The bench measures the endpoint with its limiter running, not the limiter refusing one busy address.
  RATE_LIMIT_GENERAL: process.env.RATE_LIMIT_GENERAL ?? "999999/60s",
  RATE_LIMIT_ACCOUNT: process.env.RATE_LIMIT_ACCOUNT ?? "999999/60s",
});
const app = await buildApp(config);
const address = await app.listen({ host: "127.0.0.1", port: 0 });

const register = await fetch(`${address}/api/register`, {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ username: "bench_user", password: "a long bench passphrase" }),
});
const cookie = register.headers.get("set-cookie")?.split(";")[0];
if (register.status !== 201 || !cookie) throw new Error(`could not register: ${register.status}`);

type AutocannonResult = {
  requests: { average: number };
  latency: { p50: number; p99: number };
  errors: number;
  non2xx: number;
};

function autocannon(url: string, headers: Record<string, string>): Promise<AutocannonResult> {
  const args = ["autocannon", "--json", "-c", "50", "-d", String(duration), url];
  for (const [name, value] of Object.entries(headers)) args.push("-H", `${name}=${value}`);
  return new Promise((resolve, reject) => {
    const child = spawn("npx", args, { stdio: ["ignore", "pipe", "ignore"] });
    let out = "";
    child.stdout.on("data", (chunk) => {
      out += chunk;
    });
    child.on("exit", (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`autocannon exited with ${code}`)),
    );
  });
}

async function run(title: string, headers: Record<string, string>) {
  const result = await autocannon(`${address}/api/user`, headers);
  console.log(
    `${title.padEnd(12)} ${Math.round(result.requests.average).toLocaleString("en")} req/s  ` +
      `p50 ${result.latency.p50} ms  p99 ${result.latency.p99} ms  errors ${result.errors}  non-2xx ${result.non2xx}`,
  );
}

console.log(`GET /api/user, 50 connections, ${duration} s each, embedded database (PGlite)`);
if (process.env.BENCH_ONLY !== "signed in") await run("signed out", {}); // every answer: the 401 of a visitor
if (process.env.BENCH_ONLY !== "signed out") await run("signed in", { cookie });
await app.close();
process.exit(0);
