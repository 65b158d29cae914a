// GET /api/balance throughput with a warm cache: embedded anvil + the real app, autocannon 50 connections, 10 s.
// Run: npx tsx bench/balance.ts
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { buildApp } from "../server/src/app.ts";
import { startEmbeddedChain } from "../server/src/chain/embedded.ts";
import { testConfig } from "../server/src/config.ts";
import { openDatabase } from "../server/src/db/client.ts";

const dataDir = mkdtempSync(join(tmpdir(), "cpxtb-bench-"));
const config = testConfig({ clientDist: "/nonexistent", dataDir });
// Throughput, not the rate limiter, is measured here: lift every limit (the field exists once rate limits land).
const limits = (config as { rateLimits?: Record<string, { limit: number; windowMs: number }> }).rateLimits;
if (limits) for (const group of Object.keys(limits)) limits[group] = { limit: 1e9, windowMs: 60_000 };
const embedded = await startEmbeddedChain(config.chain, dataDir);
const database = await openDatabase({ driver: "pglite", dataDir: null });
await database.migrate();
const app = await buildApp(config, { chain: embedded.chain, database });
const address = await app.listen({ host: "127.0.0.1", port: 0 });
const holder = embedded.demoAccounts[1]!.address;
const result = await autocannon({
  url: `${address}/api/balance?address=${holder}`,
  connections: 50,
  duration: Number(process.env.DURATION ?? 10),
});
console.log(
  `GET /api/balance (warm cache): ${Math.round(result.requests.average)} req/s, p99 ${result.latency.p99} ms, ` +
    `non-2xx ${result.non2xx}, errors ${result.errors}`,
);
await app.close();
await database.close();
await embedded.chain.close();
rmSync(dataDir, { recursive: true, force: true });
