// `npm run bench`: builds the client, then runs every benchmark in turn; each prints its own numbers.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const benches = [
  ["bundle size", ["node", "bench/bundle.mjs"]],
  ["start time and idle memory", ["node", "bench/start.mjs"]],
  ["GET /api/user and public payment read throughput", ["node", "--import", "tsx", "bench/api-user.ts"]],
  ["GET /api/balance throughput", ["node", "--import", "tsx", "bench/balance.ts"]],
  ["WebSocket clients", ["node", "bench/ws-clients.mjs"]],
  ["payments", ["node", "--import", "tsx", "bench/payments.ts"]],
  ["payment detection latency", ["node", "--import", "tsx", "bench/detection.ts"]],
  ["indexer throughput", ["node", "--import", "tsx", "bench/indexer.ts"]],
  ["expiry job", ["node", "--import", "tsx", "bench/expiry.ts"]],
  ["webhook deliveries", ["node", "--import", "tsx", "bench/webhooks.ts"]],
  ["reports and history at scale", ["node", "--import", "tsx", "bench/reports.ts"]],
  // Needs PostgreSQL and Redis (DATABASE_URL, REDIS_URL): skipped without them.
  ...(process.env.DATABASE_URL && process.env.REDIS_URL
    ? [["two instances", ["node", "--import", "tsx", "bench/two-instances.ts"]]]
    : []),
  // Needs PostgreSQL (DATABASE_URL; it prints "skipped" without it): seeds a database of its own for minutes.
  ["a million payments", ["node", "--import", "tsx", "bench/million.ts"]],
  ["Lighthouse", ["node", "bench/lighthouse.mjs"]],
];

const only = process.argv.slice(2);
const build = spawnSync("npx", ["vite", "build", "--logLevel", "warn"], { stdio: "inherit" });
if (build.status !== 0) process.exit(build.status ?? 1);
let failed = 0;
for (const [name, [command, ...args]] of benches) {
  if (only.length > 0 && !only.some((o) => name.includes(o))) continue;
  const script = args.find((a) => a.startsWith("bench/"));
  if (script && !existsSync(script)) continue;
  console.log(`\n=== ${name} ===`);
  const result = spawnSync(command, args, { stdio: "inherit" });
  if (result.status !== 0) failed++;
}
process.exit(failed > 0 ? 1 : 0);
