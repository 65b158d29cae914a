import { type Chain, createPublicClient, defineChain, fallback, http, type PublicClient } from "viem";
import { base, foundry, mainnet, sepolia } from "viem/chains";

const KNOWN_CHAINS: Record<number, Chain> = {
  [base.id]: base,
  [mainnet.id]: mainnet,
  [sepolia.id]: sepolia,
  [foundry.id]: foundry,
};

export function chainDefinition(chainId: number, rpcUrl: string): Chain {
  const known = KNOWN_CHAINS[chainId];
  if (known) return known;
  return defineChain({
    id: chainId,
    name: `Chain ${chainId}`,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
}

export type RpcClientOptions = {
  rpcUrls: string[];
  chainId: number;
  timeoutMs: number;
  /** Called for every HTTP request sent to a node (tests count them). */
  onRequest?: () => void;
};

/**
 * A read client over the primary RPC with the others as fallbacks. No retries inside one transport: a dead node
 * should cost one timeout, then the next URL is tried, and the caller turns the final failure into 502/504.
 */
export function createRpcClient(options: RpcClientOptions): PublicClient {
  const [first] = options.rpcUrls;
  if (!first) throw new Error("createRpcClient needs at least one RPC URL");
  const transports = options.rpcUrls.map((url) =>
    http(url, {
      timeout: options.timeoutMs,
      retryCount: 0,
      onFetchRequest: options.onRequest ? () => options.onRequest?.() : undefined,
    }),
  );
  return createPublicClient({
    chain: chainDefinition(options.chainId, first),
    transport: transports.length === 1 ? transports[0]! : fallback(transports, { retryCount: 0 }),
    batch: { multicall: false },
    cacheTime: 0,
  }) as PublicClient;
}

/** The host of an RPC URL, for logs: paths and query strings often hold API keys. */
export function redactRpcUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}`;
  } catch {
    return "(invalid URL)";
  }
}
