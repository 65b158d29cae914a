// WebSocket capacity of one instance: opens N concurrent /ws clients (default 10,000) against a real server
// (`node scripts/start.mjs`, built client not needed) and prints
//   - server memory (RSS) before and with all clients connected,
//   - fan-out: time from one more client connecting until every client has received the new count
//     (includes the server's 100 ms coalescing delay), over several rounds,
//   - server CPU while idle with all clients connected (includes its ping/pong rounds).
// Goal (DESIGN.md): memory <= 500 MB, fan-out <= 1 s.
//
// Usage: node bench/ws-clients.mjs [clients]   env: BENCH_IDLE_SECONDS (default 35), BENCH_PORT, REDIS_URL.
// Each side needs one file descriptor per connection: the script re-runs itself under `ulimit -n` raised to the
// hard limit when the soft limit is too low (the server process inherits it). If the hard limit itself is below
// clients + 500, raise it first (e.g. `ulimit -Hn 65536` as root, or LimitNOFILE in systemd).
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import WebSocket from "ws";

const CLIENTS = Number(process.argv[2] ?? 10_000);
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 35);
const PORT = Number(process.env.BENCH_PORT ?? 5391);
const ROUNDS = 5;
const root = join(import.meta.dirname, "..");

const softLimit = Number(spawnSync("sh", ["-c", "ulimit -n"], { encoding: "utf8" }).stdout.trim());
if (softLimit < CLIENTS + 500 && !process.env.BENCH_RAISED) {
  const hard = spawnSync("sh", ["-c", "ulimit -Hn"], { encoding: "utf8" }).stdout.trim();
  if (hard !== "unlimited" && Number(hard) < CLIENTS + 500) {
    console.error(
      `ulimit -n hard limit is ${hard}; ${CLIENTS + 500} file descriptors are needed. Raise it first.`,
    );
    process.exit(1);
  }
  const args = process.argv
    .slice(1)
    .map((a) => `'${a}'`)
    .join(" ");
  const child = spawnSync("sh", ["-c", `ulimit -n ${hard} && exec "${process.execPath}" ${args}`], {
    stdio: "inherit",
    env: { ...process.env, BENCH_RAISED: "1" },
  });
  process.exit(child.status ?? 1);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const rssMb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))[1]) / 1024;
const cpuTicks = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return Number(fields[11]) + Number(fields[12]); // utime + stime, in clock ticks
};
const TICKS_PER_SECOND = Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout.trim()) || 100;

const dataDir = mkdtempSync(join(tmpdir(), "cpxtb-bench-ws-"));
const server = spawn(process.execPath, ["scripts/start.mjs"], {
  cwd: root,
  env: {
    ...process.env,
    SKIP_BUILD: "1",
    PORT: String(PORT),
    HOST: "127.0.0.1",
    PUBLIC_URL: `http://127.0.0.1:${PORT}`,
    // 10,000 clients from one address: the per-address cap would refuse all but the first few.
    WS_MAX_CONNECTIONS_PER_ADDRESS: "100000",
    DATA_DIR: dataDir,
    LOG_LEVEL: "warn",
    NODE_ENV: "production",
  },
  stdio: ["ignore", "pipe", "inherit"],
});
process.on("exit", () => server.kill("SIGKILL"));

await new Promise((resolve, reject) => {
  let out = "";
  server.stdout.on("data", (c) => {
    out += c;
    if (out.includes("is running at")) resolve();
  });
  server.once("exit", (code) => reject(new Error(`server exited with ${code}\n${out}`)));
  setTimeout(() => reject(new Error(`server did not start in 180 s\n${out}`)), 180_000);
});
const url = `ws://127.0.0.1:${PORT}/ws`;
await sleep(1000);
const rssBefore = rssMb(server.pid);

/** Each client remembers the latest count it was told and when. */
function connect() {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { perMessageDeflate: false });
    const client = { ws, count: -1, at: 0 };
    ws.on("message", (data) => {
      const m = JSON.parse(data);
      client.count = m.type === "connected" ? m.userCount : m.count;
      client.at = performance.now();
    });
    ws.once("open", () => resolve(client));
    ws.once("error", reject);
  });
}

