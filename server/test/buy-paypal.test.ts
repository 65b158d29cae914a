import { eq } from "drizzle-orm";
import { type Address, erc20Abi, parseAbiItem } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../src/app.ts";
import { ANVIL_DEV_KEYS, DEV_TREASURY_INDEX } from "../src/chain/dev-chain.ts";
import type { Chain } from "../src/chain/service.ts";
import { type Config, testConfig } from "../src/config.ts";
import { buyOrders, treasurySends } from "../src/db/schema.ts";
import { createManagedWallets } from "../src/modules/wallet/service.ts";
import { connectTestChain, startTestChain, type TestChain, tokens } from "./chain-helpers.ts";
import { createTestApp } from "./helpers.ts";
import { api, createClock, paymentTestConfig, signUp } from "./payment-helpers.ts";
import { startFakePaypal } from "./paypal-fake.ts";

const TREASURY_KEY = ANVIL_DEV_KEYS[DEV_TREASURY_INDEX]!;
const TREASURY = privateKeyToAccount(TREASURY_KEY).address;
const CREDENTIALS = { clientId: "test-client", clientSecret: "test-secret-do-not-log" };

let testChain: TestChain;
let chain: Chain;
let app: App;
let appConfig: Partial<Config>;
let paypal: Awaited<ReturnType<typeof startFakePaypal>>;
const clock = createClock();

beforeAll(async () => {
  paypal = await startFakePaypal(CREDENTIALS);
  testChain = await startTestChain();
  chain = await connectTestChain(testChain.url, testChain.deployment);
  await testChain.mint(TREASURY, tokens("100000"));
  appConfig = {
    ...paymentTestConfig(),
    treasury: { ...testConfig().treasury, privateKey: TREASURY_KEY },
    paypal: { ...CREDENTIALS, apiBase: paypal.url },
    wallet: { ...testConfig().wallet, masterSeed: `0x${"7c".repeat(32)}` },
  };
  app = await createTestApp(appConfig, { chain, treasury: { now: clock.now } });
});
afterAll(async () => {
  await chain?.close();
  await testChain?.stop();
  await paypal?.close();
});

type Order = {
  id: string;
  method: string;
  status: string;
  usd: string;
  problem: string | null;
  refundDue: boolean;
  approveUrl: string | null;
  delivery: { status: string } | null;
};

const buyerAddress = () => privateKeyToAccount(generatePrivateKey()).address;
/** Each order's owner cookie: the signed-out browser that created it (decision 013). */
const owners = new Map<string, string>();
async function paypalOrder(buyer: Address, body: Record<string, unknown> = { usd: "25" }) {
  const res = await api(app).post("/api/buy/paypal/orders", { buyerAddress: buyer, ...body });
  expect(res.statusCode, res.body).toBe(201);
  const order = res.json() as Order;
  const owner = res.cookies.find((c) => c.name === "cpxtb_buyer")!;
  owners.set(order.id, `cpxtb_buyer=${owner.value}`);
  const paypalId = new URL(order.approveUrl!).searchParams.get("token")!;
  return { order, paypalId };
}
const returnFromPaypal = (id: string, paypalId: string, cookie = owners.get(id)) =>
  app.inject({
    method: "GET",
    url: `/api/buy/paypal/return?order=${id}&token=${paypalId}&PayerID=PAYER1`,
    headers: cookie ? { cookie } : {},
  });
const capture = (id: string, cookie = owners.get(id)) =>
  api(app, cookie).post(`/api/buy/orders/${id}/paypal/capture`);
const getOrder = async (id: string) =>
  (await api(app, owners.get(id)).get(`/api/buy/orders/${id}`)).json() as Order;
const settle = async (times = 3) => {
  for (let i = 0; i < times; i++) await app.treasury!.runOnce();
};
const tokenBalance = (address: Address) =>
  chain.client.readContract({
    address: chain.token.address,
    abi: erc20Abi,
    functionName: "balanceOf",
    args: [address],
  });
