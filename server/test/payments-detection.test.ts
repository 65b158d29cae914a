import { getAddress } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../src/app.ts";
import { connectChain } from "../src/chain/service.ts";
import { chainConfigFor, startTestChain, type TestChain } from "./chain-helpers.ts";
import { createTestApp } from "./helpers.ts";
import {
  api,
  chainTools,
  createClock,
  createMerchant,
  createPayment,
  getPayment,
  paymentTestConfig,
  type TestMerchant,
} from "./payment-helpers.ts";

let chain: TestChain;
let app: App;
let tools: ReturnType<typeof chainTools>;
let merchant: TestMerchant;
const clock = createClock();
/** The public read cache's clock, which one test stops (null: the wall clock). */
let cacheClockStoppedAt: number | null = null;
const CONFIRMATIONS = 2;

beforeAll(async () => {
  chain = await startTestChain();
  tools = chainTools(chain);
  const connected = await connectChain(
    chainConfigFor(chain.url, chain.deployment, { confirmations: CONFIRMATIONS }),
  );
  app = await createTestApp(paymentTestConfig(), {
    chain: connected,
    payments: { now: clock.now, publicCacheClock: () => cacheClockStoppedAt ?? Date.now() },
  });
  merchant = await createMerchant(app);
  await app.payments.indexer!.runOnce();
});
afterAll(async () => {
  await chain?.stop();
});

const sync = () => app.payments.indexer!.runOnce();
const status = async (id: string) => (await getPayment(app, merchant.cookie, id)).status;

describe("detection by the indexer", () => {
  it("exact pay: processing, then completed after the confirmations, timeline with causes", async () => {
    const payment = await createPayment(app, merchant.cookie);
    const payer = await tools.payer();
    await tools.pay(payer, merchant.wallet.address, payment.amountDueBase);
    await sync();
    expect(await status(payment.id)).toBe("processing");
    await tools.mine(CONFIRMATIONS - 1);
    await sync();
    const done = await getPayment(app, merchant.cookie, payment.id);
    expect(done.status).toBe("completed");
    expect(done.amountReceivedBase).toBe(payment.amountDueBase);
    expect(done.overpaid).toBe(false);
    expect(done.timeline.map((t) => t.to)).toEqual(["pending", "processing", "completed"]);
    expect(done.timeline[1]!.cause).toMatch(/^transfer 0x[0-9a-f]{64} \(log \d+\) in block \d+$/);
  });

  it("two payments of the same price get different amounts; one transfer completes exactly one", async () => {
    const a = await createPayment(app, merchant.cookie);
    const b = await createPayment(app, merchant.cookie);
    expect(a.amountDueBase).not.toBe(b.amountDueBase);
    const payer = await tools.payer();
    await tools.pay(payer, merchant.wallet.address, b.amountDueBase);
    await tools.mine(CONFIRMATIONS);
    await sync();
    expect(await status(b.id)).toBe("completed");
    expect(await status(a.id)).toBe("pending");
  });
});

const ref = (p: { reference: string }) => `/api/payments/public/${p.reference}`;
const submit = (p: { reference: string }, txHash: string) => api(app).post(`${ref(p)}/tx`, { txHash });

