import { sql } from "drizzle-orm";
import { erc20Abi, formatUnits, getAddress, type Hex, parseUnits, toHex } from "viem";
import { HDKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type App, buildApp } from "../src/app.ts";
import { connectChain } from "../src/chain/service.ts";
import { type Config, testConfig } from "../src/config.ts";
import { loadSocialConfig } from "../src/config-social.ts";
import { rowsOf } from "../src/db/client.ts";
import { chainConfigFor, startTestChain, type TestChain } from "./chain-helpers.ts";
import { createTestApp } from "./helpers.ts";
import {
  api,
  chainTools,
  createMerchant,
  createPayment,
  getPayment,
  paymentTestConfig,
} from "./payment-helpers.ts";

const SEED = `0x${"5a".repeat(32)}` as Hex;
const ORIGIN = "http://pay.example.test";
const HOST = { host: "pay.example.test" };
let chain: TestChain;
let app: App;
/** The configuration `app` was built with (a second instance gets the same). */
let appConfig: Partial<Config>;
let tools: ReturnType<typeof chainTools>;
/** Every response body of this file, to prove no key ever leaves the server. */
const bodies: string[] = [];

beforeAll(async () => {
  chain = await startTestChain();
  tools = chainTools(chain);
  const connected = await connectChain(chainConfigFor(chain.url, chain.deployment));
  // The site's name is not a loopback one: the development sign-in page is turned on by name.
  const social = loadSocialConfig(
    { MANAGED_WALLET_DAILY_LIMIT: "500", SOCIAL_DEV_LOGIN: "true" },
    "development",
    { publicUrl: ORIGIN, host: "127.0.0.1" },
  );
  appConfig = {
    ...paymentTestConfig(),
    publicUrl: ORIGIN,
    social: social.social,
    wallet: { ...social.wallet, masterSeed: SEED },
  };
  app = await createTestApp(appConfig, { chain: connected });
  await app.payments.indexer!.runOnce();
});
afterAll(async () => {
  await chain?.stop();
});

const cookieOf = (res: Awaited<ReturnType<App["inject"]>>, name: string) =>
  res.cookies.find((c) => c.name === name)?.value;

/** A social account through the development provider page (the whole redirect flow). */
async function socialUser(email: string): Promise<string> {
  const begin = await app.inject({
    method: "GET",
    url: "/api/social-auth/google?redirectUrl=%2F",
    headers: HOST,
  });
  const state = new URL(begin.headers.location as string, ORIGIN).searchParams.get("state")!;
  const go = await app.inject({
    method: "GET",
    url: `/api/social-auth/google/dev/authorize?state=${state}&name=Pat&email=${encodeURIComponent(email)}`,
    headers: HOST,
  });
  const done = await app.inject({
    method: "GET",
    url: go.headers.location as string,
    headers: { ...HOST, cookie: `cpxtb_social_flow=${cookieOf(begin, "cpxtb_social_flow")}` },
  });
  expect(done.statusCode, done.body).toBe(303);
  return `cpxtb_session=${cookieOf(done, "cpxtb_session")}`;
}

async function call(cookie: string, method: "GET" | "POST", url: string, payload?: object) {
  const res = await app.inject({ method, url, payload, headers: { ...HOST, cookie } });
  bodies.push(res.body);
  return res;
}

const wallet = async (cookie: string) =>
  (await call(cookie, "GET", "/api/wallet")).json() as {
    address: `0x${string}`;
    balance: string;
    ethBalance: string;
  };
const tokens = (n: string) => parseUnits(n, 18);
const ethOf = (address: `0x${string}`) => tools.test.getBalance({ address });
const tokenOf = (address: `0x${string}`) =>
  tools.test.readContract({
    address: chain.deployment.token,
    abi: erc20Abi,
    functionName: "balanceOf",
    args: [address],
  });
const sync = () => app.payments.indexer!.runOnce();

