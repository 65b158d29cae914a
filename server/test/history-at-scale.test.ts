// The query shapes `bench/million.ts` relies on, on PostgreSQL (its planner is what a production merchant with a
// long history meets; PGlite's statistics differ): a table seeded in SQL to a realistic size, then each repository
// function's own statement EXPLAINed, asserting it reads the index it was written for, and its answer compared
// with the same answer computed plainly.
import { type SQL, sql } from "drizzle-orm";
import { getAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, rowsOf } from "../src/db/client.ts";
import { idTimePrefix } from "../src/lib/ids.ts";
import * as repo from "../src/modules/payments/repository.ts";
import * as reports from "../src/modules/reports/repository.ts";
import { createTestDatabase } from "./helpers.ts";

const onPostgres = Boolean(process.env.DATABASE_URL);
if (!onPostgres)
  console.log("history-at-scale.test.ts: skipped: DATABASE_URL is not set (PostgreSQL's planner)");

type PlanNode = {
  "Node Type": string;
  "Index Name"?: string;
  "Relation Name"?: string;
  "Scan Direction"?: string;
  "Index Cond"?: string;
  /** With ANALYZE: the rows the node read and dropped (its own condition), and the rows it returned. */
  "Rows Removed by Filter"?: number;
  "Actual Rows"?: number;
  "Actual Total Time"?: number;
  Plans?: PlanNode[];
};
const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];
/** How a plan reads `payments`: "Seq Scan" or "<node type> <index name>", each node once. */
const readsOf = (nodes: PlanNode[]) =>
  nodes
    .filter((n) => n["Relation Name"] === "payments" || n["Index Name"]?.startsWith("payments_"))
    .map((n) => {
      const type = n["Scan Direction"] === "Backward" ? `${n["Node Type"]} Backward` : n["Node Type"];
      return n["Index Name"] ? `${type} ${n["Index Name"]}` : type;
    });

