import type { Address, PublicClient } from "viem";
import type { ChainConfig } from "../config.ts";
import { createRpcClient, redactRpcUrl } from "./client.ts";
import { createPriceOracle, type PriceOracle } from "./price.ts";
import { describeRpcFailure } from "./rpc-errors.ts";
import { createBalanceReader, readTokenInfo, type TokenBalance, type TokenInfo } from "./token.ts";

export type Chain = {
  chainId: number;
  confirmations: number;
  token: TokenInfo;
  client: PublicClient;
  price: PriceOracle;
  getBalance(owner: Address): Promise<TokenBalance>;
  /** A node URL browsers may use (wallet "add chain"), or the loopback node the server proxies for them. */
  browserRpc: { kind: "public"; url: string } | { kind: "proxy"; target: string } | null;
  close(): Promise<void>;
};

type Log = { warn: (obj: object, msg: string) => void };

export class ChainStartupError extends Error {
  override name = "ChainStartupError";
}

/**
 * Connects to the configured chain and checks it before the server serves anything: the node answers, it is the
 * configured chain, and the token is a contract whose decimals and symbol can be read.
 */
export async function connectChain(
  config: ChainConfig,
  options: {
    log?: Log;
    onRequest?: () => void;
    embeddedRpcUrl?: string;
    onClose?: () => Promise<void>;
    /** The balance cache's clock (ms); tests move it. */
    now?: () => number;
  } = {},
): Promise<Chain> {
  const host = config.rpcUrls[0] ? redactRpcUrl(config.rpcUrls[0]) : "(none)";
  if (!config.tokenAddress) throw new ChainStartupError("TOKEN_ADDRESS is not set.");
  const client = createRpcClient({
    rpcUrls: config.rpcUrls,
    chainId: config.chainId,
    timeoutMs: config.rpcTimeoutMs,
    onRequest: options.onRequest,
  });
  let actualChainId: number;
  try {
    actualChainId = await client.getChainId();
  } catch (error) {
    const { reason } = describeRpcFailure(error);
    throw new ChainStartupError(`The RPC node at ${host} cannot be reached: ${reason}`);
  }
  if (actualChainId !== config.chainId) {
    throw new ChainStartupError(
      `CHAIN_ID is ${config.chainId} but the RPC node at ${host} serves chain ${actualChainId}. Fix RPC_URL or CHAIN_ID.`,
    );
  }
  let token: TokenInfo;
  try {
    token = await readTokenInfo(client, config.tokenAddress);
  } catch (error) {
    const reason =
      error instanceof Error && !("shortMessage" in error) ? error.message : describeRpcFailure(error).reason;
    throw new ChainStartupError(`Cannot read the token at ${config.tokenAddress}: ${reason}`);
  }
  let price: PriceOracle;
  try {
    price = await createPriceOracle({ client, token, price: config.price, log: options.log });
  } catch (error) {
    const reason =
      error instanceof Error && !("shortMessage" in error) ? error.message : describeRpcFailure(error).reason;
    throw new ChainStartupError(`Cannot set up the price source: ${reason}`);
  }
  const balances = createBalanceReader(client, token, config.balanceCacheMs, options.now);
  return {
    chainId: actualChainId,
    confirmations: config.confirmations,
    token,
    client,
    price,
    getBalance: balances.getBalance,
    browserRpc: options.embeddedRpcUrl
      ? { kind: "proxy", target: options.embeddedRpcUrl }
      : config.rpcPublicUrl
        ? { kind: "public", url: config.rpcPublicUrl }
        : null,
    async close() {
      balances.clear();
      await options.onClose?.();
    },
  };
}