describe("amounts that differ", () => {
  it("underpay -> partial after confirmations; the top-up through the fast path completes it", async () => {
    const payment = await createPayment(app, merchant.cookie);
    const due = BigInt(payment.amountDueBase);
    const payer = await tools.payer();
    const first = await tools.pay(payer, merchant.wallet.address, due - 10n ** 18n);
    // An amount that matches nothing: the indexer puts it in the inbox; the pay page posts the tx hash.
    expect((await submit(payment, first.hash)).statusCode).toBe(200);
    await tools.mine(CONFIRMATIONS);
    await sync();
    const partial = await getPayment(app, merchant.cookie, payment.id);
    expect(partial.status).toBe("partial");
    expect(partial.amountReceivedBase).toBe((due - 10n ** 18n).toString());
    const topUp = await tools.pay(payer, merchant.wallet.address, 10n ** 18n);
    const res = await submit(payment, topUp.hash);
    expect(res.statusCode).toBe(200);
    expect(res.json().status).toBe("processing");
    await tools.mine(CONFIRMATIONS);
    await sync();
    const done = await getPayment(app, merchant.cookie, payment.id);
    expect(done.status).toBe("completed");
    expect(done.amountReceivedBase).toBe(due.toString());
    expect(done.transfers).toHaveLength(2);
  });

  it("overpay -> completed with the overpaid flag and the excess", async () => {
    const payment = await createPayment(app, merchant.cookie);
    const payer = await tools.payer();
    const excess = 5n * 10n ** 18n;
    const { hash } = await tools.pay(payer, merchant.wallet.address, BigInt(payment.amountDueBase) + excess);
    expect((await submit(payment, hash)).statusCode).toBe(200);
    await tools.mine(CONFIRMATIONS);
    await sync();
    const done = await getPayment(app, merchant.cookie, payment.id);
    expect(done).toMatchObject({ status: "completed", overpaid: true, overpaidBase: excess.toString() });
  });

  it("an unknown amount lands in the inbox; the merchant assigns it, nobody else can", async () => {
    const payment = await createPayment(app, merchant.cookie);
    const payer = await tools.payer();
    const { hash } = await tools.pay(payer, merchant.wallet.address, 123_456_789n);
    await tools.mine(CONFIRMATIONS);
    await sync();
    const inbox = (await api(app, merchant.cookie).get("/api/merchant/inbox")).json().items as {
      id: string;
      txHash: string;
    }[];
    const item = inbox.find((t) => t.txHash === hash)!;
    expect(item).toBeDefined();
    const stranger = await createMerchant(app);
    expect((await api(app, stranger.cookie).get("/api/merchant/inbox")).json().items).toEqual([]);
    const stolen = await api(app, stranger.cookie).post(`/api/merchant/inbox/${item.id}/assign`, {
      paymentId: payment.id,
    });
    expect(stolen.statusCode).toBe(404);
    const res = await api(app, merchant.cookie).post(`/api/merchant/inbox/${item.id}/assign`, {
      paymentId: payment.id,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: "partial", amountReceivedBase: "123456789" });
    const again = await api(app, merchant.cookie).post(`/api/merchant/inbox/${item.id}/assign`, {
      paymentId: payment.id,
    });
    expect(again.statusCode).toBe(409);
    expect(
      (await api(app, merchant.cookie).get("/api/merchant/inbox"))
        .json()
        .items.map((t: { id: string }) => t.id),
    ).not.toContain(item.id);
  });
});

describe("the public read (cached per instance)", () => {
  it("a pay page's read shows the new state as soon as the payment's event is out, not after the cache's time", async () => {
    const payment = await createPayment(app, merchant.cookie);
    const read = async () => (await api(app).get(ref(payment))).json() as Promise<{ status: string }>;
    // The cache's clock stands still: an entry can change only because an event dropped it, never because its
    // time ran out, however long a busy machine takes between the steps.
    cacheClockStoppedAt = Date.now();
    try {
      // Read twice: the second answer comes from the cache.
      expect((await read()).status).toBe("pending");
      expect((await read()).status).toBe("pending");
      const payer = await tools.payer();
      await tools.pay(payer, merchant.wallet.address, payment.amountDueBase);
      await tools.mine(CONFIRMATIONS - 1);
      await sync();
      expect(await status(payment.id)).toBe("completed");
      // The event is published right after the commit; the cached view is dropped when it is heard.
      await expect
        .poll(async () => (await read()).status, { timeout: 10_000, interval: 20 })
        .toBe("completed");
    } finally {
      cacheClockStoppedAt = null;
    }
  });
});

