// The expiry job in batches (decision 024): due payments expired together with a number of statements that does
// not depend on how many, one event each, and a payment paid while the job runs kept paid. Timing lives in
// bench/expiry.ts, never here.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "../src/db/client.ts";
import {
  api,
  beforeNextTransaction,
  createPayment,
  getPayment,
  type PaymentJson,
  startBatchWorld,
} from "./payment-helpers.ts";

let nowMs = Date.now();
let world: Awaited<ReturnType<typeof startBatchWorld>>;
let app: typeof world.app;
let database: typeof world.database;
let tools: typeof world.tools;
let merchant: typeof world.merchant;
let counter: typeof world.counter;

beforeAll(async () => {
  world = await startBatchWorld({ confirmations: 1, now: () => new Date(nowMs) });
  ({ app, database, tools, merchant, counter } = world);
});
afterAll(() => world?.close());

const sync = () => app.payments.indexer!.runOnce();
const statusOf = async (id: string) => (await getPayment(app, merchant.cookie, id)).status;
const mineAt = async (ms: number) => {
  await tools.test.setNextBlockTimestamp({ timestamp: BigInt(ms / 1000) });
  await tools.mine(1);
};

/** `n` one-minute payments created at the chain's time (the server's clock set to it); their expiry. */
async function openPayments(n: number): Promise<{ payments: PaymentJson[]; expiresAt: number }> {
  await tools.mine(1);
  nowMs = Number((await tools.test.getBlock({ blockTag: "latest" })).timestamp) * 1000 + 1000;
  await sync();
  const payments: PaymentJson[] = [];
  for (let i = 0; i < n; i++) {
    payments.push(
      await createPayment(app, merchant.cookie, {
        currency: "CPXTB",
        amount: `${1 + i}`,
        expiresInMinutes: 1,
      }),
    );
  }
  const detail = (await getPayment(app, merchant.cookie, payments[0]!.id)) as unknown as {
    expiresAt: string;
  };
  return { payments, expiresAt: Date.parse(detail.expiresAt) };
}

/** The outbox events of these payments, by type. */
async function eventsOf(ids: string[]): Promise<Map<string, string[]>> {
  const result = await database.db.execute(
    sql`select payment_id, type from payment_events
        where payment_id in (select json_array_elements_text(${JSON.stringify(ids)}::json)) order by seq`,
  );
  const byPayment = new Map<string, string[]>(ids.map((id) => [id, []]));
  for (const row of rowsOf<{ payment_id: string; type: string }>(result)) {
    byPayment.get(row.payment_id)!.push(row.type);
  }
  return byPayment;
}

/** Statements the app sent during one run of the expiry job, and what the run returned. */
async function countedExpiry(): Promise<{ statements: number; found: number }> {
  const { result: found, statements } = await counter.count(() => app.payments.expireNow());
  return { statements, found };
}

