import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../src/app.ts";
import { connectChain } from "../src/chain/service.ts";
import { rowsOf } from "../src/db/client.ts";
import { evaluatePayment } from "../src/modules/payments/engine.ts";
import * as repo from "../src/modules/payments/repository.ts";
import { chainConfigFor, startTestChain, type TestChain } from "./chain-helpers.ts";
import { createTestApp } from "./helpers.ts";
import {
  api,
  beforeNextTransaction,
  chainTools,
  createClock,
  createMerchant,
  createPayment,
  getPayment,
  type PaymentJson,
  paymentTestConfig,
  signUp,
  type TestMerchant,
} from "./payment-helpers.ts";
import { startReceiver } from "./webhook-receiver.ts";

/**
 * The `cancelled` state (decision 033, issue 35): who may cancel which payment, what a transfer that comes later
 * does (the merchant's inbox, never a credit), and the race of a cancellation with a transfer being credited (the
 * payment's row lock decides; one of them wins whole).
 */
let chain: TestChain;
let app: App;
let tools: ReturnType<typeof chainTools>;
let merchant: TestMerchant;
let staff: { cookie: string; username: string };
let admin: { cookie: string; username: string };
let receiver: Awaited<ReturnType<typeof startReceiver>>;
const clock = createClock();
const CONFIRMATIONS = 2;

async function addMember(merchantId: string, role: "admin" | "staff") {
  const user = await signUp(app);
  const me = await app.inject({ method: "GET", url: "/api/user", headers: { cookie: user.cookie } });
  const userId = me.json().id as string;
  await app.database.db.execute(
    sql`insert into business_members (merchant_id, user_id, role) values (${merchantId}, ${userId}, ${role})`,
  );
  await app.database.db.execute(
    sql`update users set active_merchant_id = ${merchantId} where id = ${userId}`,
  );
  return user;
}

beforeAll(async () => {
  chain = await startTestChain();
  tools = chainTools(chain);
  receiver = await startReceiver();
  const connected = await connectChain(
    chainConfigFor(chain.url, chain.deployment, { confirmations: CONFIRMATIONS }),
  );
  app = await createTestApp(
    { ...paymentTestConfig(), webhooks: { allowPrivate: true } },
    {
      chain: connected,
      payments: { now: clock.now },
      notifications: { retryDelaysMs: [0, 150, 150, 150], pollMs: 50 },
    },
  );
  merchant = await createMerchant(app);
  staff = await addMember(merchant.id, "staff");
  admin = await addMember(merchant.id, "admin");
  await app.payments.indexer!.runOnce();
});
afterAll(async () => {
  await receiver?.close();
  await chain?.stop();
});

const sync = () => app.payments.indexer!.runOnce();
const cancel = (p: { id: string }, cookie = merchant.cookie) =>
  api(app, cookie).post(`/api/merchant/payments/${p.id}/cancel`);
const inbox = async () =>
  (await api(app, merchant.cookie).get("/api/merchant/inbox")).json().items as {
    id: string;
    txHash: string;
    valueBase: string;
  }[];
const publicView = async (p: PaymentJson) =>
  (await api(app).get(`/api/payments/public/${p.reference}`)).json() as { status: string };