describe("fast path refusals", () => {
  it("refuses another token, another address, a reverted tx, an unknown tx and one credited elsewhere; nothing changes", async () => {
    const payment = await createPayment(app, merchant.cookie);
    const payer = await tools.payer();
    const other = await chain.deployToken("OTH", 18);
    await chain.mint(payer.address, 10n ** 24n, other);
    const otherToken = await tools.pay(payer, merchant.wallet.address, payment.amountDueBase, other);
    expect((await submit(payment, otherToken.hash)).statusCode).toBe(422);
    const elsewhere = privateKeyToAccount(generatePrivateKey()).address;
    const otherAddress = await tools.pay(payer, elsewhere, payment.amountDueBase);
    expect((await submit(payment, otherAddress.hash)).statusCode).toBe(422);
    const poor = await tools.payer(1n);
    const reverted = await tools.pay(
      poor,
      merchant.wallet.address,
      payment.amountDueBase,
      undefined,
      100_000n,
    );
    expect(reverted.receipt.status).toBe("reverted");
    expect((await submit(payment, reverted.hash)).statusCode).toBe(422);
    expect((await submit(payment, `0x${"ab".repeat(32)}`)).statusCode).toBe(404);
    expect((await submit(payment, "0x1234")).statusCode).toBe(400);

    const first = await createPayment(app, merchant.cookie);
    const paid = await tools.pay(payer, merchant.wallet.address, first.amountDueBase);
    await sync();
    const res = await submit(payment, paid.hash);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.code).toBe("CONFLICT");
    expect(await status(payment.id)).toBe("pending");
    expect((await getPayment(app, merchant.cookie, payment.id)).transfers).toEqual([]);
    expect(await status(first.id)).toBe("processing");
  });
});

describe("two transfers in one transaction", () => {
  it("credits each log to its own payment", async () => {
    const { compileSplitter } = await import("./payment-helpers.ts");
    const splitter = await compileSplitter();
    const payer = await tools.payer();
    const { createWalletClient, http, erc20Abi } = await import("viem");
    const { foundry } = await import("viem/chains");
    const wallet = createWalletClient({ chain: foundry, account: payer, transport: http(chain.url) });
    const deployHash = await wallet.deployContract({ abi: splitter.abi, bytecode: splitter.bytecode });
    const address = (await tools.test.waitForTransactionReceipt({ hash: deployHash })).contractAddress!;
    const approve = await wallet.writeContract({
      address: chain.deployment.token,
      abi: erc20Abi,
      functionName: "approve",
      args: [address, 10n ** 30n],
    });
    await tools.test.waitForTransactionReceipt({ hash: approve });
    const a = await createPayment(app, merchant.cookie);
    const b = await createPayment(app, merchant.cookie);
    const hash = await wallet.writeContract({
      address,
      abi: splitter.abi,
      functionName: "split",
      args: [
        chain.deployment.token,
        [merchant.wallet.address, merchant.wallet.address],
        [BigInt(a.amountDueBase), BigInt(b.amountDueBase)],
      ],
    });
    await tools.test.waitForTransactionReceipt({ hash });
    await tools.mine(CONFIRMATIONS);
    await sync();
    const [pa, pb] = [
      await getPayment(app, merchant.cookie, a.id),
      await getPayment(app, merchant.cookie, b.id),
    ];
    expect([pa.status, pb.status]).toEqual(["completed", "completed"]);
    expect(pa.transfers[0]!.txHash).toBe(hash);
    expect(pb.transfers[0]!.txHash).toBe(hash);
    // Posting that hash to a third payment finds every log of it credited.
    const c = await createPayment(app, merchant.cookie);
    expect((await submit(c, hash)).statusCode).toBe(409);
  });
});

describe("expiry", () => {
  it("expires on time; paid inside the monitoring window -> paid_late", async () => {
    const payment = await createPayment(app, merchant.cookie, { expiresInMinutes: 1 });
    const { expiresAt } = (await getPayment(app, merchant.cookie, payment.id)) as unknown as {
      expiresAt: string;
    };
    const secondsPast = (seconds: number) => BigInt(Math.ceil(Date.parse(expiresAt) / 1000) + seconds);
    await app.payments.expireNow();
    expect(await status(payment.id)).toBe("pending");
    // The chain's time decides (PAYMENTS.md, States): a block after the expiry, indexed.
    clock.advance(61_000);
    await tools.test.setNextBlockTimestamp({ timestamp: secondsPast(1) });
    await tools.mine(1);
    await sync();
    await app.payments.expireNow();
    expect(await status(payment.id)).toBe("expired");
    const payer = await tools.payer();
    await tools.test.setNextBlockTimestamp({ timestamp: secondsPast(30) });
    await tools.pay(payer, merchant.wallet.address, payment.amountDueBase);
    await tools.mine(CONFIRMATIONS);
    await sync();
    const late = await getPayment(app, merchant.cookie, payment.id);
    expect(late.status).toBe("paid_late");
    expect(late.timeline.map((t) => t.to)).toEqual(["pending", "expired", "paid_late"]);
  });
});

