import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { createWalletClient, erc20Abi, formatUnits, getAddress, http, type PrivateKeyAccount } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../src/app.ts";
import { connectChain } from "../src/chain/service.ts";
import { auditEvents, paymentEvents, refundRequests, refunds } from "../src/db/schema.ts";
import { chainConfigFor, startTestChain, type TestChain } from "./chain-helpers.ts";
import { createTestApp } from "./helpers.ts";
import {
  api,
  chainTools,
  createClock,
  createMerchant,
  createPayment,
  type PaymentJson,
  paymentTestConfig,
  type TestMerchant,
} from "./payment-helpers.ts";
import { startReceiver } from "./webhook-receiver.ts";

let chain: TestChain;
let app: App;
let tools: ReturnType<typeof chainTools>;
let merchant: TestMerchant;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
const clock = createClock();
const TOKEN = 10n ** 18n;

beforeAll(async () => {
  chain = await startTestChain();
  tools = chainTools(chain);
  const connected = await connectChain(chainConfigFor(chain.url, chain.deployment, { confirmations: 1 }));
  receiver = await startReceiver();
  app = await createTestApp(
    { ...paymentTestConfig(), webhooks: { allowPrivate: true } },
    {
      chain: connected,
      payments: { now: clock.now },
      notifications: { retryDelaysMs: [0, 150, 150, 150], pollMs: 50 },
    },
  );
  app.notifications.start();
  merchant = await createMerchant(app);
  // The merchant's wallet pays the refunds' gas.
  await tools.test.setBalance({ address: merchant.wallet.address, value: 10n ** 20n });
  // Tokens to refund beyond what the payments bring (tests send some refunds that are then refused).
  await chain.mint(merchant.wallet.address, 10n ** 24n);
  await app.payments.indexer!.runOnce();
});
afterAll(async () => {
  await receiver?.close();
  await chain?.stop();
});

const db = () => app.database.db;
const sync = () => app.payments.indexer!.runOnce();

type Detail = PaymentJson & {
  amountRefundedBase: string;
  refundStatus: string;
  refundableBase: string;
  refunds: { txHash: string; amountBase: string; to: string; from: string }[];
  refundLinks: { id: string; state: string; address: string | null }[];
  refundAddresses: { address: string; source: string }[];
};
const detail = async (m: TestMerchant, id: string) =>
  (await api(app, m.cookie).get(`/api/merchant/payments/${id}`)).json() as Detail;

/** A payment paid by a fresh payer with `extra` base units more than due (negative: less), confirmed. */
async function paidPayment(extra = 0n, m = merchant) {
  const payment = await createPayment(app, m.cookie);
  const payer = await tools.payer();
  const amount = BigInt(payment.amountDueBase) + extra;
  const { hash } = await tools.pay(payer, m.wallet.address, amount);
  expect(
    (await api(app).post(`/api/payments/public/${payment.reference}/tx`, { txHash: hash })).statusCode,
  ).toBe(200);
  await sync();
  return { payment, payer, amount };
}

const refund = (
  m: TestMerchant,
  id: string,
  body: { txHash: string; toAddress: string; amountBase: string },
) => api(app, m.cookie).post(`/api/merchant/payments/${id}/refunds`, body);

async function refundCount(paymentId: string) {
  return (await db().select().from(refunds).where(eq(refunds.paymentId, paymentId))).length;
}

async function refundAudits(paymentId: string) {
  return db().select().from(auditEvents).where(eq(auditEvents.target, paymentId));
}

function expectError(res: { statusCode: number; json(): unknown }, status: number, code: string) {
  expect(res.statusCode).toBe(status);
  expect((res.json() as { error: { code: string; message: string } }).error).toMatchObject({ code });
}

