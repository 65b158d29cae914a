import { type Address, formatUnits, type PublicClient } from "viem";
import { erc20Abi } from "./abis.ts";
import { createCoalescingCache } from "./coalescing-cache.ts";
import { toChainError } from "./rpc-errors.ts";

export type TokenInfo = { address: Address; decimals: number; symbol: string };

/** Reads what the server must know about the token before serving anything: it fails when there is no token. */
export async function readTokenInfo(client: PublicClient, address: Address): Promise<TokenInfo> {
  const code = await client.getCode({ address });
  if (!code || code === "0x") {
    throw new Error(`TOKEN_ADDRESS ${address} has no contract code on chain ${await client.getChainId()}.`);
  }
  const [decimals, symbol] = await Promise.all([
    client.readContract({ address, abi: erc20Abi, functionName: "decimals" }),
    client.readContract({ address, abi: erc20Abi, functionName: "symbol" }),
  ]);
  return { address, decimals, symbol };
}

export type TokenBalance = { baseUnits: bigint; balance: string };

export function createBalanceReader(
  client: PublicClient,
  token: TokenInfo,
  cacheMs: number,
  now: () => number = Date.now,
) {
  const cache = createCoalescingCache<TokenBalance>(cacheMs, undefined, now);
  return {
    /** `owner` must already be checksummed (it is the cache key). */
    getBalance(owner: Address): Promise<TokenBalance> {
      return cache.get(owner, async () => {
        try {
          const baseUnits = await client.readContract({
            address: token.address,
            abi: erc20Abi,
            functionName: "balanceOf",
            args: [owner],
          });
          return { baseUnits, balance: formatUnits(baseUnits, token.decimals) };
        } catch (error) {
          throw toChainError(error, "the token balance");
        }
      });
    },
    clear: cache.clear,
  };
}
