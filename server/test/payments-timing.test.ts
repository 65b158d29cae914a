import { inArray } from "drizzle-orm";
import { parseUnits } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../src/app.ts";
import { connectChain } from "../src/chain/service.ts";
import { paymentAmounts } from "../src/db/schema.ts";
import { insertPayments } from "../src/modules/payments/payment-inserts.ts";
import { chainConfigFor, startTestChain, type TestChain } from "./chain-helpers.ts";
import { createTestApp } from "./helpers.ts";
import {
  api,
  chainTools,
  createMerchant,
  createPayment,
  getPayment,
  paymentTestConfig,
  type TestMerchant,
} from "./payment-helpers.ts";

/**
 * Money correctness driven by the chain's clock (PAYMENTS.md, States and Matching 2): block timestamps are set with
 * anvil's evm_setNextBlockTimestamp / evm_mine, never by sleeping. The server's clock is set to the chain's time
 * at the start of each test, so payments are created "now" as the chain sees it.
 */
let chain: TestChain;
let tools: ReturnType<typeof chainTools>;

beforeAll(async () => {
  chain = await startTestChain();
  tools = chainTools(chain);
});
afterAll(async () => {
  await chain?.stop();
});

const tokens = (n: string) => parseUnits(n, 18);

describe.each([1, 3])("with CONFIRMATIONS=%i", (CONFIRMATIONS) => {
  let app: App;
  let merchant: TestMerchant;
  let nowMs = Date.now();
  const clock = { now: () => new Date(nowMs) };

  beforeAll(async () => {
    const connected = await connectChain(
      chainConfigFor(chain.url, chain.deployment, { confirmations: CONFIRMATIONS }),
    );
    app = await createTestApp(paymentTestConfig(), { chain: connected, payments: { now: clock.now } });
    merchant = await createMerchant(app);
    await sync();
  });

  const sync = () => app.payments.indexer!.runOnce();
  const status = async (id: string) => (await getPayment(app, merchant.cookie, id)).status;
  const publicView = async (reference: string) =>
    (await api(app).get(`/api/payments/public/${reference}`)).json() as {
      status: string;
      amountToPayBase: string;
      amountReceivedBase: string;
      paymentUri: string;
    };
  /** The chain's time now: a block mined now (anvil stamps it with its clock), in ms. */
  const chainNow = async () => {
    await tools.mine(1);
    return Number((await tools.test.getBlock({ blockTag: "latest" })).timestamp) * 1000;
  };
  /** The server's clock at the chain's time; a 1-minute payment created then (expiresAt on a whole second). */
  async function paymentAtChainTime(body: Record<string, unknown> = {}) {
    nowMs = (await chainNow()) + 1000;
    await sync();
    const payment = await createPayment(app, merchant.cookie, { expiresInMinutes: 1, ...body });
    const detail = (await getPayment(app, merchant.cookie, payment.id)) as unknown as { expiresAt: string };
    const expiresAt = Date.parse(detail.expiresAt);
    return { payment, expiresAt };
  }
  const nextBlockAt = (ms: number) => tools.test.setNextBlockTimestamp({ timestamp: BigInt(ms / 1000) });
  const mineAt = async (ms: number) => {
    await nextBlockAt(ms);
    await tools.mine(1);
  };
  /** Mines what is still needed for the newest transfer to be confirmed, then indexes. */
  const confirm = async () => {
    if (CONFIRMATIONS > 1) await tools.mine(CONFIRMATIONS - 1);
    await sync();
  };

  it("paid one second after expiry, the expiry job not yet run: paid_late, never completed", async () => {
    const { payment, expiresAt } = await paymentAtChainTime();
    const payer = await tools.payer();
    await nextBlockAt(expiresAt + 1000);
    await tools.pay(payer, merchant.wallet.address, payment.amountDueBase);
    // The server's clock still says the payment is open: only the block's time tells.
    expect(await status(payment.id)).toBe("pending");
    await sync();
    if (CONFIRMATIONS > 1) {
      // Covered after its expiry but not yet confirmed: expired (on chain), not processing.
      expect(await status(payment.id)).toBe("expired");
    }
    await confirm();
    const late = await getPayment(app, merchant.cookie, payment.id);
    expect(late.status).toBe("paid_late");
    expect(late.timeline.map((t) => t.to)).toEqual(["pending", "expired", "paid_late"]);
    expect(late.amountReceivedBase).toBe(payment.amountDueBase);
  });

  it("paid one second before expiry, indexed after a lag past the expiry: completed, never paid_late", async () => {
    const { payment, expiresAt } = await paymentAtChainTime();
    const payer = await tools.payer();
    await nextBlockAt(expiresAt - 1000);
    await tools.pay(payer, merchant.wallet.address, payment.amountDueBase);
    // The indexer lags: the chain and the wall clock move well past the expiry before it looks again.
    await mineAt(expiresAt + 30_000);
    nowMs = expiresAt + 60_000;
    expect(await app.payments.expireNow()).toBe(0);
    expect(await status(payment.id)).toBe("pending");
    await sync();
    await confirm();
    await app.payments.expireNow();
    const done = await getPayment(app, merchant.cookie, payment.id);
    expect(done.status).toBe("completed");
    expect(done.timeline.map((t) => t.to)).not.toContain("expired");
    expect(done.timeline.at(-1)!.to).toBe("completed");
  });

  it("an unpaid payment expires only once the indexed chain's time is past its expiry", async () => {
    const { payment, expiresAt } = await paymentAtChainTime();
    // The wall clock is past the expiry, but the indexer has not looked at the chain since: still open.
    nowMs = expiresAt + 10_000;
    await app.payments.expireNow();
    expect(await status(payment.id)).toBe("pending");
    await mineAt(expiresAt + 1000);
    // Mined but not indexed yet: the chain's time as the indexer knows it has not moved.
    await app.payments.expireNow();
    expect(await status(payment.id)).toBe("pending");
    await sync();
    await app.payments.expireNow();
    const expired = await getPayment(app, merchant.cookie, payment.id);
    expect(expired.status).toBe("expired");
    expect(expired.timeline.at(-1)!.cause).toMatch(/^expiry time reached \(chain time /);
  });

  it("on an idle chain (no block since), it expires once the indexer found the head processed after the expiry", async () => {
    const { payment, expiresAt } = await paymentAtChainTime();
    // The embedded chain mines on demand: no new block, the indexer sees its head is processed at this moment.
    nowMs = expiresAt + 10_000;
    await sync();
    await app.payments.expireNow();
    expect(await status(payment.id)).toBe("expired");
  });

  it("a partial payment is finished by its exact remainder from another wallet, without a hash", async () => {
    const { payment } = await paymentAtChainTime({ currency: "CPXTB", amount: "20", expiresInMinutes: 15 });
    const due = BigInt(payment.amountDueBase);
    const first = await tools.payer();
    const { hash } = await tools.pay(first, merchant.wallet.address, tokens("12"));
    // The wallet button posts the hash (the amount matches nothing).
    expect(
      (await api(app).post(`/api/payments/public/${payment.reference}/tx`, { txHash: hash })).statusCode,
    ).toBe(200);
    await confirm();
    const partial = await publicView(payment.reference);
    expect(partial.status).toBe("partial");
    const rest = due - tokens("12");
    expect(partial.amountToPayBase).toBe(rest.toString());
    // The QR code and link ask for what remains, not the full amount again.
    expect(partial.paymentUri).toContain(`uint256=${rest}`);
    expect(partial.paymentUri).not.toContain(`uint256=${due}`);
    expect((await getPayment(app, merchant.cookie, payment.id)).paymentUri).toContain(`uint256=${rest}`);

    const second = await tools.payer();
    await tools.pay(second, merchant.wallet.address, rest);
    await sync();
    await confirm();
    const done = await getPayment(app, merchant.cookie, payment.id);
    expect(done.status).toBe("completed");
    expect(done.amountReceivedBase).toBe(due.toString());
    expect(done.overpaid).toBe(false);
    expect(done.transfers).toHaveLength(2);
    expect((await publicView(payment.reference)).amountToPayBase).toBe("0");
    const inbox = (await api(app, merchant.cookie).get("/api/merchant/inbox")).json().items as {
      value: string;
    }[];
    expect(inbox).toEqual([]);
  });

  it("a remaining amount never collides with another live amount: it takes the next free micro-token", async () => {
    const { payment } = await paymentAtChainTime({ currency: "CPXTB", amount: "20", expiresInMinutes: 15 });
    const due = BigInt(payment.amountDueBase);
    const rest = due - tokens("12");
    const micro = 10n ** 12n;
    // Another open payment whose amount due is exactly that rest (its tag space narrowed to the one tag that does it).
    const [other] = await insertPayments(
      app.database.db,
      [
        {
          merchant: { id: merchant.id },
          values: {
            id: `pay_${"1".repeat(20)}${Date.now().toString(36).slice(-6)}`,
            reference: `other${Date.now()}xxxxxxxxxxxxxxxxxxxx`,
            chainId: app.chain!.chainId,
            tokenAddress: app.chain!.token.address,
            tokenDecimals: 18,
            amountUsdCents: null,
            priceE18: null,
            priceSource: null,
            priceAt: null,
            baseAmount: rest - micro,
            description: null,
            orderId: null,
            successUrl: null,
            payerEmail: null,
            payerLocale: null,
            expiresAt: new Date(nowMs + 15 * 60_000),
            monitorUntil: new Date(nowMs + 25 * 60 * 60_000),
            regeneratedFromId: null,
            linkId: null,
            createdAt: new Date(nowMs),
            cause: "created",
          },
        },
      ],
      { maxTag: 1, tagUnit: micro },
    );
    expect(other!.kind).toBe("inserted");
    const otherPayment = (other as { payment: { id: string; amountDue: bigint } }).payment;
    expect(otherPayment.amountDue).toBe(rest);

    const first = await tools.payer();
    const { hash } = await tools.pay(first, merchant.wallet.address, tokens("12"));
    expect(
      (await api(app).post(`/api/payments/public/${payment.reference}/tx`, { txHash: hash })).statusCode,
    ).toBe(200);
    await confirm();
    const partial = await publicView(payment.reference);
    expect(partial.status).toBe("partial");
    expect(partial.amountToPayBase).toBe((rest + micro).toString());

    // The exact rest pays the other payment; the reserved remainder pays this one (one micro-token over).
    const payer = await tools.payer();
    await tools.pay(payer, merchant.wallet.address, rest);
    await tools.pay(payer, merchant.wallet.address, rest + micro);
    await sync();
    await confirm();
    expect(await status(otherPayment.id)).toBe("completed");
    const done = await getPayment(app, merchant.cookie, payment.id);
    expect(done).toMatchObject({ status: "completed", overpaid: true, overpaidBase: micro.toString() });
    // Both amounts are free again.
    const held = await app.database.db
      .select()
      .from(paymentAmounts)
      .where(inArray(paymentAmounts.paymentId, [payment.id, otherPayment.id]));
    expect(held).toEqual([]);
  });
});
