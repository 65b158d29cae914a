import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  type Abi,
  type Address,
  createPublicClient,
  createWalletClient,
  getAddress,
  type Hex,
  http,
  parseUnits,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import DevToken from "../../../contracts/artifacts/DevToken.json" with { type: "json" };
import MockAggregatorV3 from "../../../contracts/artifacts/MockAggregatorV3.json" with { type: "json" };
import MockUniswapV2Pair from "../../../contracts/artifacts/MockUniswapV2Pair.json" with { type: "json" };
import { aggregatorAbi } from "./abis.ts";

/**
 * The first keys of anvil's default mnemonic ("test test ... junk"): public knowledge, for local development only.
 * Listed rather than derived because deriving the seed costs ~0.5 s of PBKDF2 per call in JavaScript.
 */
export const ANVIL_DEV_KEYS: readonly Hex[] = [
  "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
  "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d",
  "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a",
  "0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6",
  "0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a",
];

/**
 * The development treasury (decision 013): its own account, so that its nonces are never shared with the
 * deployer's feed heartbeat.
 */
export const DEV_TREASURY_INDEX = 4;

export type DevDeployment = {
  chainId: number;
  token: Address;
  weth: Address;
  pool: Address;
  ethUsdFeed: Address;
  deployedAt: string;
};

export type DemoAccount = {
  index: number;
  address: Address;
  privateKey: Hex;
  role: string;
  mintedTokens: string;
};

/** Initial development market: 1,000,000 CPXTB against 5 WETH at 2,000 USD/ETH = 0.01 USD per CPXTB. */
export const DEV_MARKET = {
  tokenReserve: "1000000",
  wethReserve: "5",
  ethUsd: 2000n,
  feedDecimals: 8,
} as const;
const DEMO_MINTS = [
  { index: 0, role: "deployer", tokens: "1000000" },
  { index: 1, role: "demo payer", tokens: "10000" },
  { index: 2, role: "demo payer", tokens: "10000" },
  { index: 3, role: "demo merchant", tokens: "0" },
  { index: DEV_TREASURY_INDEX, role: "treasury (TREASURY_PRIVATE_KEY)", tokens: "100000" },
] as const;

export function demoAccount(index: number) {
  const key = ANVIL_DEV_KEYS[index];
  if (!key) throw new Error(`no development key #${index}`);
  return privateKeyToAccount(key);
}

export function listDemoAccounts(): DemoAccount[] {
  return DEMO_MINTS.map(({ index, role, tokens }) => {
    return {
      index,
      address: demoAccount(index).address,
      privateKey: ANVIL_DEV_KEYS[index]!,
      role,
      mintedTokens: tokens,
    };
  });
}

export function devClients(rpcUrl: string) {
  const transport = http(rpcUrl, { retryCount: 0 });
  const chain = { ...foundry, rpcUrls: { default: { http: [rpcUrl] } } };
  return {
    publicClient: createPublicClient({ chain, transport, pollingInterval: 20 }),
    walletClient: createWalletClient({ chain, transport, account: demoAccount(0), pollingInterval: 20 }),
  };
}