describe("who may cancel which payment", () => {
  it("owner, admin and staff cancel an open payment that received nothing; again is the same answer", async () => {
    for (const cookie of [merchant.cookie, admin.cookie, staff.cookie]) {
      const payment = await createPayment(app, merchant.cookie);
      const res = await cancel(payment, cookie);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ id: payment.id, status: "cancelled" });
      expect(res.json().timeline.map((t: { to: string }) => t.to)).toEqual(["pending", "cancelled"]);
      // The timeline names who cancelled as a person reads it: the member's name, not an id.
      const member = cookie === admin.cookie ? admin : cookie === staff.cookie ? staff : null;
      if (member) expect(res.json().timeline[1].cause).toBe(`cancelled by ${member.username}`);
      expect(res.json().timeline[1].cause).not.toMatch(/usr_/);
      expect((await publicView(payment)).status).toBe("cancelled");
      // Idempotent: the same payment, no second timeline entry or event.
      const again = await cancel(payment, cookie);
      expect(again.statusCode).toBe(200);
      expect(again.json().timeline).toHaveLength(2);
      const events = await app.database.db.execute(
        sql`select type from payment_events where payment_id = ${payment.id} order by seq`,
      );
      expect(rowsOf<{ type: string }>(events).map((e) => e.type)).toEqual([
        "payment.created",
        "payment.cancelled",
      ]);
    }
  });

  it("refuses other businesses (404), the signed out (401), unknown ids (404) and malformed ids (4xx)", async () => {
    const payment = await createPayment(app, merchant.cookie);
    const other = await createMerchant(app, { name: "Other Shop" });
    const foreign = await cancel(payment, other.cookie);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error.code).toBe("NOT_FOUND");
    expect((await api(app).post(`/api/merchant/payments/${payment.id}/cancel`)).statusCode).toBe(401);
    expect(
      (await cancel({ id: `${payment.id.slice(0, -1)}${payment.id.endsWith("a") ? "b" : "a"}` })).statusCode,
    ).toBe(404);
    const bad = await cancel({ id: "%20" });
    expect(bad.statusCode).toBeGreaterThanOrEqual(400);
    expect(bad.statusCode).toBeLessThan(500);
    expect((await getPayment(app, merchant.cookie, payment.id)).status).toBe("pending");
  });

  it("refuses (409) a payment that received something or is no longer open", async () => {
    const payer = await tools.payer();
    // Processing: the whole amount seen, not yet confirmed.
    const seen = await createPayment(app, merchant.cookie);
    await tools.pay(payer, merchant.wallet.address, seen.amountDueBase);
    await sync();
    expect((await getPayment(app, merchant.cookie, seen.id)).status).toBe("processing");
    const refusedSeen = await cancel(seen);
    expect(refusedSeen.statusCode).toBe(409);
    expect(refusedSeen.json().error.message).toMatch(/already received a transfer/);
    // Completed.
    await tools.mine(CONFIRMATIONS);
    await sync();
    expect((await getPayment(app, merchant.cookie, seen.id)).status).toBe("completed");
    const refusedDone = await cancel(seen);
    expect(refusedDone.statusCode).toBe(409);
    // The status in `details`: the merchant's screen names it in its own words (issue 37).
    expect(refusedDone.json().error.details).toEqual({ reason: "not_cancellable", status: "completed" });
    // Partial: part of the amount confirmed.
    const part = await createPayment(app, merchant.cookie);
    const { hash } = await tools.pay(payer, merchant.wallet.address, BigInt(part.amountDueBase) / 2n);
    expect(
      (await api(app).post(`/api/payments/public/${part.reference}/tx`, { txHash: hash })).statusCode,
    ).toBe(200);
    await tools.mine(CONFIRMATIONS);
    await sync();
    expect((await getPayment(app, merchant.cookie, part.id)).status).toBe("partial");
    expect((await cancel(part)).statusCode).toBe(409);
    // Expired (the chain's time past its expiry, the expiry job run).
    const late = await createPayment(app, merchant.cookie, { expiresInMinutes: 1 });
    const { expiresAt } = (await getPayment(app, merchant.cookie, late.id)) as unknown as {
      expiresAt: string;
    };
    clock.advance(61_000);
    await tools.test.setNextBlockTimestamp({
      timestamp: BigInt(Math.ceil(Date.parse(expiresAt) / 1000) + 1),
    });
    await tools.mine(1);
    await sync();
    await app.payments.expireNow();
    expect((await getPayment(app, merchant.cookie, late.id)).status).toBe("expired");
    const refusedExpired = await cancel(late);
    expect(refusedExpired.statusCode).toBe(409);
    expect(refusedExpired.json().error.message).toMatch(/expired/);
    for (const p of [seen, part])
      expect((await getPayment(app, merchant.cookie, p.id)).status).not.toBe("cancelled");
  });
});

