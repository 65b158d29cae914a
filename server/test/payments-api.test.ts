import { EXPIRY_MINUTES } from "@common/payment-values.ts";
import { parse as parseEthUrl } from "eth-url-parser";
import { formatUnits, getAddress } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { App } from "../src/app.ts";
import { buildApp } from "../src/app.ts";
import { connectChain } from "../src/chain/service.ts";
import { testConfig } from "../src/config.ts";
import { usdCentsToBaseUnits } from "../src/modules/payments/amounts.ts";
import { chainConfigFor, startTestChain, type TestChain } from "./chain-helpers.ts";
import { createTestApp } from "./helpers.ts";
import {
  api,
  chainTools,
  createMerchant,
  createPayment,
  getPayment,
  type PaymentJson,
  paymentTestConfig,
  proveWallet,
  signUp,
  type TestMerchant,
} from "./payment-helpers.ts";
import { TestSocket } from "./ws-client.ts";

let chain: TestChain;
let app: App;
let merchant: TestMerchant;
let wsUrl: string;

beforeAll(async () => {
  chain = await startTestChain();
  const connected = await connectChain(chainConfigFor(chain.url, chain.deployment, { confirmations: 1 }));
  app = await createTestApp(paymentTestConfig(), { chain: connected });
  merchant = await createMerchant(app, { toleranceBps: 0, website: "https://coffee.example" });
  await app.payments.indexer!.runOnce();
  await app.listen({ host: "127.0.0.1", port: 0 });
  const address = app.server.address() as { port: number };
  wsUrl = `ws://127.0.0.1:${address.port}/ws`;
});
afterAll(async () => {
  await chain?.stop();
});

/** eth-url-parser (MetaMask's) prints big numbers in exponent form; read it back exactly. */
function exactInteger(text: string): bigint {
  const match = /^(\d+)(?:\.(\d+))?(?:e\+?(\d+))?$/.exec(text);
  if (!match) throw new Error(`not a number: ${text}`);
  const [, whole, fraction = "", exponent = "0"] = match;
  const shift = Number(exponent) - fraction.length;
  if (shift < 0) throw new Error(`not an integer: ${text}`);
  return BigInt(whole! + fraction) * 10n ** BigInt(shift);
}

describe("merchants", () => {
  it("registers with a wallet proof; the nonce is single use; a wrong signer is refused", async () => {
    const { cookie } = await signUp(app);
    const wallet = privateKeyToAccount(generatePrivateKey());
    const proof = await proveWallet(app, cookie, wallet);
    const body = {
      name: "Shop",
      businessType: "retail",
      contactEmail: "a@example.com",
      walletAddress: wallet.address,
    };
    const impostor = privateKeyToAccount(generatePrivateKey());
    const challenge = (
      await api(app, cookie).post("/api/merchant/wallet-challenge", { address: wallet.address })
    ).json();
    const forged = await api(app, cookie).post("/api/merchant", {
      ...body,
      proof: {
        nonce: challenge.nonce,
        signature: await impostor.signMessage({ message: challenge.message }),
      },
    });
    expect(forged.statusCode).toBe(422);
    const ok = await api(app, cookie).post("/api/merchant", { ...body, proof });
    expect(ok.statusCode).toBe(201);
    expect(ok.json()).toMatchObject({ walletAddress: wallet.address, toleranceBps: 0 });
    const replay = await api(app, cookie).patch("/api/merchant", { walletAddress: impostor.address, proof });
    expect(replay.statusCode).toBe(422);
    const noProof = await api(app, cookie).patch("/api/merchant", { walletAddress: impostor.address });
    expect(noProof.statusCode).toBe(400);
    const renamed = await api(app, cookie).patch("/api/merchant", {
      name: "Shop 2",
      walletAddress: impostor.address,
      proof: await proveWallet(app, cookie, impostor),
    });
    expect(renamed.json()).toMatchObject({ name: "Shop 2", walletAddress: impostor.address });
  });

  it("validates logos, emails and addresses with 4xx errors", async () => {
    const { cookie } = await signUp(app);
    const wallet = privateKeyToAccount(generatePrivateKey());
    const base = {
      name: "Shop",
      businessType: "retail",
      contactEmail: "a@example.com",
      walletAddress: wallet.address,
    };
    const proof = { nonce: "x".repeat(24), signature: `0x${"1".repeat(130)}` };
    for (const bad of [
      { logoUrl: "http://insecure.example/logo.png" },
      { logoUrl: `data:image/png;base64,${"A".repeat(100_000)}` },
      { logoUrl: "javascript:alert(1)" },
      { contactEmail: "nope" },
      { walletAddress: "0x123" },
      { businessType: "casino" },
    ]) {
      const res = await api(app, cookie).post("/api/merchant", { ...base, ...bad, proof });
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(res.json().error.code).toBe("VALIDATION_ERROR");
    }
    const mixedCase =
      wallet.address.slice(0, 2) +
      wallet.address.slice(2, 3).toLowerCase() +
      wallet.address.slice(3).toUpperCase();
    const res = await api(app, cookie).post("/api/merchant/wallet-challenge", {
      address: mixedCase === wallet.address ? wallet.address : mixedCase,
    });
    expect([200, 400]).toContain(res.statusCode);
    expect((await api(app).get("/api/merchant")).statusCode).toBe(401);
  });
});