async function until(predicate, timeoutMs, what) {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

console.log(`opening ${CLIENTS} clients to ${url} ...`);
const clients = [];
const openedAt = performance.now();
for (let i = 0; i < CLIENTS; i += 250) {
  clients.push(...(await Promise.all(Array.from({ length: Math.min(250, CLIENTS - i) }, connect))));
}
const openSeconds = (performance.now() - openedAt) / 1000;
await until(() => clients.every((c) => c.count === CLIENTS), 30_000, "every client to see the full count");
await sleep(1000);
global.gc?.();
const rssConnected = rssMb(server.pid);

// Fan-out: one client more (or less), measured until the last of the others has the new count.
const fanOut = [];
const firstToLast = [];
let extra = null;
for (let round = 0; round < ROUNDS; round++) {
  const target = extra ? CLIENTS : CLIENTS + 1;
  const start = performance.now();
  if (extra) {
    extra.ws.close();
    extra = null;
  } else {
    extra = await connect();
  }
  await until(() => clients.every((c) => c.count === target), 10_000, `count ${target} everywhere`);
  fanOut.push(Math.max(...clients.map((c) => c.at)) - start);
  firstToLast.push(Math.max(...clients.map((c) => c.at)) - Math.min(...clients.map((c) => c.at)));
  await sleep(500);
}
if (extra) extra.ws.close();
await sleep(500);

// Idle CPU with everyone connected (long enough to include a 30 s ping round).
const ticksBefore = cpuTicks(server.pid);
await sleep(IDLE_SECONDS * 1000);
const idleCpuPercent = ((cpuTicks(server.pid) - ticksBefore) / TICKS_PER_SECOND / IDLE_SECONDS) * 100;
const stillOpen = clients.filter((c) => c.ws.readyState === WebSocket.OPEN).length;

const sorted = [...fanOut].sort((a, b) => a - b);
const result = {
  clients: CLIENTS,
  sharedState: process.env.REDIS_URL ? "redis" : "memory",
  openSeconds: Number(openSeconds.toFixed(1)),
  serverRssMb: { idleNoClients: Math.round(rssBefore), withClients: Math.round(rssConnected) },
  perConnectionKb: Number((((rssConnected - rssBefore) * 1024) / CLIENTS).toFixed(1)),
  fanOutMs: {
    median: Math.round(sorted[Math.floor(sorted.length / 2)]),
    max: Math.round(sorted.at(-1)),
    rounds: fanOut.map(Math.round),
  },
  // Time from the first client receiving the new count to the last (the broadcast itself, without the
  // connection of the extra client and the 100 ms coalescing delay).
  firstToLastMs: { max: Math.round(Math.max(...firstToLast)) },
  loadAverage: readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" "),
  idleCpuPercentOfOneCore: Number(idleCpuPercent.toFixed(1)),
  idleSeconds: IDLE_SECONDS,
  stillOpenAfterIdle: stillOpen,
};
console.log(JSON.stringify(result, null, 2));
console.log(
  `memory ${result.serverRssMb.withClients} MB (goal <= 500): ${result.serverRssMb.withClients <= 500 ? "ok" : "OVER"}; ` +
    `fan-out max ${result.fanOutMs.max} ms (goal <= 1000): ${result.fanOutMs.max <= 1000 ? "ok" : "OVER"}`,
);
mkdirSync(join(root, "bench/results"), { recursive: true });
writeFileSync(
  join(root, "bench/results/ws-clients.json"),
  `${JSON.stringify({ at: new Date().toISOString(), ...result }, null, 2)}\n`,
);
for (const c of clients) c.ws.terminate();
server.kill("SIGTERM");
await new Promise((resolve) => server.once("exit", resolve));
rmSync(dataDir, { recursive: true, force: true, maxRetries: 3 });
process.exit(0);