describe("a transfer for a cancelled payment", () => {
  it("found by the indexer lands in the inbox, never credits it; the amount stays reserved", async () => {
    const payment = await createPayment(app, merchant.cookie);
    expect((await cancel(payment)).statusCode).toBe(200);
    const payer = await tools.payer();
    const { hash } = await tools.pay(payer, merchant.wallet.address, payment.amountDueBase);
    await tools.mine(CONFIRMATIONS);
    await sync();
    const after = await getPayment(app, merchant.cookie, payment.id);
    expect(after).toMatchObject({ status: "cancelled", amountReceivedBase: "0" });
    expect(after.transfers).toHaveLength(0);
    expect((await inbox()).find((t) => t.txHash === hash)).toMatchObject({
      valueBase: payment.amountDueBase,
    });
    // Another payment never takes the cancelled one's amount while a late transfer may still come for it.
    const reserved = await app.database.db.execute(
      sql`select count(*)::int as n from payment_amounts where payment_id = ${payment.id}`,
    );
    expect(Number(rowsOf<{ n: number }>(reserved)[0]!.n)).toBe(1);
    // Assigning it to the cancelled payment is refused too.
    const transfer = (await inbox()).find((t) => t.txHash === hash)!;
    const assign = await api(app, merchant.cookie).post(`/api/merchant/inbox/${transfer.id}/assign`, {
      paymentId: payment.id,
    });
    expect(assign.statusCode).toBe(409);
  });

  it("posted by the pay page (fast path) is refused with 409 and lands in the inbox", async () => {
    const payment = await createPayment(app, merchant.cookie);
    expect((await cancel(payment, staff.cookie)).statusCode).toBe(200);
    const payer = await tools.payer();
    const { hash } = await tools.pay(payer, merchant.wallet.address, payment.amountDueBase);
    const res = await api(app).post(`/api/payments/public/${payment.reference}/tx`, { txHash: hash });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toMatch(/cancelled/);
    expect((await inbox()).some((t) => t.txHash === hash)).toBe(true);
    expect((await getPayment(app, merchant.cookie, payment.id)).status).toBe("cancelled");
  });

  it("claimed by a match made before the cancellation committed goes back to the inbox when evaluated", async () => {
    // The interleaving the payment lock orders: the indexer matched and claimed the transfer, the cancellation
    // locked the payment first and committed; the indexer's evaluation, which waited for the lock, hands it back.
    const payment = await createPayment(app, merchant.cookie);
    const payer = await tools.payer();
    const { hash } = await tools.pay(payer, merchant.wallet.address, payment.amountDueBase);
    expect((await cancel(payment)).statusCode).toBe(200);
    const db = app.database.db;
    await sync();
    const [stored] = rowsOf<{ id: string }>(
      await db.execute(sql`select id from chain_transfers where tx_hash = ${hash}`),
    );
    await db.transaction(async (tx) => {
      expect(await repo.claimTransfer(tx, stored!.id, payment.id, "amount", merchant.id)).toBe(true);
      const released: string[] = [];
      const status = await evaluatePayment(tx, payment.id, {
        head: 10n ** 9n,
        confirmations: CONFIRMATIONS,
        now: clock.now(),
        chainTime: null,
        cause: "test: a claim made before the cancellation",
        releasedToInbox: (ids) => released.push(...ids),
      });
      expect(status).toBe("cancelled");
      expect(released).toEqual([merchant.id]);
    });
    const after = await getPayment(app, merchant.cookie, payment.id);
    expect(after).toMatchObject({ status: "cancelled", amountReceivedBase: "0" });
    expect((await inbox()).some((t) => t.txHash === hash)).toBe(true);
  });
});

describe("the race of a cancellation and a transfer", () => {
  it("cancelled before the indexer's transaction: the transfer goes to the inbox", async () => {
    const payment = await createPayment(app, merchant.cookie);
    const payer = await tools.payer();
    const { hash } = await tools.pay(payer, merchant.wallet.address, payment.amountDueBase);
    let cancelled = 0;
    beforeNextTransaction(app, async () => {
      cancelled = (await cancel(payment)).statusCode;
    });
    await sync();
    expect(cancelled).toBe(200);
    expect((await getPayment(app, merchant.cookie, payment.id)).status).toBe("cancelled");
    expect((await inbox()).some((t) => t.txHash === hash)).toBe(true);
  });

  it("credited first: the cancellation is refused and the payment stays paid", async () => {
    const payment = await createPayment(app, merchant.cookie);
    const payer = await tools.payer();
    await tools.pay(payer, merchant.wallet.address, payment.amountDueBase);
    await sync();
    expect((await cancel(payment)).statusCode).toBe(409);
    expect((await getPayment(app, merchant.cookie, payment.id)).status).toBe("processing");
  });

  it("both at once, many times: exactly one wins, whole, and the transfer is either credited or in the inbox", async () => {
    for (let round = 0; round < 5; round++) {
      const payment = await createPayment(app, merchant.cookie);
      const payer = await tools.payer();
      const { hash } = await tools.pay(payer, merchant.wallet.address, payment.amountDueBase);
      const [, res] = await Promise.all([sync(), cancel(payment, staff.cookie)]);
      await sync();
      const after = await getPayment(app, merchant.cookie, payment.id);
      const inInbox = (await inbox()).some((t) => t.txHash === hash);
      if (res.statusCode === 200) {
        expect(after.status).toBe("cancelled");
        expect(after.amountReceivedBase).toBe("0");
        expect(after.transfers).toHaveLength(0);
        expect(inInbox).toBe(true);
      } else {
        expect(res.statusCode).toBe(409);
        expect(["processing", "completed"]).toContain(after.status);
        expect(after.transfers).toHaveLength(1);
        expect(inInbox).toBe(false);
      }
    }
  });
});

