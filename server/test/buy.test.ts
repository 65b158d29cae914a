import { eq } from "drizzle-orm";
import {
  type Address,
  createTestClient,
  createWalletClient,
  erc20Abi,
  formatEther,
  type Hex,
  http,
  parseAbiItem,
  parseEther,
} from "viem";
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../src/app.ts";
import { ANVIL_DEV_KEYS, DEV_TREASURY_INDEX } from "../src/chain/dev-chain.ts";
import type { Chain } from "../src/chain/service.ts";
import { type Config, testConfig } from "../src/config.ts";
import { buyOrders, treasuryReceipts, treasurySends, userWallets } from "../src/db/schema.ts";
import { createManagedWallets } from "../src/modules/wallet/service.ts";
import { connectTestChain, startTestChain, type TestChain, tokens } from "./chain-helpers.ts";
import { createTestApp } from "./helpers.ts";
import { api, createClock, paymentTestConfig, signUp } from "./payment-helpers.ts";
import { TestSocket } from "./ws-client.ts";

const TREASURY_KEY = ANVIL_DEV_KEYS[DEV_TREASURY_INDEX]!;
const TREASURY = privateKeyToAccount(TREASURY_KEY).address;

let testChain: TestChain;
let chain: Chain;
let app: App;
let appConfig: Partial<Config>;
const clock = createClock();
/** Managed wallets' addresses come from this seed (decision 012). */
const SEED = `0x${"6b".repeat(32)}`;
const anvil = () => createTestClient({ mode: "anvil", chain: foundry, transport: http(testChain.url) });

