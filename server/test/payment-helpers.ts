import { randomBytes } from "node:crypto";
import {
  type Address,
  createTestClient,
  createWalletClient,
  erc20Abi,
  type Hash,
  http,
  publicActions,
} from "viem";
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { type App, buildApp } from "../src/app.ts";
import { connectChain } from "../src/chain/service.ts";
import { testConfig } from "../src/config.ts";
import { chainConfigFor, startTestChain, type TestChain } from "./chain-helpers.ts";
import { createTestDatabase, statementCounter } from "./helpers.ts";

export const PASSWORD = "correct horse battery staple 42";

/** Generous limits: these tests are about payments, not the rate limiter. */
export function paymentTestConfig() {
  const big = { limit: 100_000, windowMs: 60_000 };
  const limits = testConfig().rateLimits;
  return {
    rateLimits: Object.fromEntries(Object.keys(limits).map((k) => [k, big])) as typeof limits,
  };
}

/** A clock tests move forward (expiry, monitoring window) without sleeping. */
export function createClock() {
  let offsetMs = 0;
  return {
    now: () => new Date(Date.now() + offsetMs),
    advance(ms: number) {
      offsetMs += ms;
    },
  };
}

export async function signUp(app: App): Promise<{ cookie: string; username: string }> {
  const username = `u${randomBytes(5).toString("hex")}`;
  const res = await app.inject({
    method: "POST",
    url: "/api/register",
    payload: { username, password: PASSWORD },
  });
  if (res.statusCode !== 201) throw new Error(`register failed: ${res.body}`);
  const cookie = res.cookies.find((c) => c.name === "cpxtb_session")!;
  return { cookie: `cpxtb_session=${cookie.value}`, username };
}

export function api(app: App, cookie?: string) {
  const call = (method: "GET" | "POST" | "PATCH", url: string, payload?: unknown) =>
    app.inject({ method, url, payload: payload as object, headers: cookie ? { cookie } : {} });
  return {
    get: (url: string) => call("GET", url),
    post: (url: string, payload: unknown = {}) => call("POST", url, payload),
    patch: (url: string, payload: unknown) => call("PATCH", url, payload),
  };
}

export async function proveWallet(app: App, cookie: string, wallet: PrivateKeyAccount) {
  const challenge = await api(app, cookie).post("/api/merchant/wallet-challenge", {
    address: wallet.address,
  });
  if (challenge.statusCode !== 200) throw new Error(challenge.body);
  const { nonce, message } = challenge.json() as { nonce: string; message: string };
  return { nonce, signature: await wallet.signMessage({ message }) };
}

export type TestMerchant = { cookie: string; wallet: PrivateKeyAccount; id: string };

export async function createMerchant(
  app: App,
  overrides: Record<string, unknown> = {},
): Promise<TestMerchant> {
  const { cookie } = await signUp(app);
  const wallet = privateKeyToAccount(generatePrivateKey());
  const res = await api(app, cookie).post("/api/merchant", {
    name: "Corner Coffee",
    businessType: "food",
    contactEmail: "owner@example.com",
    walletAddress: wallet.address,
    proof: await proveWallet(app, cookie, wallet),
    ...overrides,
  });
  if (res.statusCode !== 201) throw new Error(`merchant failed: ${res.body}`);
  return { cookie, wallet, id: (res.json() as { id: string }).id };
}

export type PaymentJson = {
  id: string;
  reference: string;
  status: string;
  amountDueBase: string;
  amountReceivedBase: string;
  overpaid: boolean;
  overpaidBase: string;
  paymentUri: string;
  receivingAddress: string;
  tag: number;
  payerLanguage: string | null;
};

export async function createPayment(
  app: App,
  cookie: string,
  body: Record<string, unknown> = {},
): Promise<PaymentJson> {
  const res = await api(app, cookie).post("/api/merchant/payments", {
    currency: "USD",
    amount: "10.00",
    ...body,
  });
  if (res.statusCode !== 201) throw new Error(`payment failed: ${res.statusCode} ${res.body}`);
  return res.json() as PaymentJson;
}