describe("events", () => {
  it("a cancellation reaches the webhook endpoints subscribed to payment.cancelled", async () => {
    // Started here only: its transactions would meet the race tests' hook on the next transaction.
    app.notifications.start();
    const res = await api(app, merchant.cookie).post("/api/merchant/webhooks", {
      url: `${receiver.url}/cancelled`,
      events: ["payment.cancelled"],
    });
    expect(res.statusCode, res.body).toBe(201);
    const payment = await createPayment(app, merchant.cookie, { orderId: "till-7" });
    expect((await cancel(payment)).statusCode).toBe(200);
    await receiver.waitFor(() => receiver.at("/cancelled").length >= 1);
    const [got] = receiver.at("/cancelled");
    expect(got!.json.type).toBe("payment.cancelled");
    expect(got!.json.data).toMatchObject({ id: payment.id, status: "cancelled", orderId: "till-7" });
  });
});

describe("the counter's settings and its sales (decision 033)", () => {
  it("tip presets: kept once each, in order; refused beyond 4, below 1%, above 100% or not whole", async () => {
    const saved = await api(app, merchant.cookie).patch("/api/merchant", { tipPresets: [20, 10, 15, 10] });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().tipPresets).toEqual([10, 15, 20]);
    expect((await api(app, staff.cookie).get("/api/merchant")).json().tipPresets).toEqual([10, 15, 20]);
    for (const tipPresets of [[1, 2, 3, 4, 5], [0], [101], [12.5]]) {
      const res = await api(app, merchant.cookie).patch("/api/merchant", { tipPresets });
      expect(res.statusCode, JSON.stringify(tipPresets)).toBe(400);
      expect(res.json().error.code).toBe("VALIDATION_ERROR");
    }
    // Staff do not change the business's settings.
    expect((await api(app, staff.cookie).patch("/api/merchant", { tipPresets: [5] })).statusCode).toBe(403);
    expect(
      (await api(app, merchant.cookie).patch("/api/merchant", { tipPresets: [] })).json().tipPresets,
    ).toEqual([]);
  });

  it("records which member created a payment", async () => {
    const payment = await createPayment(app, staff.cookie);
    const staffId = (
      await app.inject({ method: "GET", url: "/api/user", headers: { cookie: staff.cookie } })
    ).json().id as string;
    const [row] = rowsOf<{ created_by: string | null }>(
      await app.database.db.execute(sql`select created_by from payments where id = ${payment.id}`),
    );
    expect(row!.created_by).toBe(staffId);
  });
});