describe("managed wallets", () => {
  it("the address is stable per account and different between accounts; derived at m/44'/60'/0'/0/i", async () => {
    const a = await socialUser("a@example.com");
    const first = await wallet(a);
    const again = await wallet(await socialUser("a@example.com"));
    const b = await wallet(await socialUser("b@example.com"));
    expect(again.address).toBe(first.address);
    expect(b.address).not.toBe(first.address);
    const root = HDKey.fromMasterSeed(Buffer.from(SEED.slice(2), "hex"));
    const derived = [0, 1, 2, 3].map(
      (i) => privateKeyToAccount(toHex(root.derive(`m/44'/60'/0'/0/${i}`).privateKey!)).address,
    );
    expect(derived).toContain(first.address);
    expect(derived).toContain(b.address);
  });

  it("pays a payment with no ETH in the wallet (gas top-up first); the indexer turns it completed", async () => {
    const payer = await socialUser("payer@example.com");
    const { address } = await wallet(payer);
    await chain.mint(address, tokens("100"));
    expect(await ethOf(address)).toBe(0n);
    const merchant = await createMerchant(app);
    const payment = await createPayment(app, merchant.cookie, { currency: "CPXTB", amount: "12.5" });
    const res = await call(payer, "POST", "/api/wallet/pay", {
      reference: payment.reference,
      idempotencyKey: "pay-key-0001",
    });
    expect(res.statusCode, res.body).toBe(200);
    const sent = res.json();
    expect(sent).toMatchObject({ kind: "pay", status: "broadcast", paymentReference: payment.reference });
    const receipt = await tools.test.waitForTransactionReceipt({ hash: sent.txHash, pollingInterval: 20 });
    expect(receipt.status).toBe("success");
    expect(await tokenOf(getAddress(merchant.wallet.address))).toBe(BigInt(payment.amountDueBase));
    // Not marked paid by the send: only the indexer's reading of the chain does that.
    expect((await getPayment(app, merchant.cookie, payment.id)).status).toBe("pending");
    await sync();
    expect((await getPayment(app, merchant.cookie, payment.id)).status).toBe("completed");
    const after = await wallet(payer);
    expect(after.balance).toBe(formatUnits(tokens("100") - BigInt(payment.amountDueBase), 18));
    expect(Number(after.ethBalance)).toBeGreaterThan(0);
  });

  it("the same idempotency key sends once, even when two requests race", async () => {
    const payer = await socialUser("racer@example.com");
    const { address } = await wallet(payer);
    await chain.mint(address, tokens("100"));
    const merchant = await createMerchant(app);
    const payment = await createPayment(app, merchant.cookie, { currency: "CPXTB", amount: "3" });
    const body = { reference: payment.reference, idempotencyKey: "race-key-0001" };
    const [r1, r2] = await Promise.all([
      call(payer, "POST", "/api/wallet/pay", body),
      call(payer, "POST", "/api/wallet/pay", body),
    ]);
    expect([r1.statusCode, r2.statusCode], `${r1.body} ${r2.body}`).toEqual([200, 200]);
    expect(r1.json().txHash).toBe(r2.json().txHash);
    const retry = await call(payer, "POST", "/api/wallet/pay", body);
    expect(retry.json().txHash).toBe(r1.json().txHash);
    await tools.test.waitForTransactionReceipt({ hash: r1.json().txHash, pollingInterval: 20 });
    expect(await tokenOf(getAddress(merchant.wallet.address))).toBe(BigInt(payment.amountDueBase));
    expect(await tokenOf(address)).toBe(tokens("100") - BigInt(payment.amountDueBase));
    // Another key for the now-paid payment is refused once the indexer has seen it.
    await sync();
    const second = await call(payer, "POST", "/api/wallet/pay", { ...body, idempotencyKey: "race-key-0002" });
    expect(second.statusCode).toBe(409);
    // The payment's status in `details`, for the payer's screen to say in its own words.
    expect(second.json().error).toMatchObject({
      code: "CONFLICT",
      message: "This payment cannot be paid now (it is completed).",
      details: { reason: "not_payable", status: "completed" },
    });
  });

  it("once per payment, not per key: a second key (another tab, a click after a reload) gets 409 and the first send", async () => {
    const payer = await socialUser("two-tabs@example.com");
    const { address } = await wallet(payer);
    await chain.mint(address, tokens("100"));
    const merchant = await createMerchant(app);
    const payment = await createPayment(app, merchant.cookie, { currency: "CPXTB", amount: "4" });
    const first = await call(payer, "POST", "/api/wallet/pay", {
      reference: payment.reference,
      idempotencyKey: "tab-one-0001",
    });
    expect(first.statusCode, first.body).toBe(200);
    // Before the indexer has seen the transfer: the payment still reads pending, the send is on its way.
    const second = await call(payer, "POST", "/api/wallet/pay", {
      reference: payment.reference,
      idempotencyKey: "tab-two-0001",
    });
    expect(second.statusCode, second.body).toBe(409);
    expect(second.json().error).toMatchObject({
      code: "CONFLICT",
      message: "This payment is already being paid.",
      details: { reason: "payment_in_flight", send: { id: first.json().id, txHash: first.json().txHash } },
    });
    await tools.test.waitForTransactionReceipt({ hash: first.json().txHash, pollingInterval: 20 });
    expect(await tokenOf(getAddress(merchant.wallet.address))).toBe(BigInt(payment.amountDueBase));
  });

  it("20 concurrent pays with 20 keys, from two accounts, send exactly one transfer", async () => {
    const payers = [await socialUser("burst-a@example.com"), await socialUser("burst-b@example.com")];
    for (const payer of payers) await chain.mint((await wallet(payer)).address, tokens("100"));
    const merchant = await createMerchant(app);
    const payment = await createPayment(app, merchant.cookie, { currency: "CPXTB", amount: "2" });
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call(payers[i % 2]!, "POST", "/api/wallet/pay", {
          reference: payment.reference,
          idempotencyKey: `burst-key-${String(i).padStart(4, "0")}`,
        }),
      ),
    );
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses, answers.map((a) => a.body).join("\n")).toEqual([200, ...Array(19).fill(409)]);
    const sent = answers.find((a) => a.statusCode === 200)!.json();
    await tools.test.waitForTransactionReceipt({ hash: sent.txHash, pollingInterval: 20 });
    expect(await tokenOf(getAddress(merchant.wallet.address))).toBe(BigInt(payment.amountDueBase));
    const sends = rowsOf<{ n: string }>(
      await app.database.db.execute(
        sql`select count(*)::text as n from wallet_sends where payment_reference = ${payment.reference}`,
      ),
    );
    expect(sends[0]!.n).toBe("1");
  });

  it("a partial payment's top-up sends only what remains, once, however many ask", async () => {
    const payer = await socialUser("top-up@example.com");
    const { address } = await wallet(payer);
    await chain.mint(address, tokens("100"));
    const merchant = await createMerchant(app);
    const payment = await createPayment(app, merchant.cookie, { currency: "CPXTB", amount: "10" });
    // 4 CPXTB from another wallet, tied to the payment by its hash: partial once confirmed.
    const outside = await tools.pay(await tools.payer(), merchant.wallet.address, tokens("4"));
    const tied = await api(app).post(`/api/payments/public/${payment.reference}/tx`, {
      txHash: outside.hash,
    });
    expect(tied.statusCode, tied.body).toBe(200);
    await tools.mine(2);
    await sync();
    expect((await getPayment(app, merchant.cookie, payment.id)).status).toBe("partial");
    const remaining = BigInt(payment.amountDueBase) - tokens("4");
    const answers = await Promise.all(
      ["top-a-0001", "top-b-0001", "top-c-0001"].map((idempotencyKey) =>
        call(payer, "POST", "/api/wallet/pay", { reference: payment.reference, idempotencyKey }),
      ),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409, 409]);
    const sent = answers.find((a) => a.statusCode === 200)!.json();
    expect(tokens(sent.amount)).toBe(remaining);
    await tools.test.waitForTransactionReceipt({ hash: sent.txHash, pollingInterval: 20 });
    await tools.mine(2);
    await sync();
    const done = await getPayment(app, merchant.cookie, payment.id);
    expect(done.status).toBe("completed");
    expect(await tokenOf(getAddress(merchant.wallet.address))).toBe(BigInt(payment.amountDueBase));
  });

  it.skipIf(!process.env.DATABASE_URL)(
    "two instances on one PostgreSQL: 20 concurrent pays over both send one transfer",
    async () => {
      const second = await buildApp(testConfig({ clientDist: "/nonexistent", ...appConfig }), {
        database: app.database,
        chain: app.chain!,
      });
      try {
        const payer = await socialUser("instances@example.com");
        await chain.mint((await wallet(payer)).address, tokens("100"));
        const merchant = await createMerchant(app);
        const payment = await createPayment(app, merchant.cookie, { currency: "CPXTB", amount: "1.5" });
        const answers = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            (i % 2 ? second : app).inject({
              method: "POST",
              url: "/api/wallet/pay",
              payload: {
                reference: payment.reference,
                idempotencyKey: `inst-key-${String(i).padStart(4, "0")}`,
              },
              headers: { ...HOST, cookie: payer },
            }),
          ),
        );
        expect(answers.map((a) => a.statusCode).sort()).toEqual([200, ...Array(19).fill(409)]);
        const sent = answers.find((a) => a.statusCode === 200)!.json();
        await tools.test.waitForTransactionReceipt({ hash: sent.txHash, pollingInterval: 20 });
        expect(await tokenOf(getAddress(merchant.wallet.address))).toBe(BigInt(payment.amountDueBase));
      } finally {
        await second.close();
      }
    },
  );

  it("the daily limit holds", async () => {
    const holder = await socialUser("limit@example.com");
    const { address } = await wallet(holder);
    await chain.mint(address, tokens("1000"));
    const ok = await call(holder, "POST", "/api/wallet/withdraw", {
      to: address.replace(/.$/, "0"),
      amount: "400",
      idempotencyKey: "limit-0001",
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const over = await call(holder, "POST", "/api/wallet/withdraw", {
      to: address.replace(/.$/, "0"),
      amount: "101",
      idempotencyKey: "limit-0002",
    });
    expect(over.statusCode).toBe(422);
    expect(over.json().error.details).toEqual({ reason: "daily_limit", dailyLimit: "500", spent: "400" });
    const beyond = await call(holder, "POST", "/api/wallet/withdraw", {
      to: address.replace(/.$/, "0"),
      amount: "5000",
      idempotencyKey: "limit-0003",
    });
    expect(beyond.statusCode).toBe(422);
    expect(beyond.json().error.details).toEqual({
      reason: "insufficient_balance",
      balance: expect.stringMatching(/^\d+$/),
      needed: "5000",
    });
  });

  it("a withdrawal needs a sign-in within the last 15 minutes; it reaches the address", async () => {
    const holder = await socialUser("withdraw@example.com");
    const { address } = await wallet(holder);
    await chain.mint(address, tokens("50"));
    const target = privateKeyToAccount(`0x${"77".repeat(32)}`).address;
    const now = Date.now();
    const spy = vi.spyOn(Date, "now").mockReturnValue(now + 16 * 60 * 1000);
    const stale = await call(holder, "POST", "/api/wallet/withdraw", {
      to: target,
      amount: "5",
      idempotencyKey: "withdraw-0001",
    });
    spy.mockRestore();
    expect(stale.statusCode, stale.body).toBe(403);
    expect(stale.json().error.details).toEqual({ reason: "recent_sign_in_required" });
    const fresh = await call(holder, "POST", "/api/wallet/withdraw", {
      to: target,
      amount: "5",
      idempotencyKey: "withdraw-0002",
    });
    expect(fresh.statusCode, fresh.body).toBe(200);
    await tools.test.waitForTransactionReceipt({ hash: fresh.json().txHash, pollingInterval: 20 });
    expect(await tokenOf(target)).toBe(tokens("5"));
  });

  it("signed out or without a managed wallet: 401 / 404 in the error shape", async () => {
    expect((await api(app).get("/api/wallet")).statusCode).toBe(401);
    const merchant = await createMerchant(app);
    const res = await api(app, merchant.cookie).get("/api/wallet");
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe("NOT_FOUND");
    // The profile asks this list, not GET /api/wallet, whether there is a managed wallet to show.
    const none = await api(app, merchant.cookie).get("/api/user/social-accounts");
    expect(none.json()).toEqual({ accounts: [], managedWallet: false });
    const holder = await socialUser("has-wallet@example.com");
    const some = (await call(holder, "GET", "/api/user/social-accounts")).json();
    expect(some.managedWallet).toBe(true);
    expect(some.accounts.map((a: { provider: string }) => a.provider)).toEqual(["google"]);
  });

  it("GET /api/wallet/sends lists only the account's own payments and withdrawals, newest first, page by page", async () => {
    const owner = await socialUser("sends-owner@example.com");
    const other = await socialUser("sends-other@example.com");
    const { address } = await wallet(owner);
    const { address: otherAddress } = await wallet(other);
    await chain.mint(address, tokens("20"));
    await chain.mint(otherAddress, tokens("20"));
    const target = privateKeyToAccount(`0x${"78".repeat(32)}`).address;
    const sent: string[] = [];
    for (const [i, amount] of ["1", "2", "3"].entries()) {
      const res = await call(owner, "POST", "/api/wallet/withdraw", {
        to: target,
        amount,
        idempotencyKey: `sends-owner-${i}`,
      });
      expect(res.statusCode, res.body).toBe(200);
      sent.push(res.json().id);
    }
    const theirs = await call(other, "POST", "/api/wallet/withdraw", {
      to: target,
      amount: "4",
      idempotencyKey: "sends-other-0",
    });
    expect(theirs.statusCode, theirs.body).toBe(200);

    // The first withdrawal needed gas: its top-up row is the owner's too, and is not listed.
    const first = await call(owner, "GET", "/api/wallet/sends?limit=2");
    expect(first.statusCode, first.body).toBe(200);
    expect(first.headers["cache-control"]).toBe("no-store");
    const page1 = first.json();
    expect(page1.items.map((s: { id: string }) => s.id)).toEqual([sent[2], sent[1]]);
    expect(page1.items[0]).toMatchObject({
      kind: "withdraw",
      // Mined at once on this chain: confirmed when enough blocks followed (the next test is about that).
      status: expect.stringMatching(/^(broadcast|confirmed)$/),
      to: target,
      amount: "3",
      paymentReference: null,
      txUrl: null,
    });
    expect(page1.items[0].txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(Date.parse(page1.items[0].createdAt)).not.toBeNaN();
    expect(page1.nextCursor).toBe(sent[1]);
    const page2 = (await call(owner, "GET", `/api/wallet/sends?limit=2&cursor=${page1.nextCursor}`)).json();
    expect(page2.items.map((s: { id: string }) => s.id)).toEqual([sent[0]]);
    expect(page2.nextCursor).toBeNull();

    // The other account sees its own send only, whatever the cursor.
    const mine = (await call(other, "GET", "/api/wallet/sends")).json();
    expect(mine.items.map((s: { id: string }) => s.id)).toEqual([theirs.json().id]);
    const probe = (await call(other, "GET", `/api/wallet/sends?cursor=wsd_${"z".repeat(26)}`)).json();
    expect(probe.items.map((s: { id: string }) => s.id)).toEqual([theirs.json().id]);

    // Signed out: 401; bad input: 400 in the error shape.
    const anonymous = await api(app).get("/api/wallet/sends");
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().error.code).toBe("UNAUTHENTICATED");
    for (const query of ["limit=0", "limit=51", "cursor=nope"]) {
      const bad = await call(owner, "GET", `/api/wallet/sends?${query}`);
      expect(bad.statusCode, query).toBe(400);
      expect(bad.json().error.message).toEqual(expect.any(String));
    }
  });

  it("a send on the network ends confirmed once mined with the chain's confirmations, with its transaction", async () => {
    const holder = await socialUser("confirm@example.com");
    const { address } = await wallet(holder);
    await chain.mint(address, tokens("20"));
    // Gas in the wallet already: nothing waits for a top-up while blocks are mined by hand.
    await tools.test.setBalance({ address, value: 10n ** 18n });
    const target = privateKeyToAccount(`0x${"3e".repeat(32)}`).address;
    const before = await tokenOf(target);
    const confirmations = Math.max(appConfig.chain?.confirmations ?? testConfig().chain.confirmations, 1);
    const listed = async (id: string) =>
      (
        (await call(holder, "GET", "/api/wallet/sends")).json() as {
          items: { id: string; status: string; txHash: string }[];
        }
      ).items.find((s) => s.id === id)!;
    await tools.test.setAutomine(false);
    try {
      const res = await call(holder, "POST", "/api/wallet/withdraw", {
        to: target,
        amount: "2",
        idempotencyKey: "confirm-0001",
      });
      expect(res.statusCode, res.body).toBe(200);
      const sent = res.json() as { id: string; status: string; txHash: string };
      expect(sent.status).toBe("broadcast");
      // In the pool, not mined: still on its way.
      expect((await listed(sent.id)).status).toBe("broadcast");
      await tools.test.mine({ blocks: 1 });
      if (confirmations > 1) {
        expect((await listed(sent.id)).status).toBe("broadcast");
        await tools.test.mine({ blocks: confirmations - 1 });
      }
      const done = await listed(sent.id);
      expect(done).toMatchObject({ status: "confirmed", txHash: sent.txHash });
      expect(await tokenOf(target)).toBe(before + tokens("2"));
      // Final: read again (and as the same request again), it stays confirmed.
      expect((await listed(sent.id)).status).toBe("confirmed");
      const again = await call(holder, "POST", "/api/wallet/withdraw", {
        to: target,
        amount: "2",
        idempotencyKey: "confirm-0001",
      });
      expect(again.json()).toMatchObject({ id: sent.id, status: "confirmed" });
    } finally {
      await tools.test.setAutomine(true);
    }
  });

  it("no private key appears in any response or any table", async () => {
    const root = HDKey.fromMasterSeed(Buffer.from(SEED.slice(2), "hex"));
    const secrets = [
      SEED.slice(2),
      ...[0, 1, 2, 3, 4, 5, 6, 7].map((i) => toHex(root.derive(`m/44'/60'/0'/0/${i}`).privateKey!).slice(2)),
    ];
    const tables = rowsOf<{ name: string }>(
      await app.database.db.execute(sql`select tablename as name from pg_tables where schemaname = 'public'`),
    ).map((t) => t.name);
    let dump = "";
    for (const table of tables) {
      dump += JSON.stringify(rowsOf(await app.database.db.execute(sql.raw(`select * from "${table}"`))));
    }
    const everything = `${bodies.join("\n")}\n${dump}`.toLowerCase();
    expect(dump.length).toBeGreaterThan(1000);
    for (const secret of secrets) expect(everything).not.toContain(secret.toLowerCase());
  });
});