export async function getPayment(app: App, cookie: string, id: string) {
  return (await api(app, cookie).get(`/api/merchant/payments/${id}`)).json() as PaymentJson & {
    timeline: { from: string | null; to: string; cause: string }[];
    transfers: { txHash: string; orphaned: boolean }[];
  };
}

/** Anvil helpers: payers that hold tokens, blocks mined on demand, snapshots. */
export function chainTools(chain: TestChain) {
  const test = createTestClient({
    chain: foundry,
    mode: "anvil",
    transport: http(chain.url, { retryCount: 0 }),
  }).extend(publicActions);
  const payer = async (tokens = 10n ** 24n) => {
    const account = privateKeyToAccount(generatePrivateKey());
    await test.setBalance({ address: account.address, value: 10n ** 20n });
    await chain.mint(account.address, tokens);
    return account;
  };
  const pay = async (
    from: PrivateKeyAccount,
    to: Address,
    amount: bigint | string,
    token = chain.deployment.token,
    gas?: bigint,
  ) => {
    const wallet = createWalletClient({
      chain: foundry,
      account: from,
      transport: http(chain.url, { retryCount: 0 }),
    });
    const hash = await wallet.writeContract({
      address: token,
      abi: erc20Abi,
      functionName: "transfer",
      args: [to, BigInt(amount)],
      ...(gas ? { gas } : {}),
    });
    const receipt = await test.waitForTransactionReceipt({ hash, pollingInterval: 20 });
    return { hash: hash as Hash, receipt };
  };
  return {
    test,
    payer,
    pay,
    mine: (blocks = 1) => test.mine({ blocks }),
    snapshot: () => test.snapshot(),
    revert: (id: `0x${string}`) => test.revert({ id }),
  };
}

const SPLITTER_SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
interface IERC20 { function transferFrom(address from, address to, uint256 value) external returns (bool); }
contract Splitter {
  function split(address token, address[] calldata to, uint256[] calldata values) external {
    for (uint256 i = 0; i < to.length; i++) require(IERC20(token).transferFrom(msg.sender, to[i], values[i]));
  }
}`;

/** A contract that makes several token transfers in one transaction (compiled here with solc-js). */
export async function compileSplitter(): Promise<{ abi: unknown[]; bytecode: `0x${string}` }> {
  const solc = (await import("solc")).default;
  const input = {
    language: "Solidity",
    sources: { "Splitter.sol": { content: SPLITTER_SOURCE } },
    settings: { evmVersion: "paris", outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"] } } },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input)));
  const contract = output.contracts["Splitter.sol"].Splitter;
  return { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` };
}

/**
 * The batch tests' world: a local chain, a database whose statements are counted, the app on both with the given
 * clock, a merchant, and the indexer caught up. `close()` stops what was started, also after a failed start.
 */
export async function startBatchWorld({ confirmations, now }: { confirmations: number; now: () => Date }) {
  const counter = statementCounter();
  const chain = await startTestChain();
  let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
  let app: App | undefined;
  const close = async () => {
    await app?.close();
    await database?.close();
    await chain.stop();
  };
  try {
    const connected = await connectChain(chainConfigFor(chain.url, chain.deployment, { confirmations }));
    database = await createTestDatabase({ onStatement: counter.onStatement });
    app = await buildApp(testConfig({ clientDist: "/nonexistent", ...paymentTestConfig() }), {
      chain: connected,
      // The live publisher's sweep would add its statement to a counted run now and then.
      payments: { now, runtime: { liveSweepMs: 3_600_000 } },
      database,
    });
    const merchant = await createMerchant(app);
    await app.payments.indexer!.runOnce();
    return { chain, tools: chainTools(chain), database, app, merchant, counter, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * Runs `meanwhile` once, when the app's next database transaction starts: after the caller has read what it read
 * before its transaction (a chain head, the due payments), as a concurrent indexer run would.
 */
export function beforeNextTransaction(app: App, meanwhile: () => Promise<void>): () => void {
  const db = app.database.db;
  db.transaction = (async (...args: Parameters<typeof db.transaction>) => {
    delete (db as Partial<typeof db>).transaction;
    await meanwhile();
    return db.transaction(...args);
  }) as typeof db.transaction;
  return () => delete (db as Partial<typeof db>).transaction;
}
