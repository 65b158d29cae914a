import { eq } from "drizzle-orm";
import {
  type Address,
  createTestClient,
  createWalletClient,
  erc20Abi,
  type Hex,
  http,
  parseAbiItem,
  parseEther,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../src/app.ts";
import { ANVIL_DEV_KEYS, DEV_TREASURY_INDEX } from "../src/chain/dev-chain.ts";
import type { Chain } from "../src/chain/service.ts";
import { testConfig } from "../src/config.ts";
import { treasurySends } from "../src/db/schema.ts";
import { connectTestChain, startTestChain, type TestChain, tokens } from "./chain-helpers.ts";
import { createTestApp } from "./helpers.ts";
import { api, createClock, paymentTestConfig } from "./payment-helpers.ts";

const TREASURY_KEY = ANVIL_DEV_KEYS[DEV_TREASURY_INDEX]!;
const TREASURY = privateKeyToAccount(TREASURY_KEY).address;

let testChain: TestChain;
let chain: Chain;
let app: App;
const clock = createClock();
const anvil = () => createTestClient({ mode: "anvil", chain: foundry, transport: http(testChain.url) });

beforeAll(async () => {
  testChain = await startTestChain();
  // No price cache: the stale-price test moves the feed.
  chain = await connectTestChain(testChain.url, testChain.deployment, { price: { cacheMs: 0 } });
  await testChain.mint(TREASURY, tokens("100000"));
  app = await createTestApp(
    {
      ...paymentTestConfig(),
      treasury: { ...testConfig().treasury, privateKey: TREASURY_KEY },
    },
    { chain, treasury: { now: clock.now } },
  );
});
afterAll(async () => {
  await chain?.close();
  await testChain?.stop();
});

type Order = {
  id: string;
  status: string;
  ethAmountWei: string;
  tokenAmountBase: string;
  treasuryAddress: string;
  problem: string | null;
  refundDue: boolean;
  delivery: { status: string; txHash: string | null } | null;
};

async function newBuyer() {
  const account = privateKeyToAccount(generatePrivateKey());
  await anvil().setBalance({ address: account.address, value: parseEther("10") });
  const wallet = createWalletClient({ account, chain: foundry, transport: http(testChain.url) });
  return {
    address: account.address,
    pay: (value: bigint, to: Address = TREASURY) => wallet.sendTransaction({ to, value }),
  };
}
async function order(buyerAddress: string, body: Record<string, unknown> = { usd: "25" }): Promise<Order> {
  const res = await api(app).post("/api/buy/orders", { method: "eth", buyerAddress, ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as Order;
}
const getOrder = async (id: string) => (await api(app).get(`/api/buy/orders/${id}`)).json() as Order;
const submit = (id: string, txHash: Hex) => api(app).post(`/api/buy/orders/${id}/tx`, { txHash });
const waitReceipt = (hash: Hex) => chain.client.waitForTransactionReceipt({ hash, pollingInterval: 20 });
const tokenBalance = (address: Address) =>
  chain.client.readContract({
    address: chain.token.address,
    abi: erc20Abi,
    functionName: "balanceOf",
    args: [address],
  });
async function transfersTo(to: Address) {
  return chain.client.getLogs({
    address: chain.token.address,
    event: parseAbiItem("event Transfer(address indexed from, address indexed to, uint256 value)"),
    args: { to },
    fromBlock: 0n,
  });
}
/** Treasury passes until the order is delivered (each pass: scan, sign, confirm). */
async function settle(times = 3) {
  for (let i = 0; i < times; i++) await app.treasury!.runOnce();
}

describe("quotes", () => {
  it("quotes USD and tokens both ways at the server price, with the exact ETH", async () => {
    const byUsd = await api(app).post("/api/buy/quote", { usd: "25" });
    expect(byUsd.statusCode, byUsd.body).toBe(200);
    // 0.01 USD per CPXTB (fixed development price), 2,000 USD per ETH (development feed).
    expect(byUsd.json()).toMatchObject({ usd: "25", tokens: "2500", eth: "0.0125", ethUsd: "2000" });
    const byTokens = await api(app).post("/api/buy/quote", { tokens: "1234.5" });
    expect(byTokens.json()).toMatchObject({ usd: "12.35", tokens: "1234.5" });
  });

  it("refuses orders under the minimum and over the maximum", async () => {
    const low = await api(app).post("/api/buy/quote", { usd: "0.50" });
    expect(low.statusCode).toBe(400);
    expect(low.json().error.message).toMatch(/minimum order is \$1/);
    const high = await api(app).post("/api/buy/quote", { usd: "5000" });
    expect(high.statusCode).toBe(400);
    expect(high.json().error.message).toMatch(/maximum order is \$1000/);
    const both = await api(app).post("/api/buy/quote", { usd: "5", tokens: "5" });
    expect(both.statusCode).toBe(400);
  });

  it("exposes the treasury and methods in the buy config; PayPal hidden without credentials", async () => {
    const res = await api(app).get("/api/buy/config");
    expect(res.json()).toMatchObject({
      available: true,
      treasuryAddress: TREASURY,
      methods: { eth: true, paypal: false },
      quoteMinutes: 10,
    });
  });
});

describe("ETH purchases", () => {
  it("delivers exactly the quoted CPXTB for an exact payment submitted by hash", async () => {
    const buyer = await newBuyer();
    const o = await order(buyer.address);
    expect(o).toMatchObject({
      status: "quoted",
      ethAmountWei: "12500000000000000",
      treasuryAddress: TREASURY,
    });
    const hash = await buyer.pay(BigInt(o.ethAmountWei));
    await waitReceipt(hash);
    const res = await submit(o.id, hash);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().status).toBe("paid");
    await settle();
    const done = await getOrder(o.id);
    expect(done.status).toBe("delivered");
    expect(done.delivery?.status).toBe("confirmed");
    expect(await tokenBalance(buyer.address)).toBe(tokens("2500"));
    expect(await transfersTo(buyer.address)).toHaveLength(1);
  });

  it("a closed tab still gets its tokens: the scanner finds the payment", async () => {
    const buyer = await newBuyer();
    const o = await order(buyer.address, { tokens: "1000" });
    await waitReceipt(await buyer.pay(BigInt(o.ethAmountWei)));
    await settle();
    expect((await getOrder(o.id)).status).toBe("delivered");
    expect(await tokenBalance(buyer.address)).toBe(tokens("1000"));
  });

  it("two confirmation handlers racing deliver once", async () => {
    const buyer = await newBuyer();
    const o = await order(buyer.address);
    const hash = await buyer.pay(BigInt(o.ethAmountWei));
    await waitReceipt(hash);
    const [a, b] = await Promise.all([submit(o.id, hash), submit(o.id, hash), app.treasury!.runOnce()]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    await settle();
    const sends = await app.database.db.select().from(treasurySends).where(eq(treasurySends.refId, o.id));
    expect(sends).toHaveLength(1);
    expect(await transfersTo(buyer.address)).toHaveLength(1);
    expect(await tokenBalance(buyer.address)).toBe(tokens("2500"));
  });

  it("the same order retried after delivery stays delivered once", async () => {
    const buyer = await newBuyer();
    const o = await order(buyer.address);
    const hash = await buyer.pay(BigInt(o.ethAmountWei));
    await waitReceipt(hash);
    await submit(o.id, hash);
    await settle();
    const again = await submit(o.id, hash);
    expect(again.statusCode).toBe(200);
    expect(again.json().status).toBe("delivered");
    await settle();
    expect(await transfersTo(buyer.address)).toHaveLength(1);
  });

  it("one ETH transaction cannot pay a second order", async () => {
    const buyer = await newBuyer();
    const first = await order(buyer.address);
    const second = await order(buyer.address);
    const hash = await buyer.pay(BigInt(first.ethAmountWei));
    await waitReceipt(hash);
    expect((await submit(first.id, hash)).statusCode).toBe(200);
    const reuse = await submit(second.id, hash);
    expect(reuse.statusCode).toBe(409);
    expect(reuse.json().error.message).toMatch(/already paid another order/);
    await settle();
    expect((await getOrder(second.id)).status).toBe("quoted");
    expect(await transfersTo(buyer.address)).toHaveLength(1);
  });

  it("an underpayment is listed for refund and delivers nothing", async () => {
    const buyer = await newBuyer();
    const o = await order(buyer.address);
    const hash = await buyer.pay(BigInt(o.ethAmountWei) - 1n);
    await waitReceipt(hash);
    const res = await submit(o.id, hash);
    expect(res.json()).toMatchObject({ status: "underpaid", refundDue: true });
    expect(res.json().problem).toMatch(/listed for refund/);
    await settle();
    expect(await transfersTo(buyer.address)).toHaveLength(0);
  });

  it("a payment from another wallet is listed for refund and delivers nothing", async () => {
    const buyer = await newBuyer();
    const stranger = await newBuyer();
    const o = await order(buyer.address);
    const hash = await stranger.pay(BigInt(o.ethAmountWei));
    await waitReceipt(hash);
    const res = await submit(o.id, hash);
    expect(res.json()).toMatchObject({ status: "wrong_sender", refundDue: true });
    await settle();
    expect(await transfersTo(buyer.address)).toHaveLength(0);
    expect(await transfersTo(stranger.address)).toHaveLength(0);
  });

  it("a transaction to another address is refused", async () => {
    const buyer = await newBuyer();
    const o = await order(buyer.address);
    const hash = await buyer.pay(BigInt(o.ethAmountWei), privateKeyToAccount(generatePrivateKey()).address);
    await waitReceipt(hash);
    const res = await submit(o.id, hash);
    expect(res.statusCode).toBe(422);
    expect((await getOrder(o.id)).status).toBe("quoted");
  });

  it("a stale price refuses quotes and orders with a clear message", async () => {
    await testChain.setFeed(2000n * 10n ** 8n, 1000n);
    try {
      const res = await api(app).post("/api/buy/quote", { usd: "25" });
      expect(res.statusCode).toBe(503);
      expect(res.json().error.message).toMatch(/stale/);
      const buyer = await newBuyer();
      const o = await api(app).post("/api/buy/orders", {
        method: "eth",
        buyerAddress: buyer.address,
        usd: "25",
      });
      expect(o.statusCode).toBe(503);
    } finally {
      await testChain.setFeed(2000n * 10n ** 8n);
    }
  });

  // Last: it moves the chain's clock forward.
  it("an expired quote: unpaid shows expired; paid after expiry is late, listed for refund, not delivered", async () => {
    const buyer = await newBuyer();
    const unpaid = await order(buyer.address);
    const o = await order(buyer.address);
    clock.advance(11 * 60_000);
    await settle(1);
    expect((await getOrder(unpaid.id)).status).toBe("expired");
    const block = await chain.client.getBlock();
    await anvil().setNextBlockTimestamp({ timestamp: block.timestamp + 11n * 60n });
    const hash = await buyer.pay(BigInt(o.ethAmountWei));
    await waitReceipt(hash);
    const res = await submit(o.id, hash);
    expect(res.json()).toMatchObject({ status: "late", refundDue: true });
    await settle();
    expect(await transfersTo(buyer.address)).toHaveLength(0);
  });
});
