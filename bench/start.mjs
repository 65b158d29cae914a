// Start time and idle memory of `npm start` on an initialised data directory (embedded database and chain).
// Prints, over several starts (median, min-max): wall time from spawning `node scripts/start.mjs` to the first 200
// on /api/health, the CPU time the server used until then (less sensitive to a busy machine than wall time), and
// its RSS after idling a few seconds. Goals (DESIGN.md): start <= 1.5 s, idle RSS <= 300 MB.
//
// Usage: node bench/start.mjs [runs]   env: BENCH_PORT (default 5392), BENCH_IDLE_SECONDS (default 5)
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";

const RUNS = Number(process.argv[2] ?? 5);
const PORT = Number(process.env.BENCH_PORT ?? 5392);
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 5);
const root = join(import.meta.dirname, "..");
const dataDir = mkdtempSync(join(tmpdir(), "cpxtb-bench-start-"));

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const rssMb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))[1]) / 1024;
const cpuMs = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10; // utime + stime in 10 ms clock ticks
};

async function startOnce() {
  const started = performance.now();
  const server = spawn(process.execPath, ["scripts/start.mjs"], {
    cwd: root,
    env: { ...process.env, SKIP_BUILD: "1", PORT: String(PORT), HOST: "127.0.0.1", DATA_DIR: dataDir },
    stdio: "ignore",
  });
  try {
    for (;;) {
      if (server.exitCode !== null) throw new Error(`server exited with ${server.exitCode}`);
      const ok = await fetch(`http://127.0.0.1:${PORT}/api/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      if (performance.now() - started > 120_000) throw new Error("server did not become healthy in 120 s");
      await sleep(10);
    }
    const wallMs = performance.now() - started;
    const cpu = cpuMs(server.pid);
    await sleep(IDLE_SECONDS * 1000);
    return { wallMs, cpuMs: cpu, rssMb: rssMb(server.pid) };
  } finally {
    const exited = new Promise((r) => server.once("exit", r));
    server.kill("SIGTERM");
    await exited;
  }
}

const stats = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  return `${median.toFixed(0)} (${sorted[0].toFixed(0)}-${sorted.at(-1).toFixed(0)})`;
};

try {
  process.stdout.write("first start (initialises the data directory)... ");
  const first = await startOnce();
  console.log(`${first.wallMs.toFixed(0)} ms`);
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await startOnce());
  console.log(
    `load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}; ${RUNS} starts:`,
  );
  console.log(`  start to healthy: ${stats(runs.map((r) => r.wallMs))} ms   (goal <= 1500)`);
  console.log(`  server CPU until healthy: ${stats(runs.map((r) => r.cpuMs))} ms`);
  console.log(`  idle RSS after ${IDLE_SECONDS} s: ${stats(runs.map((r) => r.rssMb))} MB   (goal <= 300)`);
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
