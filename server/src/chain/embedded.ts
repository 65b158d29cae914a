import type { ChainConfig } from "../config.ts";
import {
  type DemoAccount,
  type DevDeployment,
  ensureDevDeployment,
  ensureDevTreasuryFunded,
  listDemoAccounts,
  refreshDevFeed,
} from "./dev-chain.ts";
import { type EmbeddedAnvil, startEmbeddedAnvil } from "./embedded-anvil.ts";
import { type Chain, connectChain } from "./service.ts";

export type EmbeddedChain = {
  chain: Chain;
  anvil: EmbeddedAnvil;
  deployment: DevDeployment;
  deployed: boolean;
  demoAccounts: DemoAccount[];
  startupMs: number;
};

const EMBEDDED_RPC_TIMEOUT_MS = 15_000;

/**
 * The development chain of `npm start` without RPC_URL: anvil on a free loopback port with its state under
 * DATA_DIR, the contracts deployed on first start, and a chain connection that stops anvil when closed.
 */
export async function startEmbeddedChain(
  config: ChainConfig,
  dataDir: string,
  log?: { warn: (obj: object, msg: string) => void },
  /** anvil already starting (`startEmbeddedAnvil`, from main.ts), else it is started here. */
  starting?: Promise<EmbeddedAnvil>,
): Promise<EmbeddedChain> {
  const started = performance.now();
  const anvil = await (starting ?? startEmbeddedAnvil(config.chainId, dataDir));
  let heartbeat: NodeJS.Timeout | undefined;
  try {
    const { deployment, deployed } = await ensureDevDeployment(anvil.url, dataDir);
    if (!deployed) await ensureDevTreasuryFunded(anvil.url, deployment);
    // The feed is kept fresh with a fixed price too: ETH purchases are quoted with its ETH/USD answer.
    {
      // Like Chainlink's heartbeat: keep the development feed fresh so the price never goes stale locally.
      await refreshDevFeed(anvil.url, deployment.ethUsdFeed);
      const everyMs = Math.max(1000, (config.price.maxAgeSeconds * 1000) / 2);
      heartbeat = setInterval(() => {
        refreshDevFeed(anvil.url, deployment.ethUsdFeed).catch((error) =>
          log?.warn({ err: String(error) }, "development feed refresh failed"),
        );
      }, everyMs);
      heartbeat.unref();
    }
    const chain = await connectChain(
      {
        ...config,
        // Our own node on this machine: a slow answer means a busy machine, not a dead node (a first start under
        // heavy load saw the start-up check give up after the usual 4 s).
        rpcTimeoutMs: Math.max(config.rpcTimeoutMs, EMBEDDED_RPC_TIMEOUT_MS),
        rpcUrls: [anvil.url],
        tokenAddress: deployment.token,
        price: { ...config.price, poolAddress: deployment.pool, ethUsdFeedAddress: deployment.ethUsdFeed },
      },
      {
        log,
        embeddedRpcUrl: anvil.url,
        onClose: async () => {
          clearInterval(heartbeat);
          await anvil.stop();
        },
      },
    );
    return {
      chain,
      anvil,
      deployment,
      deployed,
      demoAccounts: listDemoAccounts(),
      startupMs: Math.round(performance.now() - started),
    };
  } catch (error) {
    clearInterval(heartbeat);
    await anvil.stop();
    throw error;
  }
}