beforeAll(async () => {
  testChain = await startTestChain();
  // No price cache: the stale-price test moves the feed.
  chain = await connectTestChain(testChain.url, testChain.deployment, { price: { cacheMs: 0 } });
  await testChain.mint(TREASURY, tokens("100000"));
  appConfig = {
    ...paymentTestConfig(),
    treasury: { ...testConfig().treasury, privateKey: TREASURY_KEY },
    wallet: { ...testConfig().wallet, masterSeed: SEED },
  };
  app = await createTestApp(appConfig, { chain, treasury: { now: clock.now } });
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

/** A buyer: a funded wallet and a browser (its owner cookie, set by the server on its first buy request). */
async function newBuyer() {
  const account = privateKeyToAccount(generatePrivateKey());
  await anvil().setBalance({ address: account.address, value: parseEther("10") });
  const wallet = createWalletClient({ account, chain: foundry, transport: http(testChain.url) });
  const buyer = {
    address: account.address,
    account,
    /** The browser's cookies ("" until the server set one). */
    cookie: "",
    pay: (value: bigint, to: Address = TREASURY) => wallet.sendTransaction({ to, value }),
  };
  return buyer;
}
type Buyer = Awaited<ReturnType<typeof newBuyer>>;
/** Keeps the owner cookie the server sets on the buyer's browser. */
function remember(buyer: { cookie: string }, res: { cookies: { name: string; value: string }[] }) {
  const owner = res.cookies.find((c) => c.name === "cpxtb_buyer");
  if (owner) buyer.cookie = `cpxtb_buyer=${owner.value}`;
}
/** Signs the server's challenge with `signer` (the buyer's own wallet unless given) from the buyer's browser. */
async function prove(buyer: Buyer, signer: PrivateKeyAccount = buyer.account, address = buyer.address) {
  const res = await api(app, buyer.cookie).post("/api/buy/wallet-challenge", { address });
  expect(res.statusCode, res.body).toBe(200);
  remember(buyer, res);
  const { nonce, message } = res.json() as { nonce: string; message: string };
  return { nonce, signature: await signer.signMessage({ message }) };
}
/** Each order's owner cookie, for the helpers that read it back. */
const owners = new Map<string, string>();
async function order(buyer: Buyer, body: Record<string, unknown> = { usd: "25" }): Promise<Order> {
  const proof = await prove(buyer);
  const res = await api(app, buyer.cookie).post("/api/buy/orders", {
    method: "eth",
    buyerAddress: buyer.address,
    proof,
    ...body,
  });
  expect(res.statusCode, res.body).toBe(201);
  const o = res.json() as Order;
  owners.set(o.id, buyer.cookie);
  return o;
}
const getOrder = async (id: string) =>
  (await api(app, owners.get(id)).get(`/api/buy/orders/${id}`)).json() as Order;
const submit = (id: string, txHash: Hex) =>
  api(app, owners.get(id)).post(`/api/buy/orders/${id}/tx`, { txHash });
const receiptsFrom = (from: Address) =>
  app.database.db.select().from(treasuryReceipts).where(eq(treasuryReceipts.fromAddress, from));
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
    // The limit in `details` too: the buyer's screen says it in its own words.
    expect(low.json().error.details).toEqual({ reason: "below_minimum", minUsd: "1" });
    const high = await api(app).post("/api/buy/quote", { usd: "5000" });
    expect(high.statusCode).toBe(400);
    expect(high.json().error.message).toMatch(/maximum order is \$1000/);
    expect(high.json().error.details).toEqual({ reason: "above_maximum", maxUsd: "1000" });
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
    const o = await order(buyer);
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
    const o = await order(buyer, { tokens: "1000" });
    await waitReceipt(await buyer.pay(BigInt(o.ethAmountWei)));
    await settle();
    expect((await getOrder(o.id)).status).toBe("delivered");
    expect(await tokenBalance(buyer.address)).toBe(tokens("1000"));
  });

  it("two confirmation handlers racing deliver once", async () => {
    const buyer = await newBuyer();
    const o = await order(buyer);
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
    const o = await order(buyer);
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
    const first = await order(buyer);
    const second = await order(buyer);
    const hash = await buyer.pay(BigInt(first.ethAmountWei));
    await waitReceipt(hash);
    expect((await submit(first.id, hash)).statusCode).toBe(200);
    const reuse = await submit(second.id, hash);
    expect(reuse.statusCode).toBe(409);
    expect(reuse.json().error.message).toMatch(/already paid another order/);
    expect(reuse.json().error.details).toEqual({ reason: "tx_paid_other_order" });
    await settle();
    expect((await getOrder(second.id)).status).toBe("quoted");
    expect(await transfersTo(buyer.address)).toHaveLength(1);
  });

  it("an underpayment is listed for refund and delivers nothing", async () => {
    const buyer = await newBuyer();
    const o = await order(buyer);
    const hash = await buyer.pay(BigInt(o.ethAmountWei) - 1n);
    await waitReceipt(hash);
    const res = await submit(o.id, hash);
    expect(res.json()).toMatchObject({ status: "underpaid", refundDue: true });
    expect(res.json().problem).toMatch(/listed for refund/);
    // Exact to the wei, as the English sentence says it.
    const paid = formatEther(BigInt(o.ethAmountWei) - 1n);
    expect(res.json().problemDetails).toEqual({
      reason: "underpaid",
      paid,
      due: formatEther(BigInt(o.ethAmountWei)),
    });
    expect(res.json().problem).toContain(`Paid ${paid} ETH of the `);
    await settle();
    expect(await transfersTo(buyer.address)).toHaveLength(0);
  });

  it("an overpayment delivers and lists the excess for refund, exact to the wei", async () => {
    const buyer = await newBuyer();
    const o = await order(buyer);
    const hash = await buyer.pay(BigInt(o.ethAmountWei) + 1n);
    await waitReceipt(hash);
    const res = await submit(o.id, hash);
    expect(res.json()).toMatchObject({ status: "paid", refundDue: true });
    expect(res.json().problem).toBe(
      "Paid 0.000000000000000001 ETH more than due; the excess is listed for refund.",
    );
    expect(res.json().problemDetails).toEqual({ reason: "overpaid", excess: "0.000000000000000001" });
    await settle();
    expect(await transfersTo(buyer.address)).toHaveLength(1);
  });

  it("a payment from another wallet pays no order: refused for the order, listed for refund with its sender", async () => {
    const buyer = await newBuyer();
    const stranger = await newBuyer();
    const o = await order(buyer);
    const hash = await stranger.pay(BigInt(o.ethAmountWei));
    await waitReceipt(hash);
    const res = await submit(o.id, hash);
    expect(res.statusCode).toBe(422);
    expect(res.json().error.message).toMatch(/not from this order's wallet.*listed for refund/);
    expect(res.json().error.details).toEqual({
      reason: "tx_other_sender",
      from: stranger.address,
      wallet: buyer.address,
      refund: true,
    });
    expect((await getOrder(o.id)).status).toBe("quoted");
    const [receipt] = await receiptsFrom(stranger.address);
    expect(receipt).toMatchObject({ txHash: hash, valueWei: BigInt(o.ethAmountWei), refundDue: true });
    await settle();
    expect(await receiptsFrom(stranger.address)).toHaveLength(1);
    expect(await transfersTo(buyer.address)).toHaveLength(0);
    expect(await transfersTo(stranger.address)).toHaveLength(0);
  });

  it("a transaction to another address is refused", async () => {
    const buyer = await newBuyer();
    const o = await order(buyer);
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
      // The reason beside the English sentence: the buy page says it in the buyer's words (issue 37).
      expect(res.json().error.details).toEqual({ reason: "price_stale" });
      const buyer = await newBuyer();
      const o = await api(app).post("/api/buy/orders", {
        method: "eth",
        buyerAddress: buyer.address,
        usd: "25",
      });
      expect(o.statusCode).toBe(503);
      expect(o.json().error.details).toEqual({ reason: "price_stale" });
    } finally {
      await testChain.setFeed(2000n * 10n ** 8n);
    }
  });

  // Last: it moves the chain's clock forward.
  it("an expired quote: unpaid shows expired; paid after expiry is late, listed for refund, not delivered", async () => {
    const buyer = await newBuyer();
    const unpaid = await order(buyer);
    const o = await order(buyer);
    clock.advance(11 * 60_000);
    await settle(1);
    expect((await getOrder(unpaid.id)).status).toBe("expired");
    const block = await chain.client.getBlock();
    await anvil().setNextBlockTimestamp({ timestamp: block.timestamp + 11n * 60n });
    const hash = await buyer.pay(BigInt(o.ethAmountWei));
    await waitReceipt(hash);
    const res = await submit(o.id, hash);
    expect(res.json()).toMatchObject({ status: "late", refundDue: true });
    expect(res.json().problemDetails).toEqual({ reason: "paid_late" });
    await settle();
    expect(await transfersTo(buyer.address)).toHaveLength(0);
  });
});