describe("payment requests", () => {
  it("converts USD at the locked price with exact integer maths, and the EIP-681 URI parses back exactly", async () => {
    const payment = await createPayment(app, merchant.cookie, {
      amount: "12.34",
      orderId: "A-1",
      description: "Latte",
    });
    const priceE18 = 10n ** 16n; // FIXED_PRICE_USD 0.01
    const raw = usdCentsToBaseUnits(1234n, priceE18, 18);
    const step = 10n ** 15n;
    const base = ((raw + step - 1n) / step) * step;
    expect(BigInt(payment.amountDueBase)).toBe(base + BigInt(payment.tag) * 10n ** 12n);
    expect(payment.tag).toBeGreaterThanOrEqual(1);
    expect(payment.tag).toBeLessThanOrEqual(999);
    const parsed = parseEthUrl(payment.paymentUri) as unknown as {
      target_address: string;
      chain_id: string;
      function_name: string;
      parameters: { address: string; uint256: string };
    };
    expect(getAddress(parsed.target_address)).toBe(chain.deployment.token);
    expect(Number(parsed.chain_id)).toBe(31337);
    expect(parsed.function_name).toBe("transfer");
    expect(getAddress(parsed.parameters.address)).toBe(merchant.wallet.address);
    expect(exactInteger(String(parsed.parameters.uint256))).toBe(BigInt(payment.amountDueBase));
    expect(payment.paymentUri).toMatch(/uint256=\d+$/);
    expect(payment.reference).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  it("creates in CPXTB directly; refuses bad input with 4xx", async () => {
    const payment = await createPayment(app, merchant.cookie, { currency: "CPXTB", amount: "100.5" });
    expect(formatUnits(BigInt(payment.amountDueBase), 18)).toMatch(/^100\.500\d{0,2}[1-9]$/);
    for (const bad of [
      { currency: "USD", amount: "1.234" },
      { currency: "USD", amount: "-1" },
      { currency: "USD", amount: "1e3" },
      { currency: "CPXTB", amount: "1.0001" },
      { currency: "CPXTB", amount: "0" },
      { currency: "EUR", amount: "1" },
      { currency: "USD", amount: "1", expiresInMinutes: 0 },
      { currency: "USD", amount: "1", expiresInMinutes: 7 * 24 * 60 + 1 },
      { currency: "USD", amount: "1", successUrl: "http://shop.example/ok" },
      { currency: "USD", amount: "1", successUrl: "javascript:alert(1)" },
      { currency: "USD", amount: "1", payerEmail: "x" },
    ]) {
      const res = await api(app, merchant.cookie).post("/api/merchant/payments", bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(res.json().error.code).toBe("VALIDATION_ERROR");
    }
    const local = await createPayment(app, merchant.cookie, { successUrl: "http://localhost:3000/thanks" });
    expect(local.status).toBe("pending");
    const { cookie } = await signUp(app);
    expect(
      (await api(app, cookie).post("/api/merchant/payments", { currency: "USD", amount: "1" })).statusCode,
    ).toBe(404);
  });

  it("the public view shows only what the pay page needs", async () => {
    const payment = await createPayment(app, merchant.cookie, {
      payerEmail: "payer@example.com",
      orderId: "A-1042",
    });
    const res = await api(app).get(`/api/payments/public/${payment.reference}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      reference: payment.reference,
      status: "pending",
      merchant: { name: "Corner Coffee", logoUrl: null },
      // The order id is the payer's reference too (issue 36): shown on the pay page and the receipt.
      orderId: "A-1042",
    });
    const text = JSON.stringify(body);
    for (const secret of ["payer@example.com", "owner@example.com", merchant.id, payment.id, "usr_"]) {
      expect(text).not.toContain(secret);
    }
    expect((await api(app).get("/api/payments/public/doesnotexistdoesnotexist")).statusCode).toBe(404);
    expect((await api(app).get("/api/payments/public/a")).statusCode).toBe(404);
  });

  it("another user cannot read, list, change or regenerate a merchant's payments", async () => {
    const payment = await createPayment(app, merchant.cookie);
    const other = await createMerchant(app);
    const as = api(app, other.cookie);
    expect((await as.get(`/api/merchant/payments/${payment.id}`)).statusCode).toBe(404);
    expect((await as.get("/api/merchant/payments")).json().items).toEqual([]);
    expect((await as.post(`/api/merchant/payments/${payment.id}/regenerate`)).statusCode).toBe(404);
    expect(
      (await as.post(`/api/merchant/payments/${payment.id}/tx`, { txHash: `0x${"ab".repeat(32)}` }))
        .statusCode,
    ).toBe(404);
    expect((await api(app).get("/api/merchant/payments")).statusCode).toBe(401);
    const mine = await api(app, merchant.cookie).get(`/api/merchant/payments/${payment.id}`);
    expect(mine.statusCode).toBe(200);
  });

  it("lists with filters and cursor pagination", async () => {
    const { cookie } = await createMerchant(app);
    const made: PaymentJson[] = [];
    for (let i = 0; i < 5; i++) made.push(await createPayment(app, cookie, { orderId: `o-${i}` }));
    const first = (await api(app, cookie).get("/api/merchant/payments?limit=2")).json();
    expect(first.items.map((p: PaymentJson) => p.id)).toEqual([made[4]!.id, made[3]!.id]);
    const second = (
      await api(app, cookie).get(`/api/merchant/payments?limit=2&cursor=${first.nextCursor}`)
    ).json();
    expect(second.items.map((p: PaymentJson) => p.id)).toEqual([made[2]!.id, made[1]!.id]);
    const byOrder = (await api(app, cookie).get("/api/merchant/payments?orderId=o-0")).json();
    expect(byOrder.items.map((p: PaymentJson) => p.id)).toEqual([made[0]!.id]);
    expect((await api(app, cookie).get("/api/merchant/payments?status=completed")).json().items).toEqual([]);
    expect((await api(app, cookie).get("/api/merchant/payments?status=bogus")).statusCode).toBe(400);
  });

  it("200 concurrent creations of the same price get 200 distinct amounts", async () => {
    const { cookie } = await createMerchant(app);
    const results = await Promise.all(
      Array.from({ length: 200 }, () =>
        api(app, cookie).post("/api/merchant/payments", { currency: "USD", amount: "5.00" }),
      ),
    );
    expect(results.map((r) => r.statusCode).filter((s) => s !== 201)).toEqual([]);
    const amounts = new Set(results.map((r) => r.json().amountDueBase));
    expect(amounts.size).toBe(200);
  });

  it("refuses with 409 when all 999 tags of an amount are live, and frees them when payments leave their window", async () => {
    const { cookie } = await createMerchant(app);
    const first = await createPayment(app, cookie, { amount: "3.00" });
    const { sql } = await import("drizzle-orm");
    await app.database.db.execute(sql`
      insert into payments (id, reference, merchant_id, chain_id, token_address, token_decimals, receiving_address,
        amount_usd_cents, price_e18, price_source, price_at, base_amount, tag, amount_due, tolerance_bps,
        expires_at, monitor_until)
      select p.id || '_' || t, p.reference || '_' || t, p.merchant_id, p.chain_id, p.token_address, p.token_decimals,
        p.receiving_address, p.amount_usd_cents, p.price_e18, p.price_source, p.price_at, p.base_amount, t,
        p.base_amount + t * 1000000000000, p.tolerance_bps, p.expires_at, p.monitor_until
      from payments p, generate_series(1, 999) t where p.id = ${first.id} and t <> p.tag`);
    // Their amounts reserved, as the creation statement does (decision 007: payment_amounts).
    await app.database.db.execute(sql`
      insert into payment_amounts (chain_id, token_address, receiving_address, amount, payment_id, kind)
      select chain_id, token_address, receiving_address, amount_due, id, 'due' from payments
      where id like ${`${first.id}_%`}`);
    const refused = await api(app, cookie).post("/api/merchant/payments", {
      currency: "USD",
      amount: "3.00",
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toMatch(/999/);
    await app.database.db.execute(
      sql`update payments set live = false where id = ${`${first.id}_1`} or id = ${first.id}`,
    );
    await app.database.db.execute(
      sql`delete from payment_amounts where payment_id = ${`${first.id}_1`} or payment_id = ${first.id}`,
    );
    expect(
      (await api(app, cookie).post("/api/merchant/payments", { currency: "USD", amount: "3.00" })).statusCode,
    ).toBe(201);
  });

  it("regenerates an expired unpaid payment once, linked both ways", async () => {
    const { cookie } = await createMerchant(app);
    const payment = await createPayment(app, cookie, { expiresInMinutes: 1 });
    expect((await api(app).post(`/api/payments/public/${payment.reference}/regenerate`)).statusCode).toBe(
      409,
    );
    await app.database.db.execute(
      (await import("drizzle-orm"))
        .sql`update payments set status = 'expired', expires_at = now() where id = ${payment.id}`,
    );
    const [a, b] = await Promise.all([
      api(app).post(`/api/payments/public/${payment.reference}/regenerate`),
      api(app, cookie).post(`/api/merchant/payments/${payment.id}/regenerate`),
    ]);
    expect(a.statusCode).toBe(201);
    expect(b.statusCode).toBe(201);
    expect(a.json().reference).toBe(b.json().reference);
    const old = (await api(app).get(`/api/payments/public/${payment.reference}`)).json();
    expect(old.regeneratedTo).toBe(a.json().reference);
    expect(b.json().regeneratedFrom).toBe(payment.id);
  });

  it("a regenerated payment gets the default expiry of a new payment, not the old one's window", async () => {
    const { cookie } = await createMerchant(app);
    const payment = await createPayment(app, cookie, { expiresInMinutes: 1, orderId: "A-1042" });
    await app.database.db.execute(
      (await import("drizzle-orm"))
        .sql`update payments set status = 'expired', expires_at = now() - interval '30 seconds' where id = ${payment.id}`,
    );
    const next = await api(app, cookie).post(`/api/merchant/payments/${payment.id}/regenerate`);
    expect(next.statusCode).toBe(201);
    const { createdAt, expiresAt, orderId, reference } = next.json();
    expect(new Date(expiresAt).getTime() - new Date(createdAt).getTime()).toBe(
      EXPIRY_MINUTES.default * 60_000,
    );
    expect(orderId).toBe("A-1042");
    // The payer sees the order id too.
    const view = (await api(app).get(`/api/payments/public/${reference}`)).json();
    expect(view.orderId).toBe("A-1042");
  });
});

describe("live updates over /ws", () => {
  it("the pay page and the owner see the payment change; another merchant and anonymous sockets do not", async () => {
    const payment = await createPayment(app, merchant.cookie);
    const page = await TestSocket.open(wsUrl);
    const owner = await TestSocket.open(wsUrl, { headers: { cookie: merchant.cookie } });
    const other = await createMerchant(app);
    const stranger = await TestSocket.open(wsUrl, { headers: { cookie: other.cookie } });
    const anonymous = await TestSocket.open(wsUrl);
    try {
      page.ws.send(JSON.stringify({ type: "subscribePayment", reference: payment.reference }));
      await page.next(
        (m) => m.type === "paymentUpdate" && (m.payment as { status: string }).status === "pending",
      );
      owner.ws.send(JSON.stringify({ type: "subscribeMerchant" }));
      await owner.next((m) => m.type === "merchantSubscribed");
      stranger.ws.send(JSON.stringify({ type: "subscribeMerchant" }));
      await stranger.next((m) => m.type === "merchantSubscribed");
      anonymous.ws.send(JSON.stringify({ type: "subscribeMerchant" }));
      await anonymous.next((m) => m.type === "merchantError" && m.code === "UNAUTHENTICATED");

      const tools = chainTools(chain);
      const payer = await tools.payer();
      await tools.pay(payer, merchant.wallet.address, payment.amountDueBase);
      await app.payments.indexer!.runOnce();
      const done = await page.next(
        (m) => m.type === "paymentUpdate" && (m.payment as { status: string }).status === "completed",
      );
      expect(Object.keys(done.payment as object)).not.toContain("payerEmail");
      await owner.next(
        (m) =>
          m.type === "merchantPaymentUpdate" &&
          (m.payment as { id: string }).id === payment.id &&
          m.event === "payment.completed",
      );
      const ids = page.messages.filter((m) => m.eventId).map((m) => m.eventId);
      expect(new Set(ids).size).toBe(ids.length);
      await new Promise((r) => setTimeout(r, 50));
      expect(stranger.messages.filter((m) => m.type === "merchantPaymentUpdate")).toEqual([]);
    } finally {
      for (const s of [page, owner, stranger, anonymous]) s.ws.close();
    }
  });
});

describe("an unmatched transfer on the pay page", () => {
  it("the open pay pages of the business's address hear its amount and nothing more; other businesses' pages nothing", async () => {
    const owner = await createMerchant(app, { toleranceBps: 0 });
    const payment = await createPayment(app, owner.cookie, { currency: "CPXTB", amount: "9" });
    const other = await createMerchant(app);
    const elsewhere = await createPayment(app, other.cookie, { currency: "CPXTB", amount: "9" });
    const page = await TestSocket.open(wsUrl);
    const stranger = await TestSocket.open(wsUrl);
    try {
      for (const [socket, reference] of [
        [page, payment.reference],
        [stranger, elsewhere.reference],
      ] as const) {
        socket.ws.send(JSON.stringify({ type: "subscribePayment", reference }));
        await socket.next((m) => m.type === "paymentUpdate");
      }
      const tools = chainTools(chain);
      const payer = await tools.payer();
      // 9.000285: no payment asks for it (the payment's tag makes its amount 9.000xxx of its own).
      const wrong = BigInt(payment.amountDueBase) === 9_000_285n * 10n ** 12n ? 9_000_286n : 9_000_285n;
      await tools.pay(payer, owner.wallet.address, wrong * 10n ** 12n);
      await app.payments.indexer!.runOnce();
      const heard = await page.next((m) => m.type === "unmatchedTransfer");
      // The amount of the transfer to this address, for this page: not its sender, hash or anything of a payment.
      expect(heard).toEqual({
        type: "unmatchedTransfer",
        reference: payment.reference,
        amount: `9.${(wrong % 1_000_000n).toString().padStart(6, "0")}`,
      });
      await new Promise((r) => setTimeout(r, 100));
      expect(stranger.messages.filter((m) => m.type === "unmatchedTransfer")).toEqual([]);
      expect((await getPayment(app, owner.cookie, payment.id)).status).toBe("pending");
    } finally {
      for (const s of [page, stranger]) s.ws.close();
    }
  });
});

describe("live news for the owner's dashboard", () => {
  it("a payment created elsewhere and a transfer that matches nothing reach the owner's socket", async () => {
    const owner = await createMerchant(app);
    const socket = await TestSocket.open(wsUrl, { headers: { cookie: owner.cookie } });
    try {
      socket.ws.send(JSON.stringify({ type: "subscribeMerchant" }));
      await socket.next((m) => m.type === "merchantSubscribed");
      const payment = await createPayment(app, owner.cookie);
      await socket.next(
        (m) =>
          m.type === "merchantPaymentUpdate" &&
          m.event === "payment.created" &&
          (m.payment as { id: string }).id === payment.id,
      );
      const tools = chainTools(chain);
      await tools.pay(await tools.payer(), owner.wallet.address, 1234n);
      await app.payments.indexer!.runOnce();
      await socket.next((m) => m.type === "merchantInboxUpdate");
      const inbox = (await api(app, owner.cookie).get("/api/merchant/inbox")).json();
      expect(inbox.items.map((t: { valueBase: string }) => t.valueBase)).toContain("1234");
    } finally {
      socket.ws.close();
    }
  });
});

describe("several instances", () => {
  it.skipIf(!process.env.DATABASE_URL)(
    "exactly one runs the indexer; another takes over when it stops",
    async () => {
      const second = await buildApp(testConfig({ clientDist: "/nonexistent", ...paymentTestConfig() }), {
        database: app.database,
        chain: app.chain!,
        payments: { runtime: { lockEveryMs: 50, pollMs: 50 } },
      });
      const third = await buildApp(testConfig({ clientDist: "/nonexistent", ...paymentTestConfig() }), {
        database: app.database,
        chain: app.chain!,
        payments: { runtime: { lockEveryMs: 50, pollMs: 50 } },
      });
      try {
        second.payments.start();
        third.payments.start();
        await expect
          .poll(() => [second, third].filter((a) => a.payments.health()?.role === "leader").length)
          .toBe(1);
        await new Promise((r) => setTimeout(r, 200));
        const roles = [second, third].map((a) => a.payments.health()!.role).sort();
        expect(roles).toEqual(["leader", "standby"]);
        // The standby reports the leader's progress, read from the database checkpoints.
        await expect
          .poll(() => [second, third].find((a) => !a.payments.isLeader)!.payments.health()!.lastBlock)
          .toMatch(/^\d+$/);
        const leader = second.payments.isLeader ? second : third;
        const standby = leader === second ? third : second;
        await leader.close();
        await expect.poll(() => standby.payments.health()?.role, { timeout: 15_000 }).toBe("leader");
      } finally {
        await second.close();
        await third.close();
      }
    },
  );
});