describe("reorgs", () => {
  /** Signs once, so the very same transaction (same hash) can be mined again after the revert. */
  async function signedTransfer(to: `0x${string}`, amount: string) {
    const payer = await tools.payer();
    const { createWalletClient, http, erc20Abi, encodeFunctionData } = await import("viem");
    const { foundry } = await import("viem/chains");
    const wallet = createWalletClient({ chain: foundry, account: payer, transport: http(chain.url) });
    const request = await wallet.prepareTransactionRequest({
      to: chain.deployment.token,
      data: encodeFunctionData({ abi: erc20Abi, functionName: "transfer", args: [to, BigInt(amount)] }),
      gas: 100_000n,
      maxFeePerGas: 10n ** 11n,
      maxPriorityFeePerGas: 10n ** 9n,
    });
    const raw = await wallet.signTransaction(request);
    return async () => {
      const hash = await tools.test.sendRawTransaction({ serializedTransaction: raw });
      await tools.test.waitForTransactionReceipt({ hash, pollingInterval: 20 });
      return hash;
    };
  }

  it("a reorg un-credits a processing payment; the re-mined log credits it once", async () => {
    const payment = await createPayment(app, merchant.cookie);
    const send = await signedTransfer(merchant.wallet.address, payment.amountDueBase);
    await sync();
    const snapshot = await tools.snapshot();
    const hash = await send();
    await sync();
    expect(await status(payment.id)).toBe("processing");
    await tools.revert(snapshot);
    await tools.mine(2);
    await sync();
    const back = await getPayment(app, merchant.cookie, payment.id);
    expect(back.status).toBe("pending");
    expect(back.transfers).toEqual([expect.objectContaining({ txHash: hash, orphaned: true })]);
    expect(await send()).toBe(hash);
    await tools.mine(CONFIRMATIONS);
    await sync();
    const done = await getPayment(app, merchant.cookie, payment.id);
    expect(done.status).toBe("completed");
    expect(done.transfers).toEqual([expect.objectContaining({ txHash: hash, orphaned: false })]);
    expect(done.amountReceivedBase).toBe(payment.amountDueBase);
    // Mined and confirmed before the indexer looked again: straight to completed.
    expect(done.timeline.map((t) => t.to)).toEqual(["pending", "processing", "pending", "completed"]);
  });

  it("a reorg deeper than the confirmations makes a completed payment invalid; the log mined again restores it", async () => {
    const payment = await createPayment(app, merchant.cookie);
    const send = await signedTransfer(merchant.wallet.address, payment.amountDueBase);
    await sync();
    const snapshot = await tools.snapshot();
    await send();
    await tools.mine(CONFIRMATIONS);
    await sync();
    expect(await status(payment.id)).toBe("completed");
    await tools.revert(snapshot);
    await tools.mine(5);
    await sync();
    const invalid = await getPayment(app, merchant.cookie, payment.id);
    expect(invalid.status).toBe("invalid");
    expect(invalid.amountReceivedBase).toBe("0");
    expect(invalid.timeline.at(-1)!.cause).toMatch(/reorganisation/);
    await send();
    await tools.mine(CONFIRMATIONS);
    await sync();
    const restored = await getPayment(app, merchant.cookie, payment.id);
    expect(restored.status).toBe("completed");
    expect(restored.transfers).toHaveLength(1);
  });
});

