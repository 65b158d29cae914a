// The reports' kept sums (decision 039): whatever statements change payments (one row, thousands at once, a link
// deleted, a payment deleted, a change the sums do not see), the summary read from `payment_sums` is exactly the
// summary added up from the payments themselves, in every kind of time zone, before and after compaction; and on
// PostgreSQL with two instances writing and compacting at once.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase, rowsOf } from "../src/db/client.ts";
import type { ReportScope, StatusBucketRow } from "../src/modules/reports/repository.ts";
import * as reports from "../src/modules/reports/repository.ts";
import { compactPaymentSums } from "../src/modules/reports/sums.ts";
import { createTestDatabase } from "./helpers.ts";

const OWNER = "usr_sums_0";
const MERCHANT = "mer_sums_0";
const OTHER = "mer_sums_1";
const LINK = "lnk_sums_0";
const STATUSES = ["pending", "partial", "completed", "paid_late", "expired", "invalid", "cancelled"] as const;
const E18 = 10n ** 18n;

/** A small deterministic generator: the same payments every run, so a failure can be replayed. */
function randomOf(seed: number) {
  let state = seed;
  return (n: number) => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state % n;
  };
}

/** What both ways of adding up answer, in one order, with only the columns the summary reads. */
function comparable(rows: StatusBucketRow[]) {
  return rows
    .map((r) => ({
      status: r.status,
      bucket: r.bucket,
      count: r.count,
      received: r.received,
      usd_cents: r.usd_cents,
      unvalued: r.unvalued,
      due: r.due,
      received_count: r.received_count,
      refunded_count: r.refunded_count,
      refunded: r.refunded,
      refunded_usd_cents: r.refunded_usd_cents,
    }))
    .sort((a, b) => `${a.bucket}${a.status}`.localeCompare(`${b.bucket}${b.status}`));
}

/** Ranges that cross daylight-saving changes, with zones on whole hours, half hours and quarter hours. */
const SCOPES: Array<Omit<ReportScope, "ownerId"> & { bucket: "day" | "week" }> = [
  { from: "2025-01-01", to: "2025-12-31", tz: "UTC", bucket: "week" },
  { from: "2025-03-01", to: "2025-04-15", tz: "Europe/Berlin", bucket: "day" },
  { from: "2025-10-01", to: "2025-11-30", tz: "America/New_York", bucket: "day" },
  { from: "2025-01-01", to: "2025-12-31", tz: "Asia/Kathmandu", bucket: "week" },
  { from: "2025-02-01", to: "2025-06-30", tz: "America/St_Johns", bucket: "day" },
  { from: "2025-03-15", to: "2025-10-20", tz: "Australia/Lord_Howe", bucket: "week" },
  { from: "2025-01-01", to: "2025-12-31", tz: "Pacific/Chatham", bucket: "week" },
  { from: "2025-01-01", to: "2025-12-31", tz: "Europe/Berlin", bucket: "week", linkId: LINK },
];

async function expectSumsAsPayments(db: Database["db"], label: string) {
  for (const { bucket, ...range } of SCOPES) {
    const scope = { ownerId: OWNER, ...range };
    const kept = comparable(await reports.sumByStatusAndBucket(db, scope, bucket));
    const plain = comparable(await reports.sumPaymentsByStatusAndBucket(db, scope, bucket));
    expect(
      kept,
      `${label}: ${range.tz} ${range.from}..${range.to} by ${bucket} ${range.linkId ?? ""}`,
    ).toEqual(plain);
    expect(plain.length, `${label}: the range has payments`).toBeGreaterThan(0);
  }
}

async function count(db: Database["db"], query: ReturnType<typeof sql>) {
  const [row] = rowsOf<{ n: number }>(await db.execute(query));
  return Number(row!.n);
}