describe("the expiry job", () => {
  /** `n` due payments expired by one run; its statement count. */
  async function expireBatchOf(n: number): Promise<number> {
    const { payments, expiresAt } = await openPayments(n);
    await mineAt(expiresAt + 1000);
    await sync();
    const run = await countedExpiry();
    expect(run.found).toBe(n);
    const events = await eventsOf(payments.map((p) => p.id));
    for (const p of payments) {
      const expired = await getPayment(app, merchant.cookie, p.id);
      expect(expired.status).toBe("expired");
      expect(expired.timeline.at(-1)!.cause).toMatch(/^expiry time reached \(chain time /);
      expect(events.get(p.id)).toEqual(["payment.created", "payment.expired"]);
    }
    // Nothing left to do: the next run finds nothing and writes nothing.
    expect(await app.payments.expireNow()).toBe(0);
    expect(await eventsOf(payments.map((p) => p.id))).toEqual(events);
    return run.statements;
  }

  it("expires a batch of due payments with the same statements for 5 and for 60, one event each", async () => {
    const few = await expireBatchOf(5);
    const many = await expireBatchOf(60);
    expect(many).toBe(few);
    // Against ~7 per payment one transaction at a time.
    expect(few).toBeLessThan(20);
  });

  it("keeps a payment paid just before its expiry paid; a late one is paid_late; the others expire", async () => {
    const { payments, expiresAt } = await openPayments(5);
    const [onTime, late, ...rest] = payments as [PaymentJson, PaymentJson, ...PaymentJson[]];
    const payer = await tools.payer();
    await tools.test.setNextBlockTimestamp({ timestamp: BigInt((expiresAt - 1000) / 1000) });
    await tools.pay(payer, merchant.wallet.address, onTime.amountDueBase);
    await tools.test.setNextBlockTimestamp({ timestamp: BigInt((expiresAt + 1000) / 1000) });
    await tools.pay(payer, merchant.wallet.address, late.amountDueBase);
    // One range carries the chain's time past the expiry and both transfers; the job runs after it.
    await sync();
    expect((await countedExpiry()).found).toBe(rest.length);
    const events = await eventsOf(payments.map((p) => p.id));
    expect(await statusOf(onTime.id)).toBe("completed");
    expect(events.get(onTime.id)).toEqual(["payment.created", "payment.completed"]);
    expect(await statusOf(late.id)).toBe("paid_late");
    expect(events.get(late.id)).toEqual(["payment.created", "payment.expired", "payment.paid_late"]);
    for (const p of rest) {
      expect(await statusOf(p.id)).toBe("expired");
      expect(events.get(p.id)).toEqual(["payment.created", "payment.expired"]);
    }
  });

  it("a payment paid between the job finding it due and expiring it stays paid (on time, or late and confirmed)", async () => {
    const { payments, expiresAt } = await openPayments(4);
    const [viaHash, lateIndexed, ...rest] = payments as [PaymentJson, PaymentJson, ...PaymentJson[]];
    const payer = await tools.payer();
    // In time, but an amount nothing asks for: the merchant's inbox, until the pay page posts its hash.
    await tools.test.setNextBlockTimestamp({ timestamp: BigInt((expiresAt - 1000) / 1000) });
    const { hash } = await tools.pay(payer, merchant.wallet.address, BigInt(viaHash.amountDueBase) + 7n);
    await mineAt(expiresAt + 1000);
    await sync();
    expect(await statusOf(viaHash.id)).toBe("pending");

    // The job has read which payments are due; before its transaction, both are paid and the indexer moves on.
    const restore = beforeNextTransaction(app, async () => {
      expect(
        (await api(app).post(`/api/payments/public/${viaHash.reference}/tx`, { txHash: hash })).statusCode,
      ).toBe(200);
      await tools.pay(payer, merchant.wallet.address, lateIndexed.amountDueBase);
      await sync();
    });
    try {
      expect((await countedExpiry()).found).toBe(payments.length);
    } finally {
      restore();
    }

    const events = await eventsOf(payments.map((p) => p.id));
    const paid = await getPayment(app, merchant.cookie, viaHash.id);
    expect(paid.status).toBe("completed");
    expect(paid.overpaid).toBe(true);
    expect(events.get(viaHash.id)).toEqual(["payment.created", "payment.completed"]);
    // Credited in a block above the head the job would have read before: still confirmed, never invalid.
    expect(await statusOf(lateIndexed.id)).toBe("paid_late");
    expect(events.get(lateIndexed.id)).toEqual(["payment.created", "payment.expired", "payment.paid_late"]);
    for (const p of rest) expect(events.get(p.id)).toEqual(["payment.created", "payment.expired"]);
  });

  it("releases the amounts of expired payments past their monitoring window, without an event", async () => {
    const { payments, expiresAt } = await openPayments(3);
    await mineAt(expiresAt + 1000);
    await sync();
    await app.payments.expireNow();
    const before = await eventsOf(payments.map((p) => p.id));
    nowMs += 25 * 60 * 60 * 1000;
    const run = await countedExpiry();
    expect(run.found).toBe(0);
    expect(run.statements).toBeLessThan(20);
    expect(await eventsOf(payments.map((p) => p.id))).toEqual(before);
    const held = await database.db.execute(
      sql`select count(*) as n from payment_amounts
          where payment_id in (select json_array_elements_text(${JSON.stringify(payments.map((p) => p.id))}::json))`,
    );
    expect(Number(rowsOf<{ n: string }>(held)[0]!.n)).toBe(0);
    for (const p of payments) expect(await statusOf(p.id)).toBe("expired");
  });
});