const transfersTo = (to: Address) =>
  chain.client.getLogs({
    address: chain.token.address,
    event: parseAbiItem("event Transfer(address indexed from, address indexed to, uint256 value)"),
    args: { to },
    fromBlock: 0n,
  });
const sendsFor = (id: string) =>
  app.database.db.select().from(treasurySends).where(eq(treasurySends.refId, id));

describe("PayPal purchases (Orders v2, local fake)", () => {
  it("shows PayPal in the buy config when configured", async () => {
    expect((await api(app).get("/api/buy/config")).json().methods).toEqual({ eth: true, paypal: true });
  });

  it("creates the PayPal order for the quoted USD with a client-credentials token", async () => {
    const { order, paypalId } = await paypalOrder(buyerAddress());
    expect(order).toMatchObject({ method: "paypal", status: "quoted", usd: "25" });
    expect(order.approveUrl).toMatch(/^https:\/\/paypal\.example\//);
    expect(paypal.orders.get(paypalId)).toMatchObject({
      referenceId: order.id,
      amount: { currency_code: "USD", value: "25.00" },
    });
    expect(paypal.calls.some((c) => c.path === "/v1/oauth2/token")).toBe(true);
    // 1,250 CPXTB at 0.01 USD: 12.50 with both decimals, as PayPal expects.
    const byTokens = await paypalOrder(buyerAddress(), { tokens: "1250" });
    expect(paypal.orders.get(byTokens.paypalId)?.amount.value).toBe("12.50");
  });

  it("approve + capture delivers the CPXTB exactly once", async () => {
    const buyer = buyerAddress();
    const { order, paypalId } = await paypalOrder(buyer);
    // Not approved yet: nothing is captured or sent.
    const early = await capture(order.id);
    expect(early.statusCode).toBe(409);
    expect(early.json().error.message).toMatch(/Approve the payment at PayPal/);
    expect(early.json().error.details).toEqual({ reason: "paypal_not_approved" });

    paypal.approve(paypalId);
    const back = await returnFromPaypal(order.id, paypalId);
    expect(back.statusCode).toBe(303);
    expect(back.headers.location).toBe(`/buy-cpxtb/orders/${order.id}`);
    expect((await getOrder(order.id)).status).toBe("paid");
    await settle();
    const done = await getOrder(order.id);
    expect(done.status).toBe("delivered");
    expect(done.delivery?.status).toBe("confirmed");
    expect(await tokenBalance(buyer)).toBe(tokens("2500"));
    expect(await transfersTo(buyer)).toHaveLength(1);
  });

  it("bought for the account's managed wallet, with no browser wallet at all: delivered there once", async () => {
    const { cookie } = await signUp(app);
    const userId = ((await api(app, cookie).get("/api/user")).json() as { id: string }).id;
    const wallets = createManagedWallets({
      db: app.database.db,
      config: { ...testConfig(), ...appConfig } as Config,
      chain,
      log: { info() {}, warn() {} },
    });
    const managed = (await wallets.ensureWallet(app.database.db, userId)).address as Address;
    // Whatever address the client names, the order's wallet is the session's managed wallet.
    const res = await api(app, cookie).post("/api/buy/paypal/orders", {
      buyerAddress: buyerAddress(),
      deliverTo: "managed",
      usd: "25",
    });
    expect(res.statusCode, res.body).toBe(201);
    const order = res.json() as Order & { buyerAddress: string; deliveryAddress: string };
    expect(order).toMatchObject({ buyerAddress: managed, deliveryAddress: managed, toManagedWallet: true });
    owners.set(order.id, cookie);
    const paypalId = new URL(order.approveUrl!).searchParams.get("token")!;
    paypal.approve(paypalId);
    await Promise.all([returnFromPaypal(order.id, paypalId), capture(order.id), capture(order.id)]);
    await settle();
    await capture(order.id);
    await settle();
    expect((await getOrder(order.id)).status).toBe("delivered");
    expect(await sendsFor(order.id)).toHaveLength(1);
    expect(await transfersTo(managed)).toHaveLength(1);
    expect(await tokenBalance(managed)).toBe(tokens("2500"));
  });

  it("only the browser that created a PayPal order reads, captures or completes it on return", async () => {
    const buyer = buyerAddress();
    const { order, paypalId } = await paypalOrder(buyer);
    paypal.approve(paypalId);
    const read = await api(app).get(`/api/buy/orders/${order.id}`);
    expect(read.statusCode).toBe(404);
    expect(read.json().error.message).toBe("No such order.");
    expect(read.json().error.details).toEqual({ reason: "order_not_found" });
    expect((await capture(order.id, "cpxtb_buyer=someone-else")).statusCode).toBe(404);
    // A visitor's hop through the return URL captures nothing and says nothing about the order.
    const hop = await returnFromPaypal(order.id, paypalId, "");
    expect(hop.statusCode).toBe(303);
    expect(paypal.calls.some((c) => c.path.endsWith(`${paypalId}/capture`))).toBe(false);
    expect((await getOrder(order.id)).status).toBe("quoted");
    // The owner's return completes it.
    await returnFromPaypal(order.id, paypalId);
    expect((await getOrder(order.id)).status).toBe("paid");
    await settle();
    expect(await transfersTo(buyer)).toHaveLength(1);
  });

  it("a replayed or racing capture does not deliver twice", async () => {
    const buyer = buyerAddress();
    const { order, paypalId } = await paypalOrder(buyer, { tokens: "1000" });
    paypal.approve(paypalId);
    const [a, b, c] = await Promise.all([
      capture(order.id),
      capture(order.id),
      returnFromPaypal(order.id, paypalId),
    ]);
    expect(a.statusCode, a.body).toBe(200);
    expect(b.statusCode, b.body).toBe(200);
    expect(c.statusCode).toBe(303);
    await settle();
    const replay = await capture(order.id);
    expect(replay.statusCode).toBe(200);
    expect(replay.json().status).toBe("delivered");
    await returnFromPaypal(order.id, paypalId);
    await settle();
    expect(await sendsFor(order.id)).toHaveLength(1);
    expect(await transfersTo(buyer)).toHaveLength(1);
    expect(await tokenBalance(buyer)).toBe(tokens("1000"));
  });

  it("one capture id cannot pay a second order", async () => {
    const buyer = buyerAddress();
    const first = await paypalOrder(buyer);
    const second = await paypalOrder(buyer);
    paypal.approve(first.paypalId);
    paypal.approve(second.paypalId);
    paypal.tweakCapture(first.paypalId, { captureId: "CAPTURE-REPLAYED" });
    paypal.tweakCapture(second.paypalId, { captureId: "CAPTURE-REPLAYED" });
    expect((await capture(first.order.id)).statusCode).toBe(200);
    const reuse = await capture(second.order.id);
    expect(reuse.statusCode).toBe(409);
    expect(reuse.json().error.message).toMatch(/already paid another order/);
    expect(reuse.json().error.details).toEqual({ reason: "paypal_capture_taken" });
    await settle();
    expect((await getOrder(second.order.id)).status).toBe("quoted");
    expect(await sendsFor(second.order.id)).toHaveLength(0);
    expect(await transfersTo(buyer)).toHaveLength(1);
  });

  it("a capture of another amount does not deliver; it is listed for refund", async () => {
    const buyer = buyerAddress();
    const { order, paypalId } = await paypalOrder(buyer);
    paypal.approve(paypalId);
    paypal.tweakCapture(paypalId, { value: "1.00" });
    const res = await capture(order.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: "failed", refundDue: true });
    expect(res.json().problem).toMatch(/PayPal captured 1\.00 USD, not the 25 USD quoted/);
    expect(res.json().problemDetails).toEqual({
      reason: "paypal_amount",
      captured: "1.00",
      currency: "USD",
      quotedUsd: "25",
    });
    await settle();
    expect(await sendsFor(order.id)).toHaveLength(0);
    expect(await transfersTo(buyer)).toHaveLength(0);
  });

  it("a capture in another currency does not deliver", async () => {
    const buyer = buyerAddress();
    const { order, paypalId } = await paypalOrder(buyer);
    paypal.approve(paypalId);
    paypal.tweakCapture(paypalId, { currency: "EUR" });
    const res = await capture(order.id);
    expect(res.json()).toMatchObject({ status: "failed", refundDue: true });
    expect(res.json().problemDetails).toMatchObject({
      reason: "paypal_amount",
      currency: "EUR",
      quotedUsd: "25",
    });
    await settle();
    expect(await sendsFor(order.id)).toHaveLength(0);
    expect(await transfersTo(buyer)).toHaveLength(0);
  });

  it("a capture PayPal has not completed does not deliver", async () => {
    const buyer = buyerAddress();
    const { order, paypalId } = await paypalOrder(buyer);
    paypal.approve(paypalId);
    paypal.tweakCapture(paypalId, { status: "PENDING" });
    const res = await capture(order.id);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toMatch(/not completed this payment yet \(PENDING\)/);
    expect(res.json().error.details).toEqual({ reason: "paypal_not_completed", status: "PENDING" });
    const [row] = await app.database.db.select().from(buyOrders).where(eq(buyOrders.id, order.id));
    expect(row?.status).toBe("quoted");
    await settle();
    expect(await transfersTo(buyer)).toHaveLength(0);
  });

  it("a capture PENDING in time delivers once PayPal completes it, even after the quote expired", async () => {
    const buyer = buyerAddress();
    const { order, paypalId } = await paypalOrder(buyer);
    paypal.approve(paypalId);
    paypal.tweakCapture(paypalId, { status: "PENDING" });
    expect((await capture(order.id)).statusCode).toBe(409);
    const held = paypal.orders.get(paypalId)!;
    held.capture!.status = "COMPLETED";
    clock.advance(11 * 60_000);
    const res = await capture(order.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().status).toBe("paid");
    await settle();
    expect(await transfersTo(buyer)).toHaveLength(1);
  });

  it("an approved order whose quote expired is not captured and delivers nothing", async () => {
    const buyer = buyerAddress();
    const { order, paypalId } = await paypalOrder(buyer);
    paypal.approve(paypalId);
    clock.advance(11 * 60_000);
    const res = await capture(order.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: "expired", refundDue: false });
    expect(res.json().problem).toMatch(/nothing was charged/);
    expect(res.json().problemDetails).toEqual({ reason: "paypal_expired" });
    expect(paypal.orders.get(paypalId)!.capture).toBeNull();
    await settle();
    expect(await transfersTo(buyer)).toHaveLength(0);
  });

  it("bad input answers 4xx with the error shape; ETH orders do not take the PayPal method", async () => {
    const bad = await api(app).post("/api/buy/paypal/orders", { buyerAddress: "0x12", usd: "25" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBeTypeOf("string");
    const wrong = await api(app).post("/api/buy/orders", {
      method: "paypal",
      buyerAddress: buyerAddress(),
      usd: "25",
    });
    expect(wrong.statusCode).toBe(400);
    const unknown = await capture("ord_00000000000000000000000000");
    expect(unknown.statusCode).toBe(404);
  });

  it("never sends the client secret anywhere but the token request", async () => {
    const res = await api(app).get("/api/buy/config");
    expect(res.body).not.toContain(CREDENTIALS.clientSecret);
  });
});

describe("PayPal not configured", () => {
  let bare: App;
  beforeAll(async () => {
    bare = await createTestApp(
      { ...paymentTestConfig(), treasury: { ...testConfig().treasury, privateKey: TREASURY_KEY } },
      { chain },
    );
  });

  it("hides the option and answers a clear 4xx", async () => {
    expect((await api(bare).get("/api/buy/config")).json().methods.paypal).toBe(false);
    const res = await api(bare).post("/api/buy/paypal/orders", { buyerAddress: buyerAddress(), usd: "25" });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.message).toMatch(/PayPal is not available/);
    expect(res.json().error.details).toEqual({ reason: "paypal_unavailable" });
  });
});
