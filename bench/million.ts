// A million payments (issue 39): seeds BENCH_PAYMENTS payments (default 1,000,000) over BENCH_BUSINESSES businesses
// (default 1,000; the first has BENCH_BIG = 100,000) on PostgreSQL with COPY, then measures for the big business,
// through the server as `npm start` runs it (scripts/start.mjs, compiled server, default "info" logging to a file,
// embedded chain) with 10 concurrent users: the history's first page, 2-letter searches, a status and date filter,
// the reports summary of a year and the CSV of a year (first byte, and the server's RSS before and after). Then,
// with the server stopped, the indexer's per-block matching (the watched addresses, matching a block's transfers by
// amount, the payments awaiting confirmations: the statements `applyRange` runs for every block) with 1,000 open
// payments and again with 100,000, and the query plans (EXPLAIN ANALYZE) of the three slowest requests.
//
//   DATABASE_URL=postgres://root@127.0.0.1:5432/postgres node --import tsx bench/million.ts
// Needs PostgreSQL (DATABASE_URL; skipped without it): the database cpxtb_bench_million is created beside it and
// dropped afterwards (BENCH_KEEP_DATABASE=1 keeps it to study plans with psql). BENCH_REQUESTS: requests per user
// per measurement (default 20). The client must be built (`npm run bench` does it).
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { getAddress } from "viem";
import type { Db } from "../server/src/db/client.ts";
import { openDatabase, rowsOf } from "../server/src/db/client.ts";
import * as schema from "../server/src/db/schema.ts";
import { createId } from "../server/src/lib/ids.ts";
import { findPaymentsAwaitingConfirmations } from "../server/src/modules/payments/engine.ts";
import * as repo from "../server/src/modules/payments/repository.ts";
import { listRowsForCsv, sumByStatusAndBucket } from "../server/src/modules/reports/repository.ts";
import { compactPaymentSums } from "../server/src/modules/reports/sums.ts";
import { createMerchantWithPayment } from "./http-bench.ts";

const TOTAL = Number(process.env.BENCH_PAYMENTS ?? 1_000_000);
const BUSINESSES = Number(process.env.BENCH_BUSINESSES ?? 1000);
const BIG = Number(process.env.BENCH_BIG ?? 100_000);
const OPEN = 1000; // open payments (created in the last minutes) among them
const MORE_OPEN = 99_000; // added for the indexer's second measurement
const USERS = 10;
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 20);
const SPAN_DAYS = 730; // two years of history, more of it recent (a business that grows)
const CHAIN_ID = 31337;
const TOKEN = "0x5FbDB2315678afecb367f036d33c7A5f8Fd4A3cB"; // where the embedded chain deploys its token
const DB_NAME = process.env.BENCH_DATABASE ?? "cpxtb_bench_million";

if (!process.env.DATABASE_URL) {
  console.log("skipped: needs PostgreSQL (DATABASE_URL)");
  process.exit(0);
}
const load = () =>
  `load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}`;
