import { type Address, formatUnits, getAddress, type PublicClient, parseUnits } from "viem";
import type { ChainConfig } from "../config.ts";
import { AppError } from "../errors.ts";
import { aggregatorAbi, erc20Abi, pairAbi } from "./abis.ts";
import { createCoalescingCache } from "./coalescing-cache.ts";
import { describeRpcFailure, toChainError } from "./rpc-errors.ts";
import type { TokenInfo } from "./token.ts";

/**
 * Why no price could be had, as `details.reason` on the error (issue 37): a screen says it in its reader's words,
 * the English `message` stays for the API. `price_stale`: older than the maximum age (503); `price_unreachable`:
 * the node failed or was too slow and no earlier price was read (502, 504); `price_feed_invalid`: the ETH/USD feed
 * answered zero or less (502); `price_pool_empty`: the pool has no liquidity (502). (A price of zero or less when
 * a USD amount is converted is `price_unusable`, payments/amounts.ts.) This is a chain read of the price that failed,
 * with its reason (an error that has one already keeps it).
 */
function priceFailure(error: unknown, what: string): AppError {
  const appError = toChainError(error, what);
  if (appError.details?.reason) return appError;
  return Object.assign(new AppError(appError.code, appError.message, { reason: "price_unreachable" }), {
    rpc: (appError as { rpc?: unknown }).rpc,
  });
}

const feedInvalid = () =>
  new AppError("BAD_GATEWAY", "The ETH/USD feed returned a non-positive answer.", {
    reason: "price_feed_invalid",
  });

export type Price = {
  /** USD per one whole token, scaled by 10^18. */
  priceE18: bigint;
  /** ETH/USD scaled by 10^18; null for a fixed price. */
  ethUsdE18: bigint | null;
  source: "fixed" | "pool";
  /** When the inputs were last updated: the feed's round time for a pool price, now for a fixed price. */
  updatedAt: Date;
  stale: boolean;
};

/** USD per whole token from pool reserves and an ETH/USD answer, all in integers (floors once, at the end). */
export function poolPriceE18(input: {
  reserveToken: bigint;
  reserveQuote: bigint;
  tokenDecimals: number;
  quoteDecimals: number;
  ethUsdE18: bigint;
}): bigint {
  if (input.reserveToken <= 0n || input.reserveQuote <= 0n) {
    throw new AppError(
      "BAD_GATEWAY",
      "The price pool has no liquidity, so no price can be derived from it.",
      {
        reason: "price_pool_empty",
      },
    );
  }
  return (
    (input.ethUsdE18 * input.reserveQuote * 10n ** BigInt(input.tokenDecimals)) /
    (input.reserveToken * 10n ** BigInt(input.quoteDecimals))
  );
}

/** A Chainlink answer with `decimals` decimals, rescaled to 18. */
export function scaleTo18(answer: bigint, decimals: number): bigint {
  return decimals <= 18 ? answer * 10n ** BigInt(18 - decimals) : answer / 10n ** BigInt(decimals - 18);
}

type PoolSetup = {
  pool: Address;
  feed: Address;
  tokenIsToken0: boolean;
  quoteDecimals: number;
  feedDecimals: number;
};

export type PriceOracle = {
  getPrice(): Promise<Price>;
  /** The price for locking into a payment or quote: refuses (503) a stale one. */
  getQuotablePrice(): Promise<Price>;
  /**
   * ETH/USD (scaled by 10^18) for quoting ETH purchases: the pool price's feed, or with a fixed token price the
   * configured feed; null when there is none. Refuses (503) a stale answer.
   */
  getQuotableEthUsd(): Promise<{ ethUsdE18: bigint; updatedAt: Date } | null>;
};

type Log = { warn: (obj: object, msg: string) => void };

