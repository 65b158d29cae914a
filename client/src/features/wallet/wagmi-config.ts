import type { ChainConfigResponse } from "@common/chain";
import { type Chain, defineChain, http } from "viem";
import { mainnet, sepolia } from "viem/chains";
import { createConfig } from "wagmi";
import { injected } from "wagmi/connectors";

/** Spec section 9: wallet polling 4 s, batch wait 32 ms. */
export const WALLET_POLLING_MS = 4_000;
export const WALLET_BATCH_WAIT_MS = 32;

export function tokenChain(config: ChainConfigResponse): Chain {
  return defineChain({
    id: config.chainId,
    name: config.chainName,
    nativeCurrency: config.nativeCurrency,
    rpcUrls: { default: { http: config.rpcUrl ? [config.rpcUrl] : [] } },
    blockExplorers: config.blockExplorerUrl
      ? { default: { name: "Explorer", url: config.blockExplorerUrl } }
      : undefined,
    testnet: config.development,
  });
}

/**
 * Ethereum mainnet, a test network (Sepolia) and the token's chain; injected wallets found through EIP-6963
 * (multiInjectedProviderDiscovery) plus the legacy window.ethereum one. Nothing reconnects by itself.
 */
export function createWalletConfig(config: ChainConfigResponse) {
  const token = tokenChain(config);
  const chains = [token, ...[mainnet, sepolia].filter((c) => c.id !== token.id)] as [Chain, ...Chain[]];
  return createConfig({
    chains,
    connectors: [injected({ shimDisconnect: true })],
    multiInjectedProviderDiscovery: true,
    pollingInterval: WALLET_POLLING_MS,
    batch: { multicall: { wait: WALLET_BATCH_WAIT_MS } },
    transports: Object.fromEntries(
      chains.map((c) => [
        c.id,
        http(c.id === token.id ? (config.rpcUrl ?? undefined) : undefined, {
          batch: { wait: WALLET_BATCH_WAIT_MS },
        }),
      ]),
    ),
    ssr: false,
  });
}

let shared: { key: string; config: ReturnType<typeof createWalletConfig> } | undefined;

/**
 * One wagmi config per page for a given chain configuration: the top-right control and Sign-In with Ethereum see
 * the same connection (connecting in one shows in the other).
 */
export function sharedWalletConfig(config: ChainConfigResponse) {
  const key = JSON.stringify(config);
  if (shared?.key !== key) shared = { key, config: createWalletConfig(config) };
  return shared.config;
}

/** EIP-6963 announced wallets first; the generic window.ethereum one only when nothing announced itself. */
export function preferredConnector<C extends { type: string; id: string }>(connectors: readonly C[]) {
  return connectors.find((c) => c.type === "injected" && c.id !== "injected") ?? connectors[0];
}