describe("refunds verified on chain", () => {
  it("a full refund of a completed payment: refunded, with the event and the payer's view", async () => {
    const { payment, payer, amount } = await paidPayment();
    const before = await detail(merchant, payment.id);
    expect(before).toMatchObject({
      status: "completed",
      refundStatus: "none",
      refundableBase: amount.toString(),
    });
    expect(before.refundAddresses).toEqual([{ address: payer.address, source: "payer" }]);
    const sent = await tools.pay(merchant.wallet, payer.address, amount);
    const res = await refund(merchant, payment.id, {
      txHash: sent.hash,
      toAddress: payer.address,
      amountBase: amount.toString(),
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      status: "completed",
      refundStatus: "refunded",
      amountRefundedBase: amount.toString(),
      refundableBase: "0",
      refunds: [
        {
          txHash: sent.hash,
          amountBase: amount.toString(),
          to: payer.address,
          from: merchant.wallet.address,
        },
      ],
    });
    const events = await db().select().from(paymentEvents).where(eq(paymentEvents.paymentId, payment.id));
    expect(events.filter((e) => e.type === "payment.refunded")).toHaveLength(1);
    // The audit log has the refund, written with it.
    expect(await refundAudits(payment.id)).toEqual([
      expect.objectContaining({
        action: "refund.recorded",
        userId: expect.stringMatching(/^usr_/),
        businessId: merchant.id,
        metadata: expect.objectContaining({ txHash: sent.hash, to: payer.address }),
      }),
    ]);
    const pub = (await api(app).get(`/api/payments/public/${payment.reference}`)).json();
    expect(pub).toMatchObject({
      status: "completed",
      refundStatus: "refunded",
      refunds: [{ txHash: sent.hash, amountBase: amount.toString() }],
    });
    // Nothing is left to refund.
    const again = await tools.pay(merchant.wallet, payer.address, 1n);
    expectError(
      await refund(merchant, payment.id, { txHash: again.hash, toAddress: payer.address, amountBase: "1" }),
      409,
      "CONFLICT",
    );
  });

  it("payment.refunded reaches a subscribed webhook endpoint with the refund summary", async () => {
    const hooked = await createMerchant(app);
    await tools.test.setBalance({ address: hooked.wallet.address, value: 10n ** 20n });
    const endpoint = await api(app, hooked.cookie).post("/api/merchant/webhooks", {
      url: `${receiver.url}/refunds`,
      events: ["payment.refunded"],
    });
    expect(endpoint.statusCode).toBe(201);
    const { payment, payer, amount } = await paidPayment(0n, hooked);
    const sent = await tools.pay(hooked.wallet, payer.address, amount / 2n);
    const res = await refund(hooked, payment.id, {
      txHash: sent.hash,
      toAddress: payer.address,
      amountBase: (amount / 2n).toString(),
    });
    expect(res.statusCode).toBe(201);
    await receiver.waitFor((all) => all.some((r) => r.path === "/refunds"));
    const [delivery, ...more] = receiver.at("/refunds");
    expect(more).toHaveLength(0);
    expect(delivery!.json).toMatchObject({
      type: "payment.refunded",
      data: {
        id: payment.id,
        status: "completed",
        refundStatus: "partially_refunded",
        amountRefundedBase: (amount / 2n).toString(),
      },
    });
  });

  it("partial refunds add up to partially_refunded, then refunded; more than the rest is refused", async () => {
    const { payment, payer, amount } = await paidPayment();
    const first = amount / 3n;
    const sent = await tools.pay(merchant.wallet, payer.address, first);
    const res = await refund(merchant, payment.id, {
      txHash: sent.hash,
      toAddress: payer.address,
      amountBase: first.toString(),
    });
    expect(res.json()).toMatchObject({
      refundStatus: "partially_refunded",
      amountRefundedBase: first.toString(),
      refundableBase: (amount - first).toString(),
    });
    const tooMuch = await tools.pay(merchant.wallet, payer.address, amount - first + 1n);
    const refused = await refund(merchant, payment.id, {
      txHash: tooMuch.hash,
      toAddress: payer.address,
      amountBase: (amount - first + 1n).toString(),
    });
    expectError(refused, 409, "CONFLICT");
    // The refundable amount in `details` too: the merchant's screen says it in its own words (issue 37).
    expect(refused.json().error.details).toEqual({
      reason: "above_refundable",
      refundable: formatUnits(amount - first, 18),
      token: "CPXTB",
    });
    expect(await refundCount(payment.id)).toBe(1);
    const rest = await tools.pay(merchant.wallet, payer.address, amount - first);
    const done = await refund(merchant, payment.id, {
      txHash: rest.hash,
      toAddress: payer.address,
      amountBase: (amount - first).toString(),
    });
    expect(done.json()).toMatchObject({ refundStatus: "refunded", amountRefundedBase: amount.toString() });
  });

  it("an overpayment's excess is refunded; the payment stays completed and overpaid", async () => {
    const excess = 5n * TOKEN;
    const { payment, payer } = await paidPayment(excess);
    const before = await detail(merchant, payment.id);
    expect(before).toMatchObject({ status: "completed", overpaid: true, overpaidBase: excess.toString() });
    const sent = await tools.pay(merchant.wallet, payer.address, excess);
    const res = await refund(merchant, payment.id, {
      txHash: sent.hash,
      toAddress: payer.address,
      amountBase: excess.toString(),
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      status: "completed",
      overpaid: true,
      refundStatus: "partially_refunded",
      amountRefundedBase: excess.toString(),
      refundableBase: payment.amountDueBase,
    });
  });

  it("a partly paid payment can be refunded", async () => {
    const { payment, payer, amount } = await paidPayment(-TOKEN);
    expect((await detail(merchant, payment.id)).status).toBe("partial");
    const sent = await tools.pay(merchant.wallet, payer.address, amount);
    const res = await refund(merchant, payment.id, {
      txHash: sent.hash,
      toAddress: payer.address,
      amountBase: amount.toString(),
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ status: "partial", refundStatus: "refunded" });
  });

  it("wrong amount, recipient, sender, token, unknown hash, reverted: refused, nothing recorded", async () => {
    const { payment, payer, amount } = await paidPayment();
    const half = amount / 2n;
    const body = (txHash: string, over: Partial<{ toAddress: string; amountBase: string }> = {}) => ({
      txHash,
      toAddress: payer.address,
      amountBase: half.toString(),
      ...over,
    });
    // Wrong amount: the transfer carries one base unit less than claimed.
    const short = await tools.pay(merchant.wallet, payer.address, half - 1n);
    const wrongAmount = await refund(merchant, payment.id, body(short.hash));
    expectError(wrongAmount, 422, "UNPROCESSABLE");
    expect(wrongAmount.json().error.message).toMatch(/amount/);
    // Each refusal with a value carries its reason and values (issue 37: said in the merchant's words).
    expect(wrongAmount.json().error.details).toEqual({
      reason: "amount_differs",
      sent: formatUnits(half - 1n, 18),
      expected: formatUnits(half, 18),
      token: "CPXTB",
    });
    // Wrong recipient: sent to someone else.
    const stranger = privateKeyToAccount(generatePrivateKey());
    const elsewhere = await tools.pay(merchant.wallet, stranger.address, half);
    const wrongTo = await refund(merchant, payment.id, body(elsewhere.hash));
    expectError(wrongTo, 422, "UNPROCESSABLE");
    expect(wrongTo.json().error.message).toMatch(/another address/);
    expect(wrongTo.json().error.details).toEqual({
      reason: "other_recipient",
      address: getAddress(payer.address),
    });
    // A refund address that never paid nor was given: refused before the chain is asked.
    expectError(
      await refund(merchant, payment.id, body(elsewhere.hash, { toAddress: stranger.address })),
      422,
      "UNPROCESSABLE",
    );
    // Wrong sender: someone else's wallet paid the payer.
    const other = await tools.payer();
    const notMerchant = await tools.pay(other, payer.address, half);
    const wrongFrom = await refund(merchant, payment.id, body(notMerchant.hash));
    expectError(wrongFrom, 422, "UNPROCESSABLE");
    expect(wrongFrom.json().error.message).toMatch(/receiving wallet/);
    // Wrong token.
    const otherToken = await chain.deployToken("OTHER", 18);
    await chain.mint(merchant.wallet.address, amount, otherToken);
    const foreign = await tools.pay(merchant.wallet, payer.address, half, otherToken);
    const wrongToken = await refund(merchant, payment.id, body(foreign.hash));
    expectError(wrongToken, 422, "UNPROCESSABLE");
    expect(wrongToken.json().error.message).toMatch(/no CPXTB transfer/);
    expect(wrongToken.json().error.details).toEqual({ reason: "no_token_transfer", token: "CPXTB" });
    // Unknown hash (never mined).
    expectError(await refund(merchant, payment.id, body(`0x${"ab".repeat(32)}`)), 404, "NOT_FOUND");
    // Reverted: the merchant's wallet sends more than it holds (gas given, so nothing simulates it first).
    await tools.test.impersonateAccount({ address: merchant.wallet.address });
    const held = await tools.test.readContract({
      address: chain.deployment.token,
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [merchant.wallet.address],
    });
    const revertedHash = await createWalletClient({
      chain: foundry,
      transport: http(chain.url),
    }).writeContract({
      account: merchant.wallet.address,
      address: chain.deployment.token,
      abi: erc20Abi,
      functionName: "transfer",
      args: [payer.address, held + 1n],
      gas: 100_000n,
    });
    await tools.test.stopImpersonatingAccount({ address: merchant.wallet.address });
    const reverted = await tools.test.waitForTransactionReceipt({ hash: revertedHash });
    expect(reverted.status).toBe("reverted");
    const refusedRevert = await refund(
      merchant,
      payment.id,
      body(revertedHash, { amountBase: (held + 1n).toString() }),
    );
    expect(refusedRevert.statusCode).toBe(409); // more than the rest: refused before the chain is asked
    const revertedHalf = await refund(merchant, payment.id, body(revertedHash));
    expectError(revertedHalf, 422, "UNPROCESSABLE");
    expect(revertedHalf.json().error.message).toMatch(/reverted/);
    // Malformed input is a 400.
    expectError(await refund(merchant, payment.id, body("0x12")), 400, "VALIDATION_ERROR");
    expectError(
      await refund(merchant, payment.id, body(short.hash, { amountBase: "1.5" })),
      400,
      "VALIDATION_ERROR",
    );
    expect(await refundCount(payment.id)).toBe(0);
    expect((await detail(merchant, payment.id)).amountRefundedBase).toBe("0");
    // A refused refund leaves no audit row either.
    expect(await refundAudits(payment.id)).toEqual([]);
  });

  it("the same refund transaction twice is refused, for this payment and for another", async () => {
    const { payment, payer, amount } = await paidPayment();
    const { payment: second } = await paidPayment();
    const half = amount / 2n;
    const sent = await tools.pay(merchant.wallet, payer.address, half);
    const body = { txHash: sent.hash, toAddress: payer.address, amountBase: half.toString() };
    expect((await refund(merchant, payment.id, body)).statusCode).toBe(201);
    expectError(await refund(merchant, payment.id, body), 409, "CONFLICT");
    // `payer` never paid `second`: its address is not one a refund of `second` may go to.
    expectError(await refund(merchant, second.id, body), 422, "UNPROCESSABLE");
    expect(await refundCount(payment.id)).toBe(1);
    expect(await refundCount(second.id)).toBe(0);
  });

  it("a payment transfer submitted as a refund is refused", async () => {
    // The transaction that paid it goes from the payer to the merchant: never a refund.
    const { payment, payer, amount } = await paidPayment();
    const [credit] = (
      (await api(app, merchant.cookie).get(`/api/merchant/payments/${payment.id}`)).json() as {
        transfers: { txHash: string }[];
      }
    ).transfers;
    const res = await refund(merchant, payment.id, {
      txHash: credit!.txHash,
      toAddress: payer.address,
      amountBase: amount.toString(),
    });
    expect(res.statusCode).toBe(422);
    expect(await refundCount(payment.id)).toBe(0);
  });

  it("two concurrent recordings of the full amount: exactly one is recorded", async () => {
    const { payment, payer, amount } = await paidPayment();
    const a = await tools.pay(merchant.wallet, payer.address, amount);
    const b = await tools.pay(merchant.wallet, payer.address, amount);
    const results = await Promise.all(
      [a, b].map((sent) =>
        refund(merchant, payment.id, {
          txHash: sent.hash,
          toAddress: payer.address,
          amountBase: amount.toString(),
        }),
      ),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    expect(await refundCount(payment.id)).toBe(1);
    expect((await detail(merchant, payment.id)).amountRefundedBase).toBe(amount.toString());
  });

  it("the same transaction posted twice at once: one refund", async () => {
    const { payment, payer, amount } = await paidPayment();
    const sent = await tools.pay(merchant.wallet, payer.address, amount / 4n);
    const body = { txHash: sent.hash, toAddress: payer.address, amountBase: (amount / 4n).toString() };
    const results = await Promise.all([
      refund(merchant, payment.id, body),
      refund(merchant, payment.id, body),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    expect((await detail(merchant, payment.id)).amountRefundedBase).toBe((amount / 4n).toString());
  });

  it("a pending payment cannot be refunded", async () => {
    const payment = await createPayment(app, merchant.cookie);
    const payer = await tools.payer();
    const sent = await tools.pay(merchant.wallet, payer.address, 1n);
    expectError(
      await refund(merchant, payment.id, { txHash: sent.hash, toAddress: payer.address, amountBase: "1" }),
      409,
      "CONFLICT",
    );
  });

  it("another merchant can neither see nor refund the payment, nor make a refund link", async () => {
    const { payment, payer, amount } = await paidPayment();
    const other = await createMerchant(app);
    expectError(await api(app, other.cookie).get(`/api/merchant/payments/${payment.id}`), 404, "NOT_FOUND");
    const sent = await tools.pay(merchant.wallet, payer.address, amount);
    expectError(
      await refund(other, payment.id, {
        txHash: sent.hash,
        toAddress: payer.address,
        amountBase: amount.toString(),
      }),
      404,
      "NOT_FOUND",
    );
    expectError(
      await api(app, other.cookie).post(`/api/merchant/payments/${payment.id}/refund-links`),
      404,
      "NOT_FOUND",
    );
    expectError(
      await api(app).post(`/api/merchant/payments/${payment.id}/refund-links`),
      401,
      "UNAUTHENTICATED",
    );
    expect(await refundCount(payment.id)).toBe(0);
  });
});

describe("refund links", () => {
  const tokenOf = (url: string) => url.split("/refund/")[1]!;

  async function makeLink(paymentId: string) {
    const res = await api(app, merchant.cookie).post(`/api/merchant/payments/${paymentId}/refund-links`);
    expect(res.statusCode).toBe(201);
    return res.json() as { link: { id: string; state: string }; url: string };
  }

  it("create, open, submit an address; the merchant refunds to it; reuse refused", async () => {
    const { payment, amount } = await paidPayment();
    const created = await makeLink(payment.id);
    expect(created.link.state).toBe("waiting");
    const token = tokenOf(created.url);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Only the hash is stored.
    const [stored] = await db().select().from(refundRequests).where(eq(refundRequests.id, created.link.id));
    expect(stored!.tokenHash).toBe(createHash("sha256").update(token).digest("hex"));
    expect(JSON.stringify(stored)).not.toContain(token);

    const opened = await api(app).get(`/api/refund-links/${token}`);
    expect(opened.statusCode).toBe(200);
    expect(opened.json()).toMatchObject({
      state: "waiting",
      merchant: { name: "Corner Coffee" },
      address: null,
    });

    const exchange: PrivateKeyAccount = privateKeyToAccount(generatePrivateKey());
    // A mixed-case address with a broken checksum is refused (EIP-55's own example, one letter's case flipped).
    expectError(
      await api(app).post(`/api/refund-links/${token}/address`, {
        address: "0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
      }),
      400,
      "VALIDATION_ERROR",
    );
    expectError(
      await api(app).post(`/api/refund-links/${token}/address`, { address: merchant.wallet.address }),
      400,
      "VALIDATION_ERROR",
    );
    const submitted = await api(app).post(`/api/refund-links/${token}/address`, {
      address: exchange.address.toLowerCase(),
    });
    expect(submitted.statusCode).toBe(200);
    expect(submitted.json()).toMatchObject({ state: "submitted", address: exchange.address });
    // Single use.
    const payer2 = privateKeyToAccount(generatePrivateKey());
    expectError(
      await api(app).post(`/api/refund-links/${token}/address`, { address: payer2.address }),
      409,
      "CONFLICT",
    );

    const seen = await detail(merchant, payment.id);
    expect(seen.refundLinks).toMatchObject([{ state: "submitted", address: exchange.address }]);
    expect(seen.refundAddresses).toContainEqual({ address: exchange.address, source: "refund_link" });
    const sent = await tools.pay(merchant.wallet, exchange.address, amount);
    const res = await refund(merchant, payment.id, {
      txHash: sent.hash,
      toAddress: exchange.address,
      amountBase: amount.toString(),
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ refundStatus: "refunded", refunds: [{ to: exchange.address }] });
  });

  it("an expired link is refused; an unknown token is 404", async () => {
    const { payment } = await paidPayment();
    const created = await makeLink(payment.id);
    const token = tokenOf(created.url);
    clock.advance(15 * 24 * 60 * 60 * 1000);
    try {
      expectError(await api(app).get(`/api/refund-links/${token}`), 410, "GONE");
      const someone = privateKeyToAccount(generatePrivateKey());
      expectError(
        await api(app).post(`/api/refund-links/${token}/address`, { address: someone.address }),
        410,
        "GONE",
      );
      expect((await detail(merchant, payment.id)).refundLinks).toMatchObject([
        { state: "expired", address: null },
      ]);
    } finally {
      clock.advance(-15 * 24 * 60 * 60 * 1000);
    }
    expectError(await api(app).get(`/api/refund-links/${"A".repeat(43)}`), 404, "NOT_FOUND");
    expectError(await api(app).get("/api/refund-links/short"), 400, "VALIDATION_ERROR");
  });
});

describe("reports count refunds", () => {
  it("the summary has the refunded total and net revenue; the CSV has refund columns", async () => {
    const reporter = await createMerchant(app);
    await tools.test.setBalance({ address: reporter.wallet.address, value: 10n ** 20n });
    const { payment, payer, amount } = await paidPayment(0n, reporter);
    const back = amount / 4n;
    const sent = await tools.pay(reporter.wallet, payer.address, back);
    expect(
      (
        await refund(reporter, payment.id, {
          txHash: sent.hash,
          toAddress: payer.address,
          amountBase: back.toString(),
        })
      ).statusCode,
    ).toBe(201);
    const day = clock.now().toISOString().slice(0, 10);
    const summary = await api(app, reporter.cookie).get(
      `/api/merchant/reports/summary?from=${day}&to=${day}&tz=UTC`,
    );
    expect(summary.statusCode).toBe(200);
    const body = summary.json();
    const tokens = (base: bigint) => {
      const whole = base / TOKEN;
      const frac = (base % TOKEN).toString().padStart(18, "0").replace(/0+$/, "");
      return frac ? `${whole}.${frac}` : `${whole}`;
    };
    expect(body.refunds).toMatchObject({ count: 1, amountRefunded: tokens(back) });
    expect(body.netRevenue).toMatchObject({ amount: tokens(amount - back) });
    const csv = await api(app, reporter.cookie).get(
      `/api/merchant/reports/payments.csv?from=${day}&to=${day}&tz=UTC`,
    );
    const [header, row] = csv.body
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n");
    const columns = header!.split(",");
    expect(columns).toContain("amount_refunded_cpxtb");
    expect(columns).toContain("refund_tx_hashes");
    const cells = row!.split(",");
    expect(cells[columns.indexOf("amount_refunded_cpxtb")]).toBe(tokens(back));
    expect(cells[columns.indexOf("refund_tx_hashes")]).toBe(sent.hash);
  });
});