/** `n` payments of `merchant` over 2025 (a few in the link), of every status, both token decimals, some unvalued. */
async function insertPayments(db: Database["db"], merchant: string, n: number, seed: number) {
  const random = randomOf(seed);
  const values = [];
  for (let i = 0; i < n; i++) {
    const decimals = random(4) === 0 ? 6 : 18;
    const unit = 10n ** BigInt(decimals);
    const due = (BigInt(1 + random(5000)) * unit) / 100n + BigInt(random(999));
    const status = STATUSES[random(STATUSES.length)]!;
    const received =
      status === "completed" || status === "paid_late"
        ? due + (random(5) === 0 ? BigInt(random(1000)) : 0n)
        : status === "partial" || (status === "expired" && random(3) === 0)
          ? due / BigInt(2 + random(3))
          : 0n;
    const refunded = received > 0n && random(6) === 0 ? received / BigInt(1 + random(3)) : 0n;
    const inUsd = random(4) !== 0;
    const price = 2n * 10n ** 15n + BigInt(random(1_000_000)) * 10n ** 9n;
    const completedPrice = !inUsd && received > 0n && random(3) !== 0 ? price : null;
    // Any second of 2025, on and off the quarter hours, daylight-saving nights included.
    const at = new Date(Date.UTC(2025, 0, 1) + random(365 * 86_400) * 1000 + random(1000));
    const link = merchant === MERCHANT && random(5) === 0 ? LINK : null;
    values.push(sql`(${`pay_sums_${seed}_${i}`}, ${`ref_sums_${seed}_${i}`}, ${merchant}, 31337,
      '0x0000000000000000000000000000000000000001', ${decimals}, '0x00000000000000000000000000000000000000a0',
      ${due.toString()}, 1, ${due.toString()}, 0, ${received.toString()}, ${refunded.toString()},
      ${inUsd ? price.toString() : null}, ${completedPrice?.toString() ?? null}, ${status}, false,
      ${at.toISOString()}::timestamptz + interval '15 minutes', ${at.toISOString()}::timestamptz + interval '1 day',
      ${at.toISOString()}, ${link})`);
  }
  // Several rows per statement (as the bench's COPY and a bulk insert would), in a few statements.
  for (let i = 0; i < values.length; i += 100) {
    await db.execute(sql`insert into payments (id, reference, merchant_id, chain_id, token_address, token_decimals,
        receiving_address, base_amount, tag, amount_due, tolerance_bps, amount_received, amount_refunded, price_e18,
        completed_price_e18, status, live, expires_at, monitor_until, created_at, link_id)
      values ${sql.join(values.slice(i, i + 100), sql`, `)}`);
  }
}

/** Changes as the engine, the expiry job, refunds and the dashboard make them: one row and many at once. */
async function changePayments(db: Database["db"], seed: number) {
  const random = randomOf(seed);
  const ids = rowsOf<{ id: string; amount_due: string }>(
    await db.execute(
      sql`select id, amount_due::text from payments where merchant_id = ${MERCHANT} order by id`,
    ),
  );
  for (let i = 0; i < 40; i++) {
    const { id, amount_due } = ids[random(ids.length)]!;
    const status = STATUSES[random(STATUSES.length)]!;
    const due = BigInt(amount_due);
    await db.execute(sql`update payments set status = ${status},
        amount_received = ${(status === "completed" ? due : status === "partial" ? due / 3n : 0n).toString()},
        amount_refunded = 0, completed_price_e18 = ${random(2) === 0 ? (3n * E18) / 1000n : null}
      where id = ${id}`);
  }
  // A refund recorded on paid payments (the conditional update of refunds.ts).
  await db.execute(sql`update payments set amount_refunded = amount_received / 2
    where merchant_id = ${MERCHANT} and status = 'completed' and amount_refunded = 0 and id like ${`%_${random(10)}`}`);
  // The expiry job: every open payment of a past period at once.
  await db.execute(sql`update payments set status = 'expired'
    where status in ('pending', 'partial') and created_at < '2025-07-01'`);
}