describe("whose order a payment is (issue #33)", () => {
  it("an order for a wallet the buyer has not proven is refused", async () => {
    const victim = await newBuyer();
    const attacker = await newBuyer();
    const body = { method: "eth", buyerAddress: victim.address, usd: "1" };
    const bare = await api(app).post("/api/buy/orders", body);
    expect(bare.statusCode).toBe(403);
    expect(bare.json().error.message).toMatch(/Prove that this wallet is yours/);
    expect(bare.json().error.details).toEqual({ reason: "wallet_proof_required" });
    // A challenge for the victim's wallet signed by the attacker's.
    const forged = await prove(attacker, attacker.account, victim.address);
    const signed = await api(app, attacker.cookie).post("/api/buy/orders", { ...body, proof: forged });
    expect(signed.statusCode).toBe(422);
    expect(signed.json().error.message).toMatch(/not made by that wallet/);
    expect(signed.json().error.details).toEqual({ reason: "signature_invalid" });
    // The victim's own signature, replayed from another browser: the challenge is bound to the victim's.
    const victimProof = await prove(victim);
    const replay = await api(app, attacker.cookie).post("/api/buy/orders", { ...body, proof: victimProof });
    expect(replay.statusCode).toBe(422);
    expect(replay.json().error.details).toEqual({ reason: "signature_request_invalid" });
    // The victim's browser can still use it, once.
    const own = await api(app, victim.cookie).post("/api/buy/orders", { ...body, proof: victimProof });
    expect(own.statusCode, own.body).toBe(201);
    const again = await api(app, victim.cookie).post("/api/buy/orders", { ...body, proof: victimProof });
    expect(again.statusCode).toBe(422);
    expect(again.json().error.message).toMatch(/unknown, used or expired/);
    expect(again.json().error.details).toEqual({ reason: "signature_request_invalid" });
  });

  it("a signed-in account buys for its linked wallet without signing; not for another one", async () => {
    const { cookie } = await signUp(app);
    const userId = ((await api(app, cookie).get("/api/user")).json() as { id: string }).id;
    const linked = await newBuyer();
    await app.database.db.insert(userWallets).values({
      id: `uw_${linked.address.slice(2, 28).toLowerCase()}`,
      userId,
      address: linked.address,
      chainId: chain.chainId,
      provenBy: "siwe_link",
    });
    const ok = await api(app, cookie).post("/api/buy/orders", {
      method: "eth",
      buyerAddress: linked.address,
      usd: "5",
    });
    expect(ok.statusCode, ok.body).toBe(201);
    const other = await newBuyer();
    const refused = await api(app, cookie).post("/api/buy/orders", {
      method: "eth",
      buyerAddress: other.address,
      usd: "5",
    });
    expect(refused.statusCode).toBe(403);
  });

  it("a hash posted to an order it does not fit is not taken by it: it pays the order it fits", async () => {
    const buyer = await newBuyer();
    const decoy = await order(buyer, { usd: "1" });
    const real = await order(buyer, { usd: "20" });
    const hash = await buyer.pay(BigInt(real.ethAmountWei));
    await waitReceipt(hash);
    const posted = await submit(decoy.id, hash);
    expect(posted.statusCode).toBe(409);
    expect(posted.json().error.message).toMatch(/already paid another order/);
    expect(posted.json().error.details).toEqual({ reason: "tx_paid_other_order" });
    expect((await getOrder(decoy.id)).status).toBe("quoted");
    expect((await getOrder(real.id)).status).toBe("paid");
    const own = await submit(real.id, hash);
    expect(own.statusCode, own.body).toBe(200);
    await settle();
    expect((await getOrder(real.id)).status).toBe("delivered");
    expect((await getOrder(decoy.id)).status).toBe("quoted");
    expect(await tokenBalance(buyer.address)).toBe(tokens("2000"));
  });

  it("the scanner picks the same order: the one whose amount fits, not the oldest", async () => {
    const buyer = await newBuyer();
    const older = await order(buyer, { usd: "1" });
    const fits = await order(buyer, { usd: "20" });
    await waitReceipt(await buyer.pay(BigInt(fits.ethAmountWei)));
    await settle();
    expect((await getOrder(fits.id)).status).toBe("delivered");
    expect((await getOrder(older.id)).status).toBe("quoted");
  });

  it("only the owner reads an order: not a signed-out visitor, another browser or another account", async () => {
    const buyer = await newBuyer();
    const o = await order(buyer, { usd: "3" });
    expect((await api(app, buyer.cookie).get(`/api/buy/orders/${o.id}`)).statusCode).toBe(200);
    const visitor = await api(app).get(`/api/buy/orders/${o.id}`);
    expect(visitor.statusCode).toBe(404);
    expect(visitor.body).not.toContain(buyer.address);
    const other = await newBuyer();
    await prove(other); // another browser with an owner cookie of its own
    expect((await api(app, other.cookie).get(`/api/buy/orders/${o.id}`)).statusCode).toBe(404);
    const { cookie } = await signUp(app);
    expect((await api(app, cookie).get(`/api/buy/orders/${o.id}`)).statusCode).toBe(404);
    // Nor submits its payment.
    const hash = await buyer.pay(BigInt(o.ethAmountWei));
    await waitReceipt(hash);
    expect(
      (await api(app, other.cookie).post(`/api/buy/orders/${o.id}/tx`, { txHash: hash })).statusCode,
    ).toBe(404);

    // An order made signed in is the account's, wherever it signs in, and no one else's.
    const account = await signUp(app);
    const mine = await newBuyer();
    const proof = await prove({ ...mine, cookie: account.cookie });
    const created = await api(app, account.cookie).post("/api/buy/orders", {
      method: "eth",
      buyerAddress: mine.address,
      proof,
      usd: "3",
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = (created.json() as Order).id;
    expect((await api(app, account.cookie).get(`/api/buy/orders/${id}`)).statusCode).toBe(200);
    expect((await api(app, cookie).get(`/api/buy/orders/${id}`)).statusCode).toBe(404);
    expect((await api(app).get(`/api/buy/orders/${id}`)).statusCode).toBe(404);
  });

  it("only the owner follows an order over /ws", async () => {
    const buyer = await newBuyer();
    const o = await order(buyer, { usd: "3" });
    const { cookie } = await signUp(app);
    if (!app.server.listening) await app.listen({ port: 0, host: "127.0.0.1" });
    const url = `ws://127.0.0.1:${(app.server.address() as { port: number }).port}/ws`;
    const open = (c: string) => TestSocket.open(url, c ? { headers: { cookie: c } } : {});
    for (const stranger of ["", cookie]) {
      const socket = await open(stranger);
      socket.send({ type: "subscribeBuyOrder", id: o.id });
      const answer = await socket.next((m) => m.type === "buyOrderError" || m.type === "buyOrderUpdate");
      expect(answer).toMatchObject({ type: "buyOrderError", code: "NOT_FOUND" });
      await socket.close();
    }
    const owner = await open(buyer.cookie);
    owner.send({ type: "subscribeBuyOrder", id: o.id });
    const snapshot = await owner.next((m) => m.type === "buyOrderUpdate" || m.type === "buyOrderError");
    expect(snapshot).toMatchObject({ type: "buyOrderUpdate", order: { id: o.id } });
    await owner.close();
  });
});

describe("every ETH payment to the treasury is an order's or listed for refund (issue #33)", () => {
  it("a second payment for a delivered order is listed for refund with its sender", async () => {
    const buyer = await newBuyer();
    const o = await order(buyer, { usd: "2" });
    const first = await buyer.pay(BigInt(o.ethAmountWei));
    await waitReceipt(first);
    expect((await submit(o.id, first)).statusCode).toBe(200);
    await settle();
    expect((await getOrder(o.id)).status).toBe("delivered");
    const second = await buyer.pay(BigInt(o.ethAmountWei));
    await waitReceipt(second);
    const res = await submit(o.id, second);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toMatch(/already paid by another transaction.*listed for refund/);
    expect(res.json().error.details).toEqual({ reason: "order_already_paid", refund: true });
    await settle();
    const receipts = await receiptsFrom(buyer.address);
    expect(receipts).toHaveLength(1);
    expect(receipts[0]).toMatchObject({
      txHash: second,
      fromAddress: buyer.address,
      valueWei: BigInt(o.ethAmountWei),
      refundDue: true,
      relatedOrderId: o.id,
    });
    expect(receipts[0]!.reason).toMatch(/No open order/);
    expect(await transfersTo(buyer.address)).toHaveLength(1);
  });

  it("the scanner lists a repeated payment nobody submitted", async () => {
    const buyer = await newBuyer();
    const o = await order(buyer, { usd: "2" });
    await waitReceipt(await buyer.pay(BigInt(o.ethAmountWei)));
    await settle();
    expect((await getOrder(o.id)).status).toBe("delivered");
    const again = await buyer.pay(BigInt(o.ethAmountWei));
    await waitReceipt(again);
    await settle();
    const receipts = await receiptsFrom(buyer.address);
    expect(receipts.map((r) => [r.txHash, r.refundDue, r.relatedOrderId])).toEqual([[again, true, o.id]]);
    expect(await transfersTo(buyer.address)).toHaveLength(1);
  });

  it("ETH from a wallet that never ordered is listed for refund too", async () => {
    const sender = await newBuyer();
    const hash = await sender.pay(parseEther("0.001"));
    await waitReceipt(hash);
    await settle();
    const receipts = await receiptsFrom(sender.address);
    expect(receipts).toHaveLength(1);
    expect(receipts[0]).toMatchObject({ txHash: hash, valueWei: parseEther("0.001"), relatedOrderId: null });
    expect(receipts[0]!.reason).toMatch(/No order was placed/);
  });
});

describe("buying for the account's managed wallet (issue 34, decision 032)", () => {
  /** A signed-in account with its managed wallet (made the way social sign-in makes it) and its browser wallet. */
  async function accountWithManagedWallet() {
    const { cookie } = await signUp(app);
    const userId = ((await api(app, cookie).get("/api/user")).json() as { id: string }).id;
    const wallets = createManagedWallets({
      db: app.database.db,
      config: { ...testConfig(), ...appConfig } as Config,
      chain,
      log: { info() {}, warn() {} },
    });
    const managed = (await wallets.ensureWallet(app.database.db, userId)).address as Address;
    const browser = await newBuyer();
    browser.cookie = cookie;
    return { cookie, managed, browser };
  }

  it("buying delivers to a managed wallet once", async () => {
    const { managed, browser } = await accountWithManagedWallet();
    const proof = await prove(browser);
    const res = await api(app, browser.cookie).post("/api/buy/orders", {
      method: "eth",
      buyerAddress: browser.address,
      proof,
      deliverTo: "managed",
      usd: "25",
    });
    expect(res.statusCode, res.body).toBe(201);
    const o = res.json() as Order & {
      buyerAddress: string;
      deliveryAddress: string;
      toManagedWallet: boolean;
    };
    owners.set(o.id, browser.cookie);
    // The ETH comes from the proven browser wallet; the CPXTB goes to the managed wallet.
    expect(o).toMatchObject({
      buyerAddress: browser.address,
      deliveryAddress: managed,
      toManagedWallet: true,
    });

    const hash = await browser.pay(BigInt(o.ethAmountWei));
    await waitReceipt(hash);
    // The page's submit, a second tab's, a repeat and the scanner all at once.
    const answers = await Promise.all([
      submit(o.id, hash),
      submit(o.id, hash),
      submit(o.id, hash),
      app.treasury!.runOnce(),
    ]);
    for (const a of answers.slice(0, 3)) expect((a as { statusCode: number }).statusCode).toBe(200);
    await settle();
    await Promise.all([submit(o.id, hash), app.treasury!.runOnce(), app.treasury!.runOnce()]);
    await settle();

    const done = await getOrder(o.id);
    expect(done.status).toBe("delivered");
    const sends = await app.database.db.select().from(treasurySends).where(eq(treasurySends.refId, o.id));
    expect(sends).toHaveLength(1);
    expect(sends[0]!.toAddress).toBe(managed);
    expect(await transfersTo(managed)).toHaveLength(1);
    expect(await tokenBalance(managed)).toBe(tokens("2500"));
    // Nothing went to the wallet that paid the ETH.
    expect(await tokenBalance(browser.address)).toBe(0n);
  });

  it("the managed wallet is the session's: an address the client sends is never taken for it", async () => {
    const { managed, browser } = await accountWithManagedWallet();
    const proof = await prove(browser);
    const res = await api(app, browser.cookie).post("/api/buy/orders", {
      method: "eth",
      buyerAddress: browser.address,
      proof,
      deliverTo: "managed",
      deliveryAddress: TREASURY,
      usd: "5",
    });
    expect(res.statusCode, res.body).toBe(201);
    const [row] = await app.database.db.select().from(buyOrders).where(eq(buyOrders.id, res.json().id));
    expect(row!.deliverTo).toBe(managed);
  });

  it("signed out, or without a managed wallet, an order for one is refused in words (and spends no signature)", async () => {
    const visitor = await newBuyer();
    const proof = await prove(visitor);
    const out = await api(app, visitor.cookie).post("/api/buy/orders", {
      method: "eth",
      buyerAddress: visitor.address,
      proof,
      deliverTo: "managed",
      usd: "5",
    });
    expect(out.statusCode).toBe(401);
    expect(out.json().error.message).toMatch(/Sign in/);
    expect(out.json().error.details).toEqual({ reason: "sign_in_for_managed_wallet" });
    // The refusal came before the proof: the same signature still opens an ordinary order.
    const ordinary = await api(app, visitor.cookie).post("/api/buy/orders", {
      method: "eth",
      buyerAddress: visitor.address,
      proof,
      usd: "5",
    });
    expect(ordinary.statusCode, ordinary.body).toBe(201);
    expect(ordinary.json()).toMatchObject({ deliveryAddress: visitor.address, toManagedWallet: false });

    const { cookie } = await signUp(app);
    const none = await api(app, cookie).post("/api/buy/orders", {
      method: "eth",
      buyerAddress: visitor.address,
      deliverTo: "managed",
      usd: "5",
    });
    expect(none.statusCode).toBe(409);
    expect(none.json().error.message).toMatch(/no CPXTB wallet/);
    expect(none.json().error.details).toEqual({ reason: "no_managed_wallet" });
  });
});
