import { HttpRequestError, type PublicClient, TimeoutError } from "viem";
import { describe, expect, it } from "vitest";
import { createPriceOracle } from "../src/chain/price.ts";
import { usdCentsToBaseUnits } from "../src/modules/payments/amounts.ts";

// Every way the price can fail carries a stable `details.reason` beside its English message (issue 37): the pay,
// buy and dashboard screens say it in their reader's words instead of "the server had a problem".

const TOKEN = "0x1111111111111111111111111111111111111111";
const QUOTE = "0x2222222222222222222222222222222222222222";
const POOL = "0x3333333333333333333333333333333333333333";
const FEED = "0x4444444444444444444444444444444444444444";
const NOW = Date.parse("2026-11-29T12:00:00Z");
const nowSeconds = BigInt(NOW / 1000);

type Feed = { answer: bigint; updatedAt: bigint };
type Reserves = { token: bigint; quote: bigint };

/** A node at its boundary: the pool's and the feed's answers, or a failure for the price reads. */
function fakeClient(state: { feed: Feed; reserves: Reserves; fail?: Error }): PublicClient {
  const readContract = async ({ functionName, address }: { functionName: string; address: string }) => {
    switch (functionName) {
      case "token0":
        return TOKEN;
      case "token1":
        return QUOTE;
      case "decimals":
        return address === FEED ? 8 : 18;
    }
    if (state.fail) throw state.fail;
    if (functionName === "getReserves") return [state.reserves.token, state.reserves.quote, 0];
    if (functionName === "latestRoundData") return [1n, state.feed.answer, 0n, state.feed.updatedAt, 1n];
    throw new Error(`unexpected ${functionName}`);
  };
  return { readContract } as unknown as PublicClient;
}

const settings = (source: "pool" | "fixed") =>
  ({
    source,
    fixedUsd: "0.01",
    maxAgeSeconds: 3600,
    cacheMs: 0,
    poolAddress: POOL,
    ethUsdFeedAddress: FEED,
  }) as const;

function poolOracle(state: Parameters<typeof fakeClient>[0]) {
  return createPriceOracle({
    client: fakeClient(state),
    token: { address: TOKEN, decimals: 18, symbol: "CPXTB" },
    price: settings("pool"),
    now: () => NOW,
  });
}

const fresh = (): Parameters<typeof fakeClient>[0] => ({
  feed: { answer: 2_000_00000000n, updatedAt: nowSeconds },
  reserves: { token: 2_000_000n * 10n ** 18n, quote: 3n * 10n ** 18n },
});

describe("price failures name their reason", () => {
  it("a stale pool price: 503 price_stale for a quote and for the ETH/USD it carries", async () => {
    const state = fresh();
    state.feed.updatedAt = nowSeconds - 7200n;
    const oracle = await poolOracle(state);
    await expect(oracle.getQuotablePrice()).rejects.toMatchObject({
      statusCode: 503,
      code: "SERVICE_UNAVAILABLE",
      details: { reason: "price_stale" },
    });
    await expect(oracle.getQuotableEthUsd()).rejects.toMatchObject({ details: { reason: "price_stale" } });
    // The price itself is still served, marked stale (the home page's card says so).
    await expect(oracle.getPrice()).resolves.toMatchObject({ stale: true });
  });

  it("a stale ETH/USD beside a fixed price: 503 price_stale", async () => {
    const state = fresh();
    state.feed.updatedAt = nowSeconds - 7200n;
    const oracle = await createPriceOracle({
      client: fakeClient(state),
      token: null,
      price: settings("fixed"),
      now: () => NOW,
    });
    await expect(oracle.getQuotablePrice()).resolves.toMatchObject({ source: "fixed" });
    await expect(oracle.getQuotableEthUsd()).rejects.toMatchObject({
      statusCode: 503,
      details: { reason: "price_stale" },
    });
  });

  it("the ETH/USD feed answering zero: 502 price_feed_invalid (pool and fixed)", async () => {
    const state = fresh();
    state.feed.answer = 0n;
    const pool = await poolOracle(state);
    await expect(pool.getPrice()).rejects.toMatchObject({
      statusCode: 502,
      code: "BAD_GATEWAY",
      details: { reason: "price_feed_invalid" },
    });
    const fixed = await createPriceOracle({
      client: fakeClient(state),
      token: null,
      price: settings("fixed"),
      now: () => NOW,
    });
    await expect(fixed.getQuotableEthUsd()).rejects.toMatchObject({
      statusCode: 502,
      details: { reason: "price_feed_invalid" },
    });
  });

  it("a pool without liquidity: 502 price_pool_empty", async () => {
    const state = fresh();
    state.reserves = { token: 0n, quote: 0n };
    const oracle = await poolOracle(state);
    await expect(oracle.getQuotablePrice()).rejects.toMatchObject({
      statusCode: 502,
      details: { reason: "price_pool_empty" },
    });
  });

  it("a node that fails or is too slow before any price was read: price_unreachable (502, 504)", async () => {
    const state = fresh();
    state.fail = new HttpRequestError({ url: "http://node.invalid", status: 500 });
    const failing = await poolOracle(state);
    const error = await failing.getPrice().catch((e: unknown) => e);
    expect(error).toMatchObject({ statusCode: 502, details: { reason: "price_unreachable" } });
    // The RPC URL never reaches the answer (it may embed an API key).
    expect(JSON.stringify(error)).not.toContain("node.invalid");
    expect((error as Error).message).not.toContain("node.invalid");

    state.fail = new TimeoutError({ body: {}, url: "http://node.invalid" });
    const slow = await poolOracle(state);
    await expect(slow.getPrice()).rejects.toMatchObject({
      statusCode: 504,
      code: "GATEWAY_TIMEOUT",
      details: { reason: "price_unreachable" },
    });
    const fixed = await createPriceOracle({
      client: fakeClient(state),
      token: null,
      price: settings("fixed"),
      now: () => NOW,
    });
    await expect(fixed.getQuotableEthUsd()).rejects.toMatchObject({
      details: { reason: "price_unreachable" },
    });
  });

  it("a node hiccup after a good read serves the last price (no error)", async () => {
    const state = fresh();
    const oracle = await poolOracle(state);
    await oracle.getPrice();
    state.fail = new HttpRequestError({ url: "http://node.invalid", status: 500 });
    await expect(oracle.getQuotablePrice()).resolves.toMatchObject({ stale: false });
  });

  it("a price of zero when a USD amount is converted: 503 price_unusable", () => {
    expect(() => usdCentsToBaseUnits(100n, 0n, 18)).toThrow(
      expect.objectContaining({ statusCode: 503, details: { reason: "price_unusable" } }),
    );
  });
});
