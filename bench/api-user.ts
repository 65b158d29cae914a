// GET /api/user signed out and signed in: req/s and latency with autocannon (50 connections, 10 s each)
// against the server as `npm start` runs it: scripts/start.mjs, fully embedded (PGlite, anvil), the compiled
// server with its default logging ("info", one line per request), written to a file as a deployment's would be.
// Goals (issue 14): >= 20,000 req/s signed out, >= 10,000 signed in.
// autocannon runs in a process of its own so the load generator does not share the server's event loop.
import { spawn } from "node:child_process";
import { mkdtempSync, openSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";

const duration = Number(process.env.BENCH_SECONDS ?? 10);
const dataDir = mkdtempSync(join(tmpdir(), "cpxtb-bench-"));

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
    DATABASE_URL: "",
    REDIS_URL: "",
    // The bench measures the endpoint with its limiter running, not the limiter refusing one busy address.
    RATE_LIMIT_GENERAL: process.env.RATE_LIMIT_GENERAL ?? "999999/60s",
    RATE_LIMIT_ACCOUNT: process.env.RATE_LIMIT_ACCOUNT ?? "999999/60s",
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

const register = await fetch(`${address}/api/register`, {
  method: "POST",
  headers: { "content-type": "application/json", origin: address },
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

console.log(
  `GET /api/user, 50 connections, ${duration} s each, npm start fully embedded (PGlite), default logging to a file; ` +
    `load average ${loadavg()[0]!.toFixed(1)}`,
);
try {
  if (process.env.BENCH_ONLY !== "signed in") await run("signed out", {}); // every answer: the 401 of a visitor
  if (process.env.BENCH_ONLY !== "signed out") await run("signed in", { cookie });
} finally {
  await stop();
  rmSync(dataDir, { recursive: true, force: true });
}