describe("the counter's sales today", () => {
  it("counts and sums the member's own paid payments since the given time; bad input is 400", async () => {
    const since = new Date(clock.now().getTime() - 1000).toISOString();
    const today = async (cookie: string) =>
      (await api(app, cookie).get(`/api/merchant/pos/today?since=${encodeURIComponent(since)}`)).json();
    expect(await today(admin.cookie)).toEqual({ count: 0, usd: "0.00", cpxtb: "0" });
    // The owner may have been paid earlier in this file, within the last second: count from what is there now,
    // once every earlier transfer is confirmed (a payment the race test above left processing would otherwise
    // complete below, with this test's blocks, and count twice).
    await tools.mine(CONFIRMATIONS);
    await sync();
    const ownersBefore = (await today(merchant.cookie)).count as number;
    const mine = await createPayment(app, admin.cookie, { amount: "3.50" });
    await createPayment(app, admin.cookie, { amount: "9.00" }); // not paid
    const theirs = await createPayment(app, merchant.cookie, { amount: "4.00" });
    const payer = await tools.payer();
    await tools.pay(payer, merchant.wallet.address, mine.amountDueBase);
    await tools.pay(payer, merchant.wallet.address, theirs.amountDueBase);
    await tools.mine(CONFIRMATIONS);
    await sync();
    const sales = await today(admin.cookie);
    expect(sales).toMatchObject({ count: 1, usd: "3.50" });
    expect(BigInt(sales.cpxtb.replace(".", "").replace(/^0+/, "") || "0")).toBeGreaterThan(0n);
    expect((await today(merchant.cookie)).count).toBe(ownersBefore + 1);
    const bad = await api(app, admin.cookie).get("/api/merchant/pos/today?since=yesterday");
    expect(bad.statusCode).toBe(400);
  });
});

describe("POST /api/v1/payments/{id}/cancel", () => {
  const v1 = (url: string, secret: string) =>
    app.inject({ method: "POST", url, headers: { authorization: `Bearer ${secret}` } });
  async function key(cookie: string, scopes: string[]) {
    const res = await api(app, cookie).post("/api/merchant/api-keys", { name: "Till", scopes });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: string; secret: string };
  }

  it("cancels with payments:write as the dashboard does; read keys, other merchants and unknown ids are refused", async () => {
    const write = await key(merchant.cookie, ["payments:write"]);
    const read = await key(merchant.cookie, ["payments:read"]);
    const payment = await createPayment(app, merchant.cookie);
    const refused = await v1(`/api/v1/payments/${payment.id}/cancel`, read.secret);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe("FORBIDDEN");

    const res = await v1(`/api/v1/payments/${payment.id}/cancel`, write.secret);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: payment.id, status: "cancelled" });
    expect(res.json().timeline[1]).toMatchObject({
      from: "pending",
      to: "cancelled",
      cause: `cancelled by the API (key ${write.id})`,
    });
    expect((await publicView(payment)).status).toBe("cancelled");
    // Again: the same answer, no second event (webhooks hear payment.cancelled once).
    expect((await v1(`/api/v1/payments/${payment.id}/cancel`, write.secret)).statusCode).toBe(200);
    const events = await app.database.db.execute(
      sql`select type from payment_events where payment_id = ${payment.id} order by seq`,
    );
    expect(rowsOf<{ type: string }>(events).map((e) => e.type)).toEqual([
      "payment.created",
      "payment.cancelled",
    ]);

    const other = await createMerchant(app, { name: "Key Shop" });
    const theirs = await key(other.cookie, ["payments:write"]);
    const open = await createPayment(app, merchant.cookie);
    const foreign = await v1(`/api/v1/payments/${open.id}/cancel`, theirs.secret);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error.code).toBe("NOT_FOUND");
    expect((await publicView(open)).status).toBe("pending");
    expect((await v1("/api/v1/payments/pay_nope/cancel", write.secret)).statusCode).toBe(404);
    expect((await app.inject({ method: "POST", url: `/api/v1/payments/${open.id}/cancel` })).statusCode).toBe(
      401,
    );
  });

  it("answers 409 saying why for a payment that is no longer open", async () => {
    const write = await key(merchant.cookie, ["payments:write"]);
    const payment = await createPayment(app, merchant.cookie);
    await tools.pay(await tools.payer(), merchant.wallet.address, payment.amountDueBase);
    await tools.mine(CONFIRMATIONS);
    await sync();
    expect((await getPayment(app, merchant.cookie, payment.id)).status).toBe("completed");
    const res = await v1(`/api/v1/payments/${payment.id}/cancel`, write.secret);
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatchObject({ code: "CONFLICT" });
    expect(res.json().error.message).toMatch(/completed: only an open payment/);
  });

  it("is in the OpenAPI document with the write scope", async () => {
    const doc = (await app.inject({ method: "GET", url: "/api/openapi.json" })).json();
    const op = doc.paths["/api/v1/payments/{id}/cancel"]?.post;
    expect(op?.summary).toBe("Cancel a payment");
    expect(op["x-required-scope"]).toBe("payments:write");
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(["200", "403", "404", "409"]));
  });
});
