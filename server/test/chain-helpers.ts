import { createServer as createHttpServer, type Server } from "node:http";
import type { Socket } from "node:net";
import { type Abi, type Address, getAddress, type Hex, parseUnits } from "viem";
import DevToken from "../../contracts/artifacts/DevToken.json" with { type: "json" };
import MockAggregatorV3 from "../../contracts/artifacts/MockAggregatorV3.json" with { type: "json" };
import MockUniswapV2Pair from "../../contracts/artifacts/MockUniswapV2Pair.json" with { type: "json" };
import { type DevDeployment, deployDevContracts, devClients } from "../src/chain/dev-chain.ts";
import { type EmbeddedAnvil, findFreePort, startAnvil } from "../src/chain/embedded-anvil.ts";
import { type Chain, connectChain } from "../src/chain/service.ts";
import { type ChainConfig, testConfig } from "../src/config.ts";

export type TestChain = {
  anvil: EmbeddedAnvil;
  url: string;
  deployment: DevDeployment;
  /** Mints `amount` base units of `token` (default: the CPXTB stand-in) to `to`. */
  mint(to: Address, amount: bigint, token?: Address): Promise<void>;
  deployToken(symbol: string, decimals: number): Promise<Address>;
  setReserves(tokenReserve: bigint, wethReserve: bigint): Promise<void>;
  setFeed(answer: bigint, updatedAtSeconds?: bigint): Promise<void>;
  stop(): Promise<void>;
};

/** A real anvil on a free port with the development contracts deployed: one per test file. */
export async function startTestChain(): Promise<TestChain> {
  const anvil = await startAnvil({});
  const deployment = await deployDevContracts(anvil.url);
  const { publicClient, walletClient } = devClients(anvil.url);
  const send = async (address: Address, abi: unknown, functionName: string, args: unknown[]) => {
    const hash = await walletClient.writeContract({ address, abi: abi as Abi, functionName, args });
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    if (receipt.status !== "success") throw new Error(`${functionName} reverted`);
  };
  return {
    anvil,
    url: anvil.url,
    deployment,
    mint: (to, amount, token = deployment.token) => send(token, DevToken.abi, "mint", [to, amount]),
    async deployToken(symbol, decimals) {
      const hash = await walletClient.deployContract({
        abi: DevToken.abi as Abi,
        bytecode: DevToken.bytecode as Hex,
        args: [`${symbol} (test)`, symbol, decimals],
      });
      const receipt = await publicClient.waitForTransactionReceipt({ hash });
      return getAddress(receipt.contractAddress!);
    },
    async setReserves(tokenReserve, wethReserve) {
      const tokenIsToken0 = deployment.token.toLowerCase() < deployment.weth.toLowerCase();
      await send(
        deployment.pool,
        MockUniswapV2Pair.abi,
        "setReserves",
        tokenIsToken0 ? [tokenReserve, wethReserve] : [wethReserve, tokenReserve],
      );
    },
    async setFeed(answer, updatedAtSeconds) {
      if (updatedAtSeconds === undefined)
        await send(deployment.ethUsdFeed, MockAggregatorV3.abi, "setAnswer", [answer]);
      else
        await send(deployment.ethUsdFeed, MockAggregatorV3.abi, "setRoundData", [answer, updatedAtSeconds]);
    },
    stop: () => anvil.stop(),
  };
}

/** The chain settings of a test: defaults, pointed at `rpcUrl` and the deployed token, plus overrides. */
export function chainConfigFor(
  rpcUrl: string,
  deployment: DevDeployment,
  overrides: Partial<Omit<ChainConfig, "price">> & { price?: Partial<ChainConfig["price"]> } = {},
): ChainConfig {
  const base = testConfig().chain;
  return {
    ...base,
    rpcUrls: [rpcUrl],
    chainId: 31337,
    tokenAddress: deployment.token,
    ...overrides,
    price: {
      ...base.price,
      poolAddress: deployment.pool,
      ethUsdFeedAddress: deployment.ethUsdFeed,
      ...overrides.price,
    },
  } as ChainConfig;
}

export function connectTestChain(
  rpcUrl: string,
  deployment: DevDeployment,
  overrides: Parameters<typeof chainConfigFor>[2] = {},
  onRequest?: () => void,
): Promise<Chain> {
  return connectChain(chainConfigFor(rpcUrl, deployment, overrides), { onRequest });
}

export type RpcProxy = {
  url: string;
  /** JSON-RPC HTTP requests received. */
  requests: number;
  /** "pass" forwards, "hang" accepts and never answers, "refuse" closes the listener (connection refused). */
  setMode(mode: "pass" | "hang"): void;
  close(): Promise<void>;
};

/**
 * An HTTP hop in front of anvil that counts requests and can stop answering: the real node, observed and
 * made slow or dead on demand.
 */
export async function startRpcProxy(target: string): Promise<RpcProxy> {
  let mode: "pass" | "hang" = "pass";
  const sockets = new Set<Socket>();
  const proxy = {
    url: "",
    requests: 0,
    setMode(m: "pass" | "hang") {
      mode = m;
    },
    close: async () => {},
  };
  const server = createHttpServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    proxy.requests++;
    if (mode === "hang") return; // never answers; the socket stays open until the client gives up
    const response = await fetch(target, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: Buffer.concat(chunks),
    });
    res.writeHead(response.status, { "content-type": "application/json" });
    res.end(await response.text());
  });
  // Longer than any test's pause: a keep-alive socket closed under the client would read as a spurious 502.
  server.keepAliveTimeout = 120_000;
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  const port = await listen(server);
  proxy.url = `http://127.0.0.1:${port}`;
  proxy.close = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  return proxy;
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      resolve(typeof address === "object" && address ? address.port : 0);
    });
  });
}

/** A loopback URL where nothing listens: connections are refused. */
export async function closedPortUrl(): Promise<string> {
  return `http://127.0.0.1:${await findFreePort()}`;
}

export const tokens = (amount: string, decimals = 18) => parseUnits(amount, decimals);

/**
 * One app per test file is much cheaper than one per test; this chain forwards to whichever connection the test
 * selects with `use`, so tests with different chain settings share the app.
 */
export function createSwitchableChain(initial: Chain): Chain & { use(next: Chain): void } {
  let current = initial;
  return new Proxy({} as Chain & { use(next: Chain): void }, {
    get(_target, key) {
      if (key === "use")
        return (next: Chain) => {
          current = next;
        };
      return Reflect.get(current, key);
    },
  });
}