describe("report sums kept beside the payments", () => {
  let database: Database;

  beforeAll(async () => {
    database = await createTestDatabase();
    const { db } = database;
    await db.execute(
      sql`insert into users (id, username) values (${OWNER}, 'sums_0'), ('usr_sums_1', 'sums_1')`,
    );
    await db.execute(sql`insert into merchants (id, owner_id, name, business_type, contact_email, wallet_address,
        wallet_verified_at)
      values (${MERCHANT}, ${OWNER}, 'Shop 0', 'food', 'a@example.com', '0x00000000000000000000000000000000000000a0', now()),
        (${OTHER}, 'usr_sums_1', 'Shop 1', 'food', 'b@example.com', '0x00000000000000000000000000000000000000a1', now())`);
    await db.execute(sql`insert into payment_links (id, merchant_id, slug, title, pricing, currency)
      values (${LINK}, ${MERCHANT}, 'sums-link', 'Coffee', 'open', 'USD')`);
    await insertPayments(db, MERCHANT, 700, 1);
    await insertPayments(db, OTHER, 150, 2);
  }, 120_000);

  afterAll(async () => {
    await database?.close();
  });

  it("equal the payments' own sums after inserts, changes of one row and of many, before and after compaction", async () => {
    const { db } = database;
    await expectSumsAsPayments(db, "inserted");
    expect(await count(db, sql`select count(*) as n from payment_sums where not compacted`)).toBeGreaterThan(
      0,
    );

    await changePayments(db, 3);
    await expectSumsAsPayments(db, "changed");

    // Compacted: one row per key, and the same answers.
    while ((await compactPaymentSums(db, 50)) > 0) {}
    expect(await count(db, sql`select count(*) as n from payment_sums where not compacted`)).toBe(0);
    const keys = await count(
      db,
      sql`select count(*) as n from (select distinct merchant_id, link_id, status, unit, slot from payment_sums) k`,
    );
    expect(await count(db, sql`select count(*) as n from payment_sums`)).toBe(keys);
    await expectSumsAsPayments(db, "compacted");

    await changePayments(db, 4);
    await expectSumsAsPayments(db, "changed after compaction");
  });

  it("add nothing for a change the sums do not see; follow a deleted link and deleted payments", async () => {
    const { db } = database;
    const before = await count(db, sql`select count(*) as n from payment_sums`);
    // What the indexer writes on every transfer seen, and the row's time of change: not in any sum.
    await db.execute(sql`update payments set amount_seen = amount_received, updated_at = now()
      where merchant_id = ${MERCHANT}`);
    expect(await count(db, sql`select count(*) as n from payment_sums`)).toBe(before);

    const inLink = await count(db, sql`select count(*) as n from payments where link_id = ${LINK}`);
    expect(inLink).toBeGreaterThan(0);
    // The link deleted: its payments stay, in no link (the foreign key's `set null` is an update of payments).
    const linkScope = SCOPES.at(-1)!;
    await db.execute(sql`delete from payment_links where id = ${LINK}`);
    const { bucket, ...range } = linkScope;
    expect(await reports.sumByStatusAndBucket(db, { ownerId: OWNER, ...range }, bucket)).toEqual([]);
    await db.execute(sql`delete from payments where merchant_id = ${MERCHANT} and id like '%_7'`);
    // The scopes without the link still hold payments: they must add up as the payments do.
    for (const { bucket: b, ...r } of SCOPES.filter((s) => !s.linkId)) {
      const scope = { ownerId: OWNER, ...r };
      expect(comparable(await reports.sumByStatusAndBucket(db, scope, b))).toEqual(
        comparable(await reports.sumPaymentsByStatusAndBucket(db, scope, b)),
      );
    }
    while ((await compactPaymentSums(db)) > 0) {}
    expect(
      await count(db, sql`select count(*) as n from payment_sums where link_id is not null or count = 0`),
    ).toBe(0);
  });

  it("adds up a time zone whose midnights are off the quarter hours from the payments themselves", async () => {
    const { db } = database;
    // Liberia kept -0:44:30 until 1972: its midnights fall between the quarter hours.
    await db.execute(sql`insert into payments (id, reference, merchant_id, chain_id, token_address, token_decimals,
        receiving_address, base_amount, tag, amount_due, tolerance_bps, amount_received, price_e18, status, live,
        expires_at, monitor_until, created_at)
      values ('pay_sums_1971', 'ref_sums_1971', ${MERCHANT}, 31337, '0x0000000000000000000000000000000000000001', 18,
        '0x00000000000000000000000000000000000000a0', 5000000000000000000000, 1, 5000000000000000000000, 0,
        5000000000000000000000, 2000000000000000, 'completed', false, '1971-06-02T01:00:00Z', '1971-06-03T01:00:00Z',
        '1971-06-02T00:44:45Z')`);
    // 00:44:45 UTC on 2 June is 00:00:15 on 2 June in Monrovia: the second day, though its quarter hour (00:30 UTC)
    // is still on the first.
    const scope = { ownerId: OWNER, from: "1971-06-01", to: "1971-06-02", tz: "Africa/Monrovia" };
    const rows = await reports.sumByStatusAndBucket(db, scope, "day");
    expect(rows.map((r) => [r.bucket, r.status, r.count, r.usd_cents])).toEqual([
      ["1971-06-02", "completed", 1, "1000"],
    ]);
  });
});