describe.skipIf(!onPostgres)("history at scale (PostgreSQL)", () => {
  let database: Database;
  /** The statements sent while `capture` runs, with their parameters. */
  let captured: { query: string; params: unknown[] }[] | null = null;
  const USER = "usr_scale_0";
  const MERCHANT = "mer_scale_big";
  const OTHERS = 20;
  const ROWS = 20_000;

  /**
   * The plan of each statement `work` sends, as EXPLAIN (FORMAT JSON) gives it (run again with `analyze`, for the
   * rows each node read); and what `work` returned.
   */
  async function explain<T>(
    work: () => Promise<T>,
    { analyze = false } = {},
  ): Promise<{ result: T; plans: PlanNode[][] }> {
    captured = [];
    let statements: { query: string; params: unknown[] }[];
    let result: T;
    try {
      result = await work();
    } finally {
      statements = captured;
      captured = null;
    }
    const plans: PlanNode[][] = [];
    for (const { query, params } of statements) {
      // The statement with its parameters as drizzle sends them ($1, $2, ... in order).
      const parts = query.split(/\$\d+/);
      const chunks: SQL[] = [sql.raw(`explain (${analyze ? "analyze, " : ""}format json) ${parts[0]}`)];
      for (const [i, part] of parts.slice(1).entries()) chunks.push(sql`${params[i]}`, sql.raw(part));
      const [row] = rowsOf<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(
        await database.db.execute(sql.join(chunks)),
      );
      plans.push(nodesOf(row!["QUERY PLAN"][0].Plan));
    }
    return { result: result!, plans };
  }

  beforeAll(async () => {
    database = await createTestDatabase({
      onStatement: (query, params) => captured?.push({ query, params }),
    });
    const { db } = database;
    // The big merchant, and OTHERS more with a smaller history each (so the big one is a part of the table, as in
    // production, not most of it); the merchants' trigger makes each owner a member.
    await db.execute(sql`insert into users (id, username)
      select 'usr_scale_' || k, 'scale_' || k from generate_series(0, ${OTHERS}) as k`);
    await db.execute(sql`insert into merchants (id, owner_id, name, business_type, contact_email, wallet_address,
        wallet_verified_at)
      select case when k = 0 then ${MERCHANT} else 'mer_scale_' || k end, 'usr_scale_' || k, 'Shop ' || k, 'food',
        'a@example.com', '0x' || lpad(to_hex(160 + k), 40, '0'), now()
      from generate_series(0, ${OTHERS}) as k`);
    // ROWS payments for the big merchant and ROWS / 20 for each other one, over a year, in whole milliseconds;
    // ids as createId makes them from created_at (its time in 10 base-32 characters, then 16 more: hex ones here).
    await db.execute(sql`
      insert into payments (id, reference, merchant_id, chain_id, token_address, token_decimals, receiving_address,
        base_amount, tag, amount_due, tolerance_bps, description, order_id, status, live, expires_at, monitor_until,
        created_at, updated_at)
      select 'pay_' || (select string_agg(substr('0123456789abcdefghjkmnpqrstvwxyz',
            (((extract(epoch from t.at) * 1000)::bigint >> (5 * (9 - i))) & 31)::int + 1, 1), '' order by i)
          from generate_series(0, 9) as i)
          || lpad(to_hex(m.k), 4, '0') || lpad(to_hex(g), 12, '0'),
        m.k || '-' || md5(g::text), m.id, 31337, '0x0000000000000000000000000000000000000001', 18, m.wallet,
        1000000000000000000, 1 + g % 999, 1000000000000000000 + (1 + g % 999) * 1000000000000, 0,
        (array['Oat latte', 'Carrot cake', 'Flat white', 'Croissant', 'Espresso', 'Café crème'])[1 + g % 6],
        case when g % 3 = 0 then 'POS-' || g else null end,
        (array['completed', 'completed', 'completed', 'completed', 'expired', 'completed', 'paid_late', 'completed',
          'expired', 'invalid'])[1 + g % 10],
        false, t.at + interval '15 minutes', t.at + interval '1 day', t.at, t.at
      from merchants m0
      cross join lateral (select m0.id, m0.wallet_address as wallet,
        case when m0.id = ${MERCHANT} then 0 else substr(m0.id, 11)::int end as k) m
      cross join lateral generate_series(1, case when m.k = 0 then ${ROWS}::int else ${ROWS / 20}::int end) as g
      cross join lateral (select date_trunc('milliseconds', now() - interval '365 days'
        + g * (interval '365 days' / case when m.k = 0 then ${ROWS}::int else ${ROWS / 20}::int end)) as at) t`);
    await db.execute(sql`analyze payments`);
  }, 120_000);

  afterAll(async () => {
    await database?.close();
  });

  /** Every row of the merchant, newest first (the order of the history): what a page must be a slice of. */
  async function allIds(where: SQL = sql`true`) {
    return rowsOf<{ id: string }>(
      await database.db.execute(
        sql`select id from payments where merchant_id = ${MERCHANT} and ${where} order by id desc`,
      ),
    ).map((r) => r.id);
  }

  it("pages the history by keyset through (merchant_id, id), in order, without sorting or a scan", async () => {
    const expected = await allIds();
    const first = await explain(() => repo.listPaymentsOfOwner(database.db, USER, { limit: 20 }));
    expect(first.result.map((p) => p.id)).toEqual(expected.slice(0, 21));
    // A page deep in the history: the cursor is the last id of the page before.
    const cursor = expected[15_000]!;
    const deep = await explain(() => repo.listPaymentsOfOwner(database.db, USER, { limit: 20, cursor }));
    expect(deep.result.map((p) => p.id)).toEqual(expected.slice(15_001, 15_022));
    for (const { plans } of [first, deep]) {
      const reads = readsOf(plans.at(-1)!);
      expect(reads).toEqual(["Index Scan Backward payments_merchant_created_idx"]);
      expect(plans.at(-1)!.map((n) => n["Node Type"])).not.toContain("Sort");
    }
  });

  it("reads a status over a past window between the id bounds of its times, with the same rows as the plain test", async () => {
    // The seeded ids carry their created_at, as the service makes them.
    const samples = rowsOf<{ id: string; ms: number }>(
      await database.db.execute(sql`select id, (extract(epoch from created_at) * 1000)::float8 as ms
        from payments where merchant_id = ${MERCHANT} order by md5(id) limit 50`),
    );
    for (const { id, ms } of samples) expect(id.startsWith(idTimePrefix("pay", ms)), id).toBe(true);

    const daysAgo = (days: number) => new Date(Date.now() - days * 864e5).toISOString();
    const limit = 100;
    // A month three months back, and half a year up to three months back.
    for (const [fromDays, toDays] of [
      [120, 90],
      [270, 90],
    ] as const) {
      const [from, to] = [daysAgo(fromDays), daysAgo(toDays)];
      const window = `${fromDays}-${toDays} days ago`;
      const expected = await allIds(
        sql`status = 'completed' and created_at >= ${from} and created_at < ${to}`,
      );
      // The rows the read may touch: the window's, of any status, and a margin either side (the bounds' 10 minutes
      // and more).
      const touchable = (cursor: string | undefined) =>
        allIds(sql`created_at >= ${from}::timestamptz - interval '1 hour'
          and created_at < ${to}::timestamptz + interval '1 hour' and ${cursor ? sql`id < ${cursor}` : sql`true`}`);
      if (fromDays === 120) {
        // What a read in id order walked before the bounds: every newer row first, every older one on the last page.
        const windowRows = (await touchable(undefined)).length;
        expect((await allIds(sql`created_at >= ${to}`)).length).toBeGreaterThan(2 * windowRows);
        expect((await allIds(sql`created_at < ${from}`)).length).toBeGreaterThan(2 * windowRows);
      }
      const seen: string[] = [];
      let cursor: string | undefined;
      for (;;) {
        const page = await explain(
          () =>
            repo.listPaymentsOfOwner(
              database.db,
              { merchantId: MERCHANT },
              {
                status: "completed",
                from: new Date(from),
                to: new Date(to),
                limit,
                ...(cursor ? { cursor } : {}),
              },
            ),
          { analyze: true },
        );
        const plan = page.plans.at(-1)!;
        const reads = readsOf(plan);
        // The first page walks (merchant_id, id) backward from the window's end. (Near the window's start, with few
        // rows left, the planner may read them through a bitmap and sort them.)
        if (!cursor) expect(reads, window).toEqual(["Index Scan Backward payments_merchant_created_idx"]);
        expect(reads, window).not.toContain("Seq Scan");
        const scans = plan.filter((n) => n["Index Name"]?.startsWith("payments_"));
        expect(
          scans.map((n) => n["Index Name"]),
          window,
        ).toEqual(["payments_merchant_created_idx"]);
        const scan = scans[0]!;
        // Both id bounds (a time prefix: 10 characters, where a cursor has 26) are in the index condition, so the
        // read starts at the window's end and stops at its start: it touches the window's rows (of other statuses
        // too), never the newer or older history.
        expect(scan["Index Cond"], window).toMatch(/\(id >= 'pay_[0-9a-z]{10}'::text\)/);
        expect(scan["Index Cond"], window).toMatch(/\(id < 'pay_[0-9a-z]{10}'::text\)/);
        const read = scan["Actual Rows"]! + (scan["Rows Removed by Filter"] ?? 0);
        expect(read, window).toBeLessThanOrEqual((await touchable(cursor)).length);
        // Walking, a page reads its own rows and the other statuses among them (4 in 10 here), not the window.
        if (reads[0] === "Index Scan Backward payments_merchant_created_idx")
          expect(read, window).toBeLessThanOrEqual(2 * (limit + 1));
        const ids = page.result.map((p) => p.id);
        seen.push(...ids.slice(0, limit));
        if (ids.length <= limit) break;
        cursor = ids[limit - 1];
      }
      expect(seen, window).toEqual(expected);
    }
  });

  it("finds a rare term through the trigram index of the search key, with the same rows as a plain scan", async () => {
    for (const q of ["POS-12345", "qx", "crème"]) {
      const found = await explain(() => repo.listPaymentsOfOwner(database.db, USER, { limit: 20, q }));
      const lower = q.toLowerCase();
      const rows = rowsOf<{ id: string; d: string | null; o: string | null; r: string }>(
        await database.db.execute(
          sql`select id, description as d, order_id as o, reference as r from payments
              where merchant_id = ${MERCHANT} order by id desc`,
        ),
      );
      const expected = rows
        .filter((r) => [r.d ?? "", r.o ?? "", r.r].join("\u0001").toLowerCase().includes(lower))
        .slice(0, 21)
        .map((r) => r.id);
      expect(
        found.result.map((p) => p.id),
        q,
      ).toEqual(expected);
      // (A 2-letter term goes through the index when the merchant's rows are many more than here: bench/million.ts;
      // a term outside ASCII is also tested exactly on the rows the key finds.)
      if (q === "POS-12345") {
        expect(readsOf(found.plans.at(-1)!).join(", "), q).toContain(
          "Bitmap Index Scan payments_merchant_search_trgm_idx",
        );
      }
    }
  });

  it("finds the addresses the indexer watches without reading every matchable payment", async () => {
    const { result, plans } = await explain(() => repo.findWatchedAddresses(database.db));
    const wallets = rowsOf<{ a: string }>(
      await database.db.execute(sql`select wallet_address as a from merchants`),
    );
    expect([...result].sort()).toEqual(wallets.map((w) => getAddress(w.a)).sort());
    expect(plans.flatMap(readsOf)).not.toContain("Seq Scan");
  });

  /** A year and a bit of the big merchant's history, in a zone with daylight saving. */
  const yearScope = () => {
    const day = (msAgo: number) => new Date(Date.now() - msAgo).toISOString().slice(0, 10);
    return { ownerId: USER, from: day(400 * 864e5), to: day(-864e5), tz: "Europe/Berlin" };
  };

  it("reads the CSV of a year a page at a time through (merchant_id, created_at, id), in order, without sorting", async () => {
    const scope = yearScope();
    const expected = rowsOf<{ id: string }>(
      await database.db.execute(
        sql`select id from payments where merchant_id = ${MERCHANT} order by created_at, id`,
      ),
    ).map((r) => r.id);
    const first = await explain(() => reports.listRowsForCsv(database.db, scope, null, 1000));
    expect(first.result.map((r) => r.id)).toEqual(expected.slice(0, 1000));
    const last = first.result.at(-1)!;
    const next = await explain(() =>
      reports.listRowsForCsv(database.db, scope, { createdKey: last.created_key, id: last.id }, 1000),
    );
    expect(next.result.map((r) => r.id)).toEqual(expected.slice(1000, 2000));
    for (const { plans } of [first, next]) {
      // The page's payments come off the index in the file's order: the limit stops the read after 1,000 rows.
      expect(readsOf(plans.at(-1)!)).toEqual([
        expect.stringMatching(/^Index (Only )?Scan payments_merchant_created_at_idx$/),
      ]);
      expect(plans.at(-1)!.map((n) => n["Node Type"])).not.toContain("Sort");
    }
  });

  it("sums a year of the reports from the kept sums by index ranges, never a scan (decision 039)", async () => {
    const { result, plans } = await explain(() =>
      reports.sumByStatusAndBucket(database.db, yearScope(), "week"),
    );
    expect(result.reduce((n, r) => n + r.count, 0)).toBe(ROWS);
    const nodes = plans.at(-1)!;
    // The payments are not read at all; their sums are, a range of the index per part of each week.
    expect(readsOf(nodes)).toEqual([]);
    const sums = nodes.filter(
      (n) => n["Relation Name"] === "payment_sums" || n["Index Name"]?.startsWith("payment_sums"),
    );
    expect(sums.length).toBeGreaterThan(0);
    expect(sums.map((n) => n["Node Type"])).not.toContain("Seq Scan");
    // (An index scan or a bitmap of the same index: either is a range read.)
    const indexes = new Set(sums.flatMap((n) => n["Index Name"] ?? []));
    expect([...indexes]).toEqual(["payment_sums_merchant_slot_idx"]);
  });
});