/** Deploys the development token, WETH stand-in, pool and ETH/USD feed, and funds the demo accounts. */
export async function deployDevContracts(rpcUrl: string): Promise<DevDeployment> {
  const { publicClient, walletClient } = devClients(rpcUrl);
  const deploy = async (artifact: { abi: unknown; bytecode: string }, args: unknown[]) => {
    const hash = await walletClient.deployContract({
      abi: artifact.abi as Abi,
      bytecode: artifact.bytecode as Hex,
      args,
    });
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    if (!receipt.contractAddress) throw new Error("deployment produced no contract");
    return getAddress(receipt.contractAddress);
  };
  const call = async (address: Address, abi: unknown, functionName: string, args: unknown[]) => {
    const hash = await walletClient.writeContract({ address, abi: abi as Abi, functionName, args });
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    if (receipt.status !== "success") throw new Error(`${functionName} reverted`);
  };

  const token = await deploy(DevToken, ["CPX Trading Bot (development)", "CPXTB", 18]);
  const weth = await deploy(DevToken, ["Wrapped Ether (development)", "WETH", 18]);
  const pool = await deploy(MockUniswapV2Pair, [token, weth]);
  const ethUsdFeed = await deploy(MockAggregatorV3, [
    DEV_MARKET.feedDecimals,
    "ETH / USD (development)",
    DEV_MARKET.ethUsd * 10n ** BigInt(DEV_MARKET.feedDecimals),
  ]);
  const tokenReserve = parseUnits(DEV_MARKET.tokenReserve, 18);
  const wethReserve = parseUnits(DEV_MARKET.wethReserve, 18);
  const tokenIsToken0 = token.toLowerCase() < weth.toLowerCase();
  await call(
    pool,
    MockUniswapV2Pair.abi,
    "setReserves",
    tokenIsToken0 ? [tokenReserve, wethReserve] : [wethReserve, tokenReserve],
  );
  // The pool's reserves are backed by real balances, like a real pair.
  await call(token, DevToken.abi, "mint", [pool, tokenReserve]);
  await call(weth, DevToken.abi, "mint", [pool, wethReserve]);
  for (const { index, tokens } of DEMO_MINTS) {
    if (tokens === "0") continue;
    await call(token, DevToken.abi, "mint", [demoAccount(index).address, parseUnits(tokens, 18)]);
  }
  return {
    chainId: await publicClient.getChainId(),
    token,
    weth,
    pool,
    ethUsdFeed,
    deployedAt: new Date().toISOString(),
  };
}

/**
 * The deployment recorded under DATA_DIR if the chain still has it (state file intact), else a fresh one.
 * Returns whether it deployed, so the caller can say so.
 */
export async function ensureDevDeployment(
  rpcUrl: string,
  dataDir: string,
): Promise<{ deployment: DevDeployment; deployed: boolean }> {
  const file = join(dataDir, "dev-chain.json");
  if (existsSync(file)) {
    const recorded = JSON.parse(readFileSync(file, "utf8")) as DevDeployment;
    const { publicClient } = devClients(rpcUrl);
    const code = await publicClient.getCode({ address: recorded.token });
    if (code && code !== "0x") return { deployment: recorded, deployed: false };
  }
  const deployment = await deployDevContracts(rpcUrl);
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, `${JSON.stringify(deployment, null, 2)}\n`);
  return { deployment, deployed: true };
}

/** Older development deployments predate the treasury account: fund it once (it already holds anvil's ETH). */
export async function ensureDevTreasuryFunded(rpcUrl: string, deployment: DevDeployment): Promise<void> {
  const { publicClient, walletClient } = devClients(rpcUrl);
  const treasury = demoAccount(DEV_TREASURY_INDEX).address;
  const balance = (await publicClient.readContract({
    address: deployment.token,
    abi: DevToken.abi as Abi,
    functionName: "balanceOf",
    args: [treasury],
  })) as bigint;
  if (balance > 0n) return;
  const hash = await walletClient.writeContract({
    address: deployment.token,
    abi: DevToken.abi as Abi,
    functionName: "mint",
    args: [treasury, parseUnits("100000", 18)],
  });
  await publicClient.waitForTransactionReceipt({ hash });
}

/**
 * Re-posts the development ETH/USD answer, as Chainlink's heartbeat would, so that a pool price on the local
 * chain does not go stale while the server runs.
 */
export async function refreshDevFeed(rpcUrl: string, feed: Address): Promise<void> {
  const { publicClient, walletClient } = devClients(rpcUrl);
  const [, answer] = await publicClient.readContract({
    address: feed,
    abi: aggregatorAbi,
    functionName: "latestRoundData",
  });
  const hash = await walletClient.writeContract({
    address: feed,
    abi: MockAggregatorV3.abi as Abi,
    functionName: "setAnswer",
    args: [answer],
  });
  await publicClient.waitForTransactionReceipt({ hash });
}
