import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../src/db/client.ts";
import { rowsOf } from "../src/db/client.ts";
import { merchants, users } from "../src/db/schema.ts";
import { createId, createToken } from "../src/lib/ids.ts";
import {
  insertPayments,
  type NewPayment,
  type PaymentInsert,
  PaymentInsertQueue,
} from "../src/modules/payments/payment-inserts.ts";
import { createTestDatabase } from "./helpers.ts";

const TAGS = { maxTag: 999, tagUnit: 10n ** 12n };
const ADDRESS = "0x000000000000000000000000000000000000dEaD";
let database: Database;

beforeAll(async () => {
  database = await createTestDatabase();
  await database.db.insert(users).values({ id: "usr_batch", username: "batch" });
  await database.db.insert(merchants).values({
    id: "mer_batch",
    ownerId: "usr_batch",
    name: "Batch Shop",
    businessType: "retail",
    contactEmail: "batch@example.com",
    walletAddress: ADDRESS,
    walletVerifiedAt: new Date(),
    toleranceBps: 25,
  });
});
afterAll(async () => {
  await database?.close();
});

function newPayment(baseAmount: bigint): NewPayment {
  const now = new Date();
  return {
    id: createId("pay"),
    reference: createToken(16),
    chainId: 31337,
    tokenAddress: "0x0000000000000000000000000000000000000001",
    tokenDecimals: 18,
    amountUsdCents: null,
    priceE18: null,
    priceSource: null,
    priceAt: null,
    baseAmount,
    description: null,
    orderId: null,
    successUrl: null,
    payerEmail: null,
    payerLocale: null,
    expiresAt: new Date(now.getTime() + 15 * 60_000),
    monitorUntil: new Date(now.getTime() + 24 * 3_600_000),
    regeneratedFromId: null,
    linkId: null,
    createdAt: now,
    cause: "created",
  };
}

const byOwner = (baseAmount: bigint): PaymentInsert => ({
  merchant: { ownerId: "usr_batch" },
  values: newPayment(baseAmount),
});

describe("grouped payment inserts", () => {
  it("gives each row its own outcome; the unique index keeps every live amount distinct", async () => {
    const base = 7n * 10n ** 18n;
    const rows = [
      ...Array.from({ length: 120 }, () => byOwner(base)),
      { merchant: { ownerId: "usr_nobody" }, values: newPayment(base) },
      { merchant: { id: "mer_batch" }, values: newPayment(base + 10n ** 18n) },
    ];
    const outcomes = await insertPayments(database.db, rows, TAGS);
    expect(outcomes[120]).toEqual({ kind: "no-merchant" });
    expect(outcomes[121]!.kind).toBe("inserted");
    const inserted = outcomes.filter((o) => o.kind === "inserted");
    // Rows of one statement may pick the same tag: the later one is skipped, never stored twice.
    expect(outcomes.filter((o) => o.kind !== "inserted" && o.kind !== "tag-taken")).toHaveLength(1);
    for (const o of inserted) {
      expect(o.payment.receivingAddress).toBe(ADDRESS);
      expect(o.payment.toleranceBps).toBe(25);
      expect(o.payment.amountDue).toBe(o.payment.baseAmount + BigInt(o.payment.tag) * TAGS.tagUnit);
    }
    const stored = rowsOf<{ n: number; amounts: number; timeline: number; events: number }>(
      await database.db.execute(sql`
        select count(*)::int as n, count(distinct amount_due)::int as amounts,
          (select count(*) from payment_timeline)::int as timeline,
          (select count(*) from payment_events where type = 'payment.created')::int as events
        from payments`),
    )[0]!;
    expect(stored).toEqual({
      n: inserted.length,
      amounts: inserted.length,
      timeline: inserted.length,
      events: inserted.length,
    });
  });

  it("the queue retries skipped rows until all are in, and refuses when all 999 tags are live", async () => {
    const queue = new PaymentInsertQueue(database.db, { maxTag: 20, tagUnit: TAGS.tagUnit });
    const base = 9n * 10n ** 18n;
    const settle = async (row: PaymentInsert) => {
      for (;;) {
        const outcome = await queue.insert(row);
        if (outcome.kind !== "tag-taken") return outcome;
      }
    };
    const outcomes = await Promise.all(Array.from({ length: 21 }, () => settle(byOwner(base))));
    const tags = outcomes.flatMap((o) => (o.kind === "inserted" ? [o.payment.tag] : []));
    expect(tags.sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(outcomes.filter((o) => o.kind === "no-free-tag")).toHaveLength(1);
  });
});