describe.skipIf(!process.env.DATABASE_URL)("report sums with two instances (PostgreSQL)", () => {
  let first: Database;
  let second: Database;

  beforeAll(async () => {
    first = await createTestDatabase();
    const [row] = rowsOf<{ name: string }>(await first.db.execute(sql`select current_database() as name`));
    const url = new URL(process.env.DATABASE_URL!);
    url.pathname = `/${row!.name}`;
    second = await openDatabase({ driver: "pg", url: url.toString(), poolSize: 5 });
    const { db } = first;
    await db.execute(
      sql`insert into users (id, username) values (${OWNER}, 'sums_0'), ('usr_sums_1', 'sums_1')`,
    );
    await db.execute(sql`insert into merchants (id, owner_id, name, business_type, contact_email, wallet_address,
        wallet_verified_at)
      values (${MERCHANT}, ${OWNER}, 'Shop 0', 'food', 'a@example.com', '0x00000000000000000000000000000000000000a0', now()),
        (${OTHER}, 'usr_sums_1', 'Shop 1', 'food', 'b@example.com', '0x00000000000000000000000000000000000000a1', now())`);
    await db.execute(sql`insert into payment_links (id, merchant_id, slug, title, pricing, currency)
      values (${LINK}, ${MERCHANT}, 'sums-link', 'Coffee', 'open', 'USD')`);
    await insertPayments(db, MERCHANT, 700, 5);
  }, 120_000);

  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it("writers and compactions of two instances at once lose nothing and never deadlock", async () => {
    const compactions: number[] = [];
    let writing = true;
    const compactWhileWriting = async (db: Database["db"]) => {
      while (writing) {
        compactions.push(await compactPaymentSums(db, 20));
        await new Promise((resolve) => setImmediate(resolve));
      }
    };
    const writers = Promise.all([
      changePayments(first.db, 11),
      changePayments(second.db, 12),
      changePayments(first.db, 13),
      changePayments(second.db, 14),
    ]).finally(() => {
      writing = false;
    });
    await Promise.all([writers, compactWhileWriting(first.db), compactWhileWriting(second.db)]);
    expect(compactions.some((n) => n > 0)).toBe(true);
    await expectSumsAsPayments(first.db, "two instances");
    while ((await compactPaymentSums(second.db)) > 0) {}
    await expectSumsAsPayments(first.db, "two instances, compacted");
  });
});