const adminUrl = process.env.DATABASE_URL;
const dbUrl = (() => {
  const u = new URL(adminUrl);
  u.pathname = `/${DB_NAME}`;
  return u.toString();
})();
async function admin(statement: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

// ---- Data -------------------------------------------------------------------------------------------------------

function reference(): string {
  const r = randomBytes(16).toString("base64url");
  return /^[-_]/.test(r) ? `a${r.slice(1)}` : r;
}
const pick = <T>(list: readonly T[]) => list[Math.floor(Math.random() * list.length)]!;
/** A standard normal sample (Box-Muller). */
const normal = () => Math.sqrt(-2 * Math.log(1 - Math.random())) * Math.cos(2 * Math.PI * Math.random());

const KINDS = [
  {
    type: "food",
    names: ["Kaffeehaus", "Bean There", "Café Lumière", "Corner Bakery", "Oat & Co"],
    items: [
      "Flat white",
      "Oat latte",
      "Cappuccino",
      "Croissant",
      "Carrot cake",
      "Espresso",
      "Café crème",
      "Chai latte",
      "Bagel and coffee",
      "Crème brûlée",
      "Matcha latte",
      "Banana bread",
    ],
    // Orders from the shop's online pre-ordering; the counter's payments have none.
    order: (n: number) => (n % 3 === 0 ? `POS-${100000 + n}` : null),
    cents: () => Math.round(Math.exp(Math.log(650) + 0.5 * normal())),
  },
  {
    type: "retail",
    names: ["Trail Shop", "Nordlicht Store", "Pixel Gadgets", "Atelier Größe"],
    items: [
      "Running shoes",
      "T-shirt, size M",
      "Gift card",
      "Headphones",
      "Phone case",
      "Backpack",
      "Wool scarf",
      "Sneakers Größe 42",
      "Water bottle",
      "Sunglasses",
    ],
    order: (n: number) => `ORD-${String(100000 + n)}`,
    cents: () => Math.round(Math.exp(Math.log(4500) + 0.9 * normal())),
  },
  {
    type: "services",
    names: ["Studio North", "Bright Consulting", "Lex & Partners", "Webcraft"],
    items: [
      "Consulting, 2 hours",
      "Website maintenance (monthly)",
      "Logo design",
      "Hosting renewal",
      "Workshop ticket",
      "Retainer",
      "Design review",
      "Support plan",
    ],
    order: (n: number) => `INV-${2025 + Math.floor(n / 50000)}-${String(n % 50000).padStart(5, "0")}`,
    cents: () => Math.round(Math.exp(Math.log(35000) + 1.0 * normal())),
  },
  {
    type: "online",
    names: ["Shop42", "Merch Hub", "Vinyl Corner", "Bookish"],
    items: ["Vinyl LP", "Poster A2", "E-book bundle", "Hoodie", "Sticker pack", "Mug", "Concert ticket"],
    order: (n: number) => (Math.random() < 0.5 ? `#${10000 + n}` : null),
    cents: () => Math.round(Math.exp(Math.log(2500) + 0.8 * normal())),
  },
] as const;

type Business = { id: string; ownerId: string; wallet: string; kind: (typeof KINDS)[number]; count: number };

function businesses(): Business[] {
  // The big one, then the others in a long tail (a few large, many small): weights 1/(i + 20).
  const weights = Array.from({ length: BUSINESSES - 1 }, (_, i) => 1 / (i + 20));
  const sum = weights.reduce((a, b) => a + b, 0);
  const rest = TOTAL - BIG;
  const counts = weights.map((w) => Math.max(1, Math.floor((w / sum) * rest)));
  let left = rest - counts.reduce((a, b) => a + b, 0);
  for (let i = 0; left > 0; i = (i + 1) % counts.length, left--) counts[i]!++;
  return [BIG, ...counts].map((count, i) => ({
    id: `mer_bench${String(i).padStart(21, "0")}`,
    ownerId: `usr_bench${String(i).padStart(21, "0")}`,
    wallet: getAddress(`0x${randomBytes(20).toString("hex")}`),
    kind: i === 0 ? KINDS[0] : KINDS[i % KINDS.length]!,
    count,
  }));
}

const E18 = 10n ** 18n;
const E15 = 10n ** 15n;
const TAG_UNIT = 10n ** 12n; // 10^(18 - 6): a tag is in micro-tokens
const text = (v: string | null) => (v === null ? "\\N" : v.replace(/[\\\t\n\r]/g, (c) => `\\${c}`));
const iso = (ms: number | null) => (ms === null ? "\\N" : new Date(ms).toISOString());

const PAYMENT_COLUMNS = [
  "id",
  "reference",
  "merchant_id",
  "chain_id",
  "token_address",
  "token_decimals",
  "receiving_address",
  "amount_usd_cents",
  "price_e18",
  "price_source",
  "price_at",
  "base_amount",
  "tag",
  "amount_due",
  "tolerance_bps",
  "amount_received",
  "amount_seen",
  "amount_requested",
  "overpaid",
  "amount_refunded",
  "description",
  "order_id",
  "status",
  "live",
  "expires_at",
  "monitor_until",
  "completed_at",
  "completed_price_e18",
  "completed_price_at",
  "created_at",
  "updated_at",
];

/**
 * One payment as the engine leaves it. `open`: created in the last minutes and not paid yet (pending, or partial
 * with part received). Otherwise its status follows its age: completed (most), expired (some after a partial
 * payment), paid late, a few invalid; expired ones stay live (their amount reserved) for a day.
 */
function paymentLine(b: Business, n: number, now: number, open: boolean, liveTag: () => number): string {
  const created = open
    ? now - Math.floor(Math.random() * 10 * 60_000)
    : (() => {
        // Density growing linearly towards now; business hours weighted.
        const age = (1 - Math.sqrt(Math.random())) * SPAN_DAYS;
        const day = Math.floor(age);
        const hour = Math.min(23.99, Math.max(0, 13 + 3.5 * normal()));
        // Whole milliseconds, as a clock gives them (the id holds the time to the millisecond).
        const ms = now - day * 86_400_000 - (now % 86_400_000) + Math.floor(hour * 3_600_000);
        return Math.min(ms, now - 20 * 60_000);
      })();
  const inUsd = Math.random() < 0.75;
  const cents = BigInt(Math.min(5_000_000, Math.max(100, b.kind.cents())));
  // CPXTB's price drifts between $0.0020 and $0.0031 over the two years.
  const price =
    2_000_000_000_000_000n + BigInt(Math.floor((1 - (now - created) / (SPAN_DAYS * 864e5)) * 1.1e15));
  const tokens = inUsd
    ? ((cents * 10n ** 34n) / price / E15 + 1n) * E15
    : BigInt(Math.floor(Math.exp(Math.log(3000) + normal()))) * E18;
  const r = Math.random();
  let status: string;
  if (open) status = r < 0.85 ? "pending" : "partial";
  else if (r < 0.8) status = "completed";
  else if (r < 0.955) status = "expired";
  else if (r < 0.985) status = "paid_late";
  else status = "invalid";
  const expires = created + 15 * 60_000;
  const monitorUntil = expires + 24 * 3_600_000;
  const live = open || (status === "expired" && monitorUntil > now);
  const tag = live ? liveTag() : 1 + Math.floor(Math.random() * 999);
  const due = tokens + BigInt(tag) * TAG_UNIT;
  let received = 0n;
  if (status === "completed" || status === "paid_late") received = Math.random() < 0.01 ? due * 2n : due;
  else if (status === "partial" || (status === "expired" && Math.random() < 0.15)) received = due / 2n;
  else if (status === "invalid") received = due / 3n;
  const paidAt =
    status === "completed"
      ? created + Math.floor(30_000 + Math.random() * 600_000)
      : status === "paid_late"
        ? expires + Math.floor(Math.random() * 3 * 3_600_000)
        : null;
  const completedPrice = !inUsd && paidAt !== null && Math.random() < 0.95 ? price : null;
  const refunded = status === "completed" && Math.random() < 0.005 ? received : 0n;
  const item = pick(b.kind.items);
  const description = Math.random() < 0.15 ? null : Math.random() < 0.3 ? `2x ${item}` : item;
  const fields = [
    createId("pay", created),
    reference(),
    b.id,
    String(CHAIN_ID),
    TOKEN,
    "18",
    b.wallet,
    inUsd ? String(cents) : "\\N",
    inUsd ? String(price) : "\\N",
    inUsd ? "pool" : "\\N",
    iso(inUsd ? created : null),
    String(tokens),
    String(tag),
    String(due),
    "0",
    String(received),
    String(received),
    open ? String(due - received) : "0",
    received > due ? "t" : "f",
    String(refunded),
    text(description),
    text(b.kind.order(n)),
    status,
    live ? "t" : "f",
    iso(expires),
    iso(monitorUntil),
    iso(paidAt),
    completedPrice === null ? "\\N" : String(completedPrice),
    iso(completedPrice === null ? null : paidAt),
    iso(created),
    iso(paidAt ?? created),
  ];
  return `${fields.join("\t")}\n`;
}

async function copyInto(
  client: pg.PoolClient | pg.Client,
  table: string,
  columns: string[],
  lines: Iterable<string>,
) {
  function* chunks() {
    let chunk = "";
    for (const line of lines) {
      chunk += line;
      if (chunk.length > 1 << 16) {
        yield chunk;
        chunk = "";
      }
    }
    if (chunk) yield chunk;
  }
  await pipeline(
    Readable.from(chunks()),
    client.query(copyFrom(`copy ${table} (${columns.join(", ")}) from stdin`)),
  );
}

/** Payments `open` or not, `perBusiness(b)` of each business, with a tag per live one unique in its business. */
function* paymentLines(
  list: Business[],
  perBusiness: (b: Business) => number,
  now: number,
  open: boolean,
  tags: Map<string, number>,
) {
  for (const b of list) {
    const count = perBusiness(b);
    const liveTag = () => {
      const t = (tags.get(b.id) ?? 0) + 1;
      tags.set(b.id, t);
      return t;
    };
    for (let n = 0; n < count; n++) yield paymentLine(b, n, now, open, liveTag);
  }
}

/**
 * Drops the table's indexes that back no constraint, runs `load`, and builds them again (a bulk load is many times
 * faster into a table without them); the schema ends as the migrations left it.
 */
async function withoutIndexes(client: pg.Client, table: string, load: () => Promise<void>) {
  const { rows } = await client.query<{ name: string; def: string }>(
    `select i.indexname as name, i.indexdef as def from pg_indexes i
     where i.tablename = $1 and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`,
    [table],
  );
  for (const r of rows) await client.query(`drop index "${r.name}"`);
  await load();
  for (const r of rows) await client.query(r.def);
}

async function seed(list: Business[], bigOwner: string) {
  const client = new pg.Client({ connectionString: dbUrl });
  await client.connect();
  await client.query("set maintenance_work_mem = '512MB'");
  const now = Date.now();
  const tags = new Map<string, number>();
  const started = performance.now();
  try {
    await copyInto(
      client,
      "users",
      ["id", "username"],
      list.slice(1).map((b) => `${b.ownerId}\t${b.ownerId.replace("usr_", "owner_")}\n`),
    );
    await copyInto(
      client,
      "merchants",
      ["id", "owner_id", "name", "business_type", "contact_email", "wallet_address", "wallet_verified_at"],
      list.map(
        (b, i) =>
          `${b.id}\t${i === 0 ? bigOwner : b.ownerId}\t${text(`${pick(b.kind.names)} ${i}`)}\t${b.kind.type}\towner${i}@example.com\t${b.wallet}\t${new Date(now - SPAN_DAYS * 864e5).toISOString()}\n`,
      ),
    );
    // (Each owner's membership is written by the merchants table's trigger, migration 0016.)
    const openOf = (b: Business) =>
      b === list[0] ? OPEN / 10 : Math.ceil(((OPEN * 9) / 10) * (b.count / (TOTAL - BIG)));
    const openCount = list.reduce((s, b) => s + Math.min(b.count, openOf(b)), 0);
    await withoutIndexes(client, "payments", async () => {
      await copyInto(
        client,
        "payments",
        PAYMENT_COLUMNS,
        paymentLines(list, (b) => b.count - Math.min(b.count, openOf(b)), now, false, tags),
      );
      await copyInto(
        client,
        "payments",
        PAYMENT_COLUMNS,
        paymentLines(list, (b) => Math.min(b.count, openOf(b)), now, true, tags),
      );
    });
    const seeded = (performance.now() - started) / 1000;
    // What the engine keeps beside them: reserved amounts of live payments, a transfer per payment that received
    // something (what the CSV lists as payers and transactions).
    await client.query(`insert into payment_amounts (chain_id, token_address, receiving_address, amount, payment_id, kind, created_at)
      select chain_id, token_address, receiving_address, amount_due, id, 'due', created_at from payments where live
      on conflict do nothing`);
    await withoutIndexes(client, "chain_transfers", () =>
      client
        .query(`insert into chain_transfers (id, chain_id, token_address, tx_hash, log_index, block_number, block_hash,
        block_time, from_address, to_address, value, merchant_id, payment_id, credited_by)
      select 'trf_' || substr(p.id, 5), p.chain_id, p.token_address, '0x' || md5(p.id) || md5(p.reference), 0,
        1 + (extract(epoch from p.created_at) / 2)::bigint, '0x' || md5(p.reference) || md5(p.id), p.updated_at,
        '0x' || substr(md5(p.merchant_id || (hashtext(p.id) % 5000)::text), 1, 40), p.receiving_address,
        p.amount_received, p.merchant_id, p.id, 'amount'
      from payments p where p.amount_received > 0`)
        .then(() => {}),
    );
    await client.query("vacuum analyze");
    const { rows } = await client.query<{ n: string; t: string }>(
      "select (select count(*) from payments) as n, (select count(*) from chain_transfers) as t",
    );
    console.log(
      `seeded ${Number(rows[0]!.n).toLocaleString("en")} payments (${openCount} open) over ${list.length} businesses ` +
        `(the big one ${list[0]!.count.toLocaleString("en")}) with COPY in ${seeded.toFixed(1)} s; with ` +
        `${Number(rows[0]!.t).toLocaleString("en")} transfers, reserved amounts, vacuum and analyze ` +
        `${((performance.now() - started) / 1000).toFixed(1)} s (${load()})`,
    );
  } finally {
    await client.end();
  }
  return { now, tags };
}

// ---- Measuring --------------------------------------------------------------------------------------------------

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
type Row = { what: string; p50: number; p95: number; max: number; plan?: () => Promise<string[]> };
const results: Row[] = [];

/** USERS users at once, each sending REQUESTS requests one after another (after one warm-up each). */
async function measure(
  what: string,
  url: () => string,
  headers: Record<string, string>,
  plan?: () => Promise<string[]>,
  /** firstByte: time to the first byte, then the download is dropped (`requests` per user). */
  options: { firstByte?: boolean; requests?: number } = {},
) {
  const times: number[] = [];
  const one = async (record: boolean) => {
    const started = performance.now();
    const res = await fetch(url(), { headers });
    if (res.status !== 200) throw new Error(`${what}: ${res.status} ${await res.text()}`);
    const reader = res.body!.getReader();
    let first = 0;
    for (;;) {
      const { done } = await reader.read();
      if (!first) first = performance.now() - started;
      if (done) break;
      if (options.firstByte) {
        await reader.cancel();
        break;
      }
    }
    if (record) times.push(options.firstByte ? first : performance.now() - started);
  };
  await Promise.all(Array.from({ length: USERS }, () => one(false)));
  await Promise.all(
    Array.from({ length: USERS }, async () => {
      for (let i = 0; i < (options.requests ?? REQUESTS); i++) await one(true);
    }),
  );
  times.sort((a, b) => a - b);
  const row = { what, p50: percentile(times, 50), p95: percentile(times, 95), max: times.at(-1)!, plan };
  results.push(row);
  console.log(
    `${what.padEnd(48)} p50 ${row.p50.toFixed(0).padStart(5)} ms  p95 ${row.p95.toFixed(0).padStart(5)} ms  ` +
      `max ${row.max.toFixed(0).padStart(5)} ms  ${row.p95 <= 300 ? "ok" : "OVER 300"}  (${load()})`,
  );
}

/** The statements `work` sends, as EXPLAIN (ANALYZE, BUFFERS) prints their plans. */
async function plansOf(pool: pg.Pool, work: (db: Db) => Promise<unknown>): Promise<string[]> {
  const statements: { query: string; params: unknown[] }[] = [];
  const db = drizzle(pool, {
    schema,
    logger: { logQuery: (query, params) => statements.push({ query, params }) },
  }) as unknown as Db;
  await work(db);
  const out: string[] = [];
  for (const s of statements) {
    const { rows } = await pool.query(`explain (analyze, buffers) ${s.query}`, s.params);
    out.push(...rows.map((r) => String(Object.values(r)[0])));
  }
  return out;
}

const rssMb = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;

async function freePort() {
  return new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

async function main() {
  console.log(`a million payments on PostgreSQL (${DB_NAME}); ${load()}`);
  await admin(`drop database if exists "${DB_NAME}" with (force)`);
  await admin(`create database "${DB_NAME}"`);
  const dataDir = mkdtempSync(join(tmpdir(), "cpxtb-bench-million-"));
  // Without JIT, as the server's own connections (db/client.ts): the plans printed are the ones it runs.
  const pool = new pg.Pool({ connectionString: dbUrl, max: 4, options: "-c jit=off" });
  try {
    const database = await openDatabase({ driver: "pg", url: dbUrl, poolSize: 2 });
    await database.migrate();
    await database.db.execute(
      sql`insert into users (id, username) values ('usr_bench_placeholder', 'bench_placeholder')`,
    );
    await database.close();
    const list = businesses();
    const big = list[0]!;
    const { now } = await seed(list, "usr_bench_placeholder");
    // The reports' sums (decision 039): the COPYs' triggers wrote them as deltas; the server's job would add them
    // up within minutes, done here before anything is timed.
    {
      const started = performance.now();
      const sums = await openDatabase({ driver: "pg", url: dbUrl, poolSize: 1 });
      let deltas = 0;
      for (let n = await compactPaymentSums(sums.db); n > 0; n = await compactPaymentSums(sums.db))
        deltas += n;
      await sums.db.execute(sql`analyze payment_sums`);
      const [row] = rowsOf<{ n: number }>(
        await sums.db.execute(sql`select count(*)::int as n from payment_sums`),
      );
      await sums.close();
      console.log(
        `report sums: ${deltas.toLocaleString("en")} deltas compacted into ${row!.n.toLocaleString("en")} rows in ` +
          `${((performance.now() - started) / 1000).toFixed(1)} s (${load()})`,
      );
    }

    // The server as `npm start` runs it, on this database.
    const port = await freePort();
    const address = `http://127.0.0.1:${port}`;
    const log = openSync(join(dataDir, "server.log"), "w");
    const server = spawn(process.execPath, ["scripts/start.mjs"], {
      env: {
        ...process.env,
        SKIP_BUILD: "1",
        HOST: "127.0.0.1",
        PORT: String(port),
        DATA_DIR: dataDir,
        DATABASE_URL: dbUrl,
        PUBLIC_URL: address,
        REDIS_URL: "",
        RATE_LIMIT_GENERAL: "999999/60s",
        RATE_LIMIT_ACCOUNT: "999999/60s",
        RATE_LIMIT_API: "999999/60s",
        RATE_LIMIT_AUTH: "999999/60s",
        RATE_LIMIT_VERIFY: "999999/60s",
      },
      stdio: ["ignore", log, log],
    });
    const stop = () =>
      new Promise<void>((resolve) => {
        if (server.exitCode !== null) return resolve();
        server.once("exit", () => resolve());
        server.kill("SIGTERM");
      });
    try {
      for (let waited = 0; ; waited += 100) {
        if (server.exitCode !== null) throw new Error(`server exited: see ${dataDir}/server.log`);
        if (waited > 180_000) throw new Error("server did not start within 180 s");
        if (
          await fetch(`${address}/api/health`).then(
            (r) => r.ok,
            () => false,
          )
        )
          break;
        await new Promise((r) => setTimeout(r, 100));
      }
      // A real sign-up and business (wallet proved by signature); then that account is made the big business's
      // owner (its own business, with its one payment, stays beside it).
      const { cookie } = await createMerchantWithPayment(address, `million_${Date.now()}`);
      const me = (await (await fetch(`${address}/api/user`, { headers: { cookie } })).json()) as {
        id: string;
      };
      await pool.query("insert into business_members (merchant_id, user_id, role) values ($1, $2, 'admin')", [
        big.id,
        me.id,
      ]);
      await pool.query("update users set active_merchant_id = $1 where id = $2", [big.id, me.id]);
      const session = { cookie, origin: address };
      const created = await fetch(`${address}/api/merchant/api-keys`, {
        method: "POST",
        headers: { ...session, "content-type": "application/json" },
        body: JSON.stringify({ name: "bench", scopes: ["payments:read"] }),
      });
      if (!created.ok) throw new Error(`api key: ${created.status} ${await created.text()}`);
      const { secret } = (await created.json()) as { secret: string };
      const bearer = { authorization: `Bearer ${secret}` };

      const tz = "Europe/Berlin";
      const day = (msAgo: number) => new Date(now - msAgo).toISOString().slice(0, 10);
      const yearFrom = day(364 * 864e5);
      const yearTo = day(0);
      const monthFrom = new Date(now - 120 * 864e5).toISOString();
      const monthTo = new Date(now - 90 * 864e5).toISOString();
      const historyUrl = (q: Record<string, string>) =>
        `${address}/api/merchant/payments?${new URLSearchParams({ limit: "20", ...q })}`;
      const history = (filter: Parameters<typeof repo.listPaymentsOfOwner>[2]) => () =>
        plansOf(pool, (db) => repo.listPaymentsOfOwner(db, me.id, filter));

      console.log(
        `\n${USERS} users at once, ${REQUESTS} requests each (${USERS * REQUESTS} timed), the big business:`,
      );
      await measure("history, first page", () => historyUrl({}), session, history({ limit: 20 }));
      await measure(
        "search, 2 letters, common ('la')",
        () => historyUrl({ q: "la" }),
        session,
        history({ limit: 20, q: "la" }),
      );
      await measure(
        "search, 2 letters, no match ('qx')",
        () => historyUrl({ q: "qx" }),
        session,
        history({ limit: 20, q: "qx" }),
      );
      const orderId = () => `POS-${100000 + 3 * Math.floor((Math.random() * big.count) / 3)}`;
      await measure(
        "search, an order id (one payment)",
        () => historyUrl({ q: orderId() }),
        session,
        history({ limit: 20, q: "POS-133332" }),
      );
      await measure(
        "history, status=partial",
        () => historyUrl({ status: "partial" }),
        session,
        history({ limit: 20, status: "partial" }),
      );
      await measure(
        "API v1, status=completed, a month 3 months ago",
        () =>
          `${address}/api/v1/payments?${new URLSearchParams({ status: "completed", from: monthFrom, to: monthTo, limit: "20" })}`,
        bearer,
        () =>
          plansOf(pool, (db) =>
            repo.listPaymentsOfOwner(
              db,
              { merchantId: big.id },
              { status: "completed", from: new Date(monthFrom), to: new Date(monthTo), limit: 20 },
            ),
          ),
      );
      await measure(
        "API v1, status=expired, a month 3 months ago",
        () =>
          `${address}/api/v1/payments?${new URLSearchParams({ status: "expired", from: monthFrom, to: monthTo, limit: "20" })}`,
        bearer,
        () =>
          plansOf(pool, (db) =>
            repo.listPaymentsOfOwner(
              db,
              { merchantId: big.id },
              { status: "expired", from: new Date(monthFrom), to: new Date(monthTo), limit: 20 },
            ),
          ),
      );
      const reportScope = { ownerId: me.id, from: yearFrom, to: yearTo, tz };
      await measure(
        "reports summary, one year (weekly)",
        () =>
          `${address}/api/merchant/reports/summary?${new URLSearchParams({ from: yearFrom, to: yearTo, tz })}`,
        session,
        () => plansOf(pool, (db) => sumByStatusAndBucket(db, reportScope, "week")),
      );
      await measure(
        "CSV of a year, first byte",
        () =>
          `${address}/api/merchant/reports/payments.csv?${new URLSearchParams({ from: yearFrom, to: yearTo, tz })}`,
        session,
        () => plansOf(pool, (db) => listRowsForCsv(db, reportScope, null, 1000)),
        { firstByte: true, requests: 3 },
      );

      // One CSV of a year alone: its time, and the server's memory before, at its peak and after.
      const before = rssMb(server.pid!);
      let peak = before;
      const sampler = setInterval(() => {
        peak = Math.max(peak, rssMb(server.pid!));
      }, 20);
      const started = performance.now();
      const res = await fetch(
        `${address}/api/merchant/reports/payments.csv?${new URLSearchParams({ from: yearFrom, to: yearTo, tz })}`,
        { headers: session },
      );
      let firstByte = 0;
      let bytes = 0;
      let lines = 0;
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        if (!firstByte) firstByte = performance.now() - started;
        bytes += chunk.byteLength;
        for (const b of chunk) if (b === 10) lines++;
      }
      clearInterval(sampler);
      console.log(
        `CSV of a year alone: ${(lines - 1).toLocaleString("en")} rows, ${(bytes / 1048576).toFixed(1)} MB, first byte ` +
          `${firstByte.toFixed(0)} ms ${firstByte <= 500 ? "ok" : "OVER 500"}, all in ${((performance.now() - started) / 1000).toFixed(1)} s; ` +
          `server RSS ${before.toFixed(0)} MB before, ${peak.toFixed(0)} MB at most, ${rssMb(server.pid!).toFixed(0)} MB after (${load()})`,
      );
    } finally {
      await stop();
    }

    await indexerPerBlock(list);

    const slowest = [...results]
      .filter((r) => r.plan)
      .sort((a, b) => b.p95 - a.p95)
      .slice(0, 3);
    for (const r of slowest) {
      console.log(`\nplan of "${r.what}" (p95 ${r.p95.toFixed(0)} ms):`);
      for (const line of await r.plan!()) console.log(`  ${line}`);
    }
  } finally {
    await pool.end();
    rmSync(dataDir, { recursive: true, force: true });
    if (process.env.BENCH_KEEP_DATABASE) console.log(`kept the database ${DB_NAME} (BENCH_KEEP_DATABASE)`);
    else await admin(`drop database if exists "${DB_NAME}" with (force)`);
  }
}

/**
 * What the indexer asks the database for every block (payments/service.ts `watchedAddresses` and `applyRange`):
 * the watched addresses, a block's transfers matched by amount (half pay an open payment, half are amounts nothing
 * asks for), and the payments awaiting confirmations. Timed with 1,000 open payments, then with 100,000.
 */
async function indexerPerBlock(list: Business[]) {
  const database = await openDatabase({ driver: "pg", url: dbUrl, poolSize: 2 });
  const key = { chainId: CHAIN_ID, tokenAddress: TOKEN };
  const client = new pg.Client({ connectionString: dbUrl });
  await client.connect();
  try {
    const { rows: tip } = await client.query<{ b: string }>(
      "select max(block_number)::text as b from chain_transfers",
    );
    const head = BigInt(tip[0]!.b);
    const round = async (label: string) => {
      const { rows: open } = await client.query<{ receiving_address: string; amount_due: string; n: string }>(
        `select receiving_address, amount_due::text, (select count(*) from payments where status in ('pending', 'processing', 'partial'))::text as n
         from payments where status = 'pending' and token_address = $1 order by random() limit 50`,
        [TOKEN],
      );
      const transfers = [
        ...open.map((p) => ({ to: p.receiving_address, value: BigInt(p.amount_due), blockTime: new Date() })),
        ...Array.from({ length: 50 }, () => ({
          to: pick(list).wallet,
          value: 123_456_789n + BigInt(Math.floor(Math.random() * 1e9)),
          blockTime: new Date(),
        })),
      ];
      const times: number[] = [];
      const parts = { watched: [] as number[], match: [] as number[], confirmations: [] as number[] };
      for (let i = 0; i < 30; i++) {
        const t0 = performance.now();
        await repo.findWatchedAddresses(database.db);
        const t1 = performance.now();
        const matched = await repo.findPaymentsByAmount(database.db, key, transfers);
        const t2 = performance.now();
        await findPaymentsAwaitingConfirmations(database.db, key, head - 2n);
        const t3 = performance.now();
        if (matched.filter(Boolean).length < open.length)
          throw new Error("a transfer paying an open payment matched nothing");
        times.push(t3 - t0);
        parts.watched.push(t1 - t0);
        parts.match.push(t2 - t1);
        parts.confirmations.push(t3 - t2);
      }
      const med = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!.toFixed(1);
      console.log(
        `indexer per block, ${label} (${Number(open[0]?.n ?? 0).toLocaleString("en")} open): median ${med(times)} ms ` +
          `(watched addresses ${med(parts.watched)}, matching 100 transfers ${med(parts.match)}, confirmations ` +
          `${med(parts.confirmations)}) (${load()})`,
      );
      return Number(med(times));
    };
    // The seeded open payments passed their expiry while the server ran (its expiry job expired them): open again,
    // as if created now.
    await client.query(
      `update payments set status = case when amount_received > 0 then 'partial' else 'pending' end,
         expires_at = now() + interval '15 minutes', monitor_until = now() + interval '24 hours 15 minutes'
       where live and token_address = $1 and status = 'expired'
         and created_at > (select max(created_at) from payments where token_address = $1) - interval '11 minutes'`,
      [TOKEN],
    );
    await client.query("analyze payments");
    console.log("");
    const few = await round("1k open payments");
    const tags = new Map<string, number>();
    // Tags of the live payments already there stay theirs: start above them.
    const { rows } = await client.query<{ merchant_id: string; t: number }>(
      "select merchant_id, max(tag)::int as t from payments where live group by 1",
    );
    for (const r of rows) tags.set(r.merchant_id, r.t);
    const started = performance.now();
    const share = (b: Business) => Math.max(1, Math.round((MORE_OPEN * b.count) / TOTAL));
    await copyInto(client, "payments", PAYMENT_COLUMNS, paymentLines(list, share, Date.now(), true, tags));
    await client.query(`insert into payment_amounts (chain_id, token_address, receiving_address, amount, payment_id, kind, created_at)
      select chain_id, token_address, receiving_address, amount_due, id, 'due', created_at from payments
      where live and created_at > now() - interval '1 hour' on conflict do nothing`);
    await client.query("analyze payments");
    await client.query("analyze payment_amounts");
    console.log(
      `  (+${MORE_OPEN.toLocaleString("en")} open payments with COPY in ${((performance.now() - started) / 1000).toFixed(1)} s)`,
    );
    const many = await round("100k open payments");
    console.log(`indexer per block: ${(many / few).toFixed(2)}x the time with 100x the open payments`);
  } finally {
    await client.end();
    await database.close();
  }
}

if (process.env.BENCH_INDEXER_ONLY) {
  // Only the indexer's measurement, on a database this bench seeded and kept (BENCH_KEEP_DATABASE).
  const client = new pg.Client({ connectionString: dbUrl });
  await client.connect();
  const { rows } = await client.query<{ id: string; wallet: string; count: string }>(
    "select m.id, m.wallet_address as wallet, count(p.*)::text as count from merchants m join payments p on p.merchant_id = m.id group by 1, 2 order by 3 desc",
  );
  await client.end();
  await indexerPerBlock(
    rows.map((r) => ({ id: r.id, ownerId: "", wallet: r.wallet, kind: KINDS[0], count: Number(r.count) })),
  );
} else await main();