export async function createPriceOracle(options: {
  client: PublicClient | null;
  token: TokenInfo | null;
  price: ChainConfig["price"];
  log?: Log;
  now?: () => number;
}): Promise<PriceOracle> {
  const { price: settings } = options;
  const now = options.now ?? Date.now;
  const maxAgeMs = settings.maxAgeSeconds * 1000;

  const refuseStale = (updatedAt: Date, what: string) => {
    if (now() - updatedAt.getTime() <= maxAgeMs) return;
    const ageMinutes = Math.round((now() - updatedAt.getTime()) / 60_000);
    throw new AppError(
      "SERVICE_UNAVAILABLE",
      `The ${what} is stale (last updated ${ageMinutes} min ago); quotes are paused until it updates.`,
      { reason: "price_stale" },
    );
  };

  if (settings.source === "fixed") {
    const priceE18 = parseUnits(settings.fixedUsd, 18);
    if (priceE18 <= 0n) throw new Error("FIXED_PRICE_USD must be greater than 0");
    const getPrice = async (): Promise<Price> => ({
      priceE18,
      ethUsdE18: null,
      source: "fixed",
      updatedAt: new Date(now()),
      stale: false,
    });
    const feed = settings.ethUsdFeedAddress;
    const client = options.client;
    let getQuotableEthUsd: PriceOracle["getQuotableEthUsd"] = async () => null;
    if (feed && client) {
      const feedDecimals = await client.readContract({
        address: feed,
        abi: aggregatorAbi,
        functionName: "decimals",
      });
      const feedCache = createCoalescingCache<{ ethUsdE18: bigint; updatedAt: Date }>(settings.cacheMs);
      getQuotableEthUsd = async () => {
        const value = await feedCache
          .get("eth-usd", async () => {
            const [, answer, , updatedAt] = await client.readContract({
              address: feed,
              abi: aggregatorAbi,
              functionName: "latestRoundData",
            });
            if (answer <= 0n) throw feedInvalid();
            return {
              ethUsdE18: scaleTo18(answer, feedDecimals),
              updatedAt: new Date(Number(updatedAt) * 1000),
            };
          })
          .catch((error) => {
            throw priceFailure(error, "the ETH/USD price");
          });
        refuseStale(value.updatedAt, "ETH/USD price");
        return value;
      };
    }
    return { getPrice, getQuotablePrice: getPrice, getQuotableEthUsd };
  }

  const { client, token } = options;
  if (!client || !token) throw new Error("A pool price needs a chain client and the token");
  const setup = await readPoolSetup(client, token, settings);
  const cache = createCoalescingCache<Omit<Price, "stale">>(settings.cacheMs);
  let lastGood: Omit<Price, "stale"> | null = null;

  const fetchPrice = async (): Promise<Omit<Price, "stale">> => {
    const [[reserve0, reserve1], [, answer, , updatedAt]] = await Promise.all([
      client.readContract({ address: setup.pool, abi: pairAbi, functionName: "getReserves" }),
      client.readContract({ address: setup.feed, abi: aggregatorAbi, functionName: "latestRoundData" }),
    ]);
    if (answer <= 0n) throw feedInvalid();
    const ethUsdE18 = scaleTo18(answer, setup.feedDecimals);
    const priceE18 = poolPriceE18({
      reserveToken: setup.tokenIsToken0 ? reserve0 : reserve1,
      reserveQuote: setup.tokenIsToken0 ? reserve1 : reserve0,
      tokenDecimals: token.decimals,
      quoteDecimals: setup.quoteDecimals,
      ethUsdE18,
    });
    return { priceE18, ethUsdE18, source: "pool", updatedAt: new Date(Number(updatedAt) * 1000) };
  };

  const getPrice = async (): Promise<Price> => {
    let value: Omit<Price, "stale">;
    try {
      value = await cache.get("price", fetchPrice);
      lastGood = value;
    } catch (error) {
      // A node hiccup should not take the price away: the last good one is served and ages into "stale".
      options.log?.warn({ rpc: describeRpcFailure(error) }, "price refresh failed");
      if (!lastGood) throw priceFailure(error, "the price");
      value = lastGood;
    }
    return { ...value, stale: now() - value.updatedAt.getTime() > maxAgeMs };
  };

  return {
    getPrice,
    async getQuotablePrice() {
      const price = await getPrice();
      if (price.stale) {
        const ageMinutes = Math.round((now() - price.updatedAt.getTime()) / 60_000);
        throw new AppError(
          "SERVICE_UNAVAILABLE",
          `The CPXTB price is stale (last updated ${ageMinutes} min ago); quotes are paused until it updates.`,
          { reason: "price_stale" },
        );
      }
      return price;
    },
    async getQuotableEthUsd() {
      const price = await getPrice();
      refuseStale(price.updatedAt, "CPXTB price");
      return price.ethUsdE18 === null ? null : { ethUsdE18: price.ethUsdE18, updatedAt: price.updatedAt };
    },
  };
}

async function readPoolSetup(client: PublicClient, token: TokenInfo, settings: ChainConfig["price"]) {
  const pool = settings.poolAddress;
  const feed = settings.ethUsdFeedAddress;
  if (!pool || !feed)
    throw new Error("PRICE_POOL_ADDRESS and ETH_USD_FEED_ADDRESS are required for a pool price");
  const [token0, token1, feedDecimals] = await Promise.all([
    client.readContract({ address: pool, abi: pairAbi, functionName: "token0" }),
    client.readContract({ address: pool, abi: pairAbi, functionName: "token1" }),
    client.readContract({ address: feed, abi: aggregatorAbi, functionName: "decimals" }),
  ]);
  const ours = getAddress(token.address);
  if (getAddress(token0) !== ours && getAddress(token1) !== ours) {
    throw new Error(`PRICE_POOL_ADDRESS ${pool} is not a pool of the token ${ours}.`);
  }
  const tokenIsToken0 = getAddress(token0) === ours;
  const quote = tokenIsToken0 ? token1 : token0;
  const quoteDecimals = await client.readContract({
    address: quote,
    abi: erc20Abi,
    functionName: "decimals",
  });
  return { pool, feed, tokenIsToken0, quoteDecimals, feedDecimals } satisfies PoolSetup;
}

export function formatPrice(price: Price) {
  return {
    usdPerToken: formatUnits(price.priceE18, 18),
    priceE18: price.priceE18.toString(),
    ethUsd: price.ethUsdE18 === null ? null : formatUnits(price.ethUsdE18, 18),
    source: price.source,
    updatedAt: price.updatedAt.toISOString(),
    stale: price.stale,
  };
}