describe("indexer outages", () => {
  it("stopped while payments are made, then restarted from its stored cursor: all detected, none twice", async () => {
    const made = [
      await createPayment(app, merchant.cookie),
      await createPayment(app, merchant.cookie),
      await createPayment(app, merchant.cookie),
    ];
    const payer = await tools.payer();
    for (const p of made) await tools.pay(payer, merchant.wallet.address, p.amountDueBase);
    await tools.mine(CONFIRMATIONS);
    // A new indexer over the same database, as after a restart of the server.
    const { TransferIndexer } = await import("../src/chain/indexer.ts");
    const { createPaymentsSink } = await import("../src/modules/payments/service.ts");
    const restarted = new TransferIndexer({
      db: app.database.db,
      client: app.chain!.client,
      chainId: app.chain!.chainId,
      token: app.chain!.token.address,
      sink: createPaymentsSink(
        {
          db: app.database.db,
          chain: app.chain,
          config: (await import("../src/config.ts")).testConfig(),
          now: clock.now,
          notify: () => {},
        },
        app.chain!,
      ),
      maxRange: 2,
      pollMs: 50,
      log: app.log,
    });
    await restarted.runOnce();
    await restarted.runOnce();
    await sync();
    for (const p of made) {
      const detail = await getPayment(app, merchant.cookie, p.id);
      expect(detail.status).toBe("completed");
      expect(detail.transfers).toHaveLength(1);
      expect(detail.timeline.filter((t) => t.to === "completed")).toHaveLength(1);
    }
  });

  it("RPC unreachable for a while: no crash, the error is reported, and it catches up", async () => {
    const { startRpcProxy } = await import("./chain-helpers.ts");
    const { TransferIndexer } = await import("../src/chain/indexer.ts");
    const { createPaymentsSink } = await import("../src/modules/payments/service.ts");
    const proxy = await startRpcProxy(chain.url);
    const flaky = await connectChain(
      chainConfigFor(proxy.url, chain.deployment, { confirmations: CONFIRMATIONS, rpcTimeoutMs: 1000 }),
    );
    const indexer = new TransferIndexer({
      db: app.database.db,
      client: flaky.client,
      chainId: flaky.chainId,
      token: flaky.token.address,
      sink: createPaymentsSink(
        {
          db: app.database.db,
          chain: flaky,
          config: (await import("../src/config.ts")).testConfig(),
          now: clock.now,
          notify: () => {},
        },
        flaky,
      ),
      maxRange: 500,
      pollMs: 20,
      log: { info() {}, warn() {}, error() {} },
    });
    try {
      indexer.start();
      proxy.setMode("hang");
      const payment = await createPayment(app, merchant.cookie);
      const payer = await tools.payer();
      await tools.pay(payer, merchant.wallet.address, payment.amountDueBase);
      await tools.mine(CONFIRMATIONS);
      await expect.poll(() => indexer.health().lastError, { timeout: 15_000, interval: 50 }).not.toBeNull();
      expect(indexer.health().healthy).toBe(false);
      proxy.setMode("pass");
      await expect.poll(() => status(payment.id), { timeout: 10_000, interval: 100 }).toBe("completed");
      expect(indexer.health()).toMatchObject({ running: true, healthy: true, lagBlocks: 0 });
    } finally {
      await indexer.stop();
      await proxy.close();
    }
  });
});

describe("readiness", () => {
  it("reports the indexer in /api/ready", async () => {
    const res = await app.inject({ url: "/api/ready" });
    expect(res.statusCode).toBe(200);
    expect(res.json().indexer).toMatchObject({ role: "stopped", lastError: null });
    expect(res.json().indexer.lastBlock).toMatch(/^\d+$/);
  });
});

// Last: it moves the chain's clock a day ahead.
describe("after the monitoring window", () => {
  it("a transfer after the window goes to the inbox; the amount is free again", async () => {
    const payment = await createPayment(app, merchant.cookie, { expiresInMinutes: 1 });
    const day = 25 * 60 * 60 * 1000;
    clock.advance(day);
    // The chain's time moves a day too (a block, indexed): the payment expires and leaves its window.
    await tools.test.increaseTime({ seconds: day / 1000 });
    await tools.mine(1);
    await sync();
    await app.payments.expireNow();
    const expired = await getPayment(app, merchant.cookie, payment.id);
    expect(expired.status).toBe("expired");
    const payer = await tools.payer();
    const { hash } = await tools.pay(payer, getAddress(merchant.wallet.address), payment.amountDueBase);
    await tools.mine(CONFIRMATIONS);
    await sync();
    expect(await status(payment.id)).toBe("expired");
    const inbox = (await api(app, merchant.cookie).get("/api/merchant/inbox")).json().items as {
      txHash: string;
    }[];
    expect(inbox.map((t) => t.txHash)).toContain(hash);
  });
});
