// Shared by the payments benchmarks: embedded anvil, in-memory PGlite (or DATABASE_URL), the app with rate limits
// lifted, a merchant whose wallet is a fresh key proved by signature (as the dashboard does), and a funded payer.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SQL } from "drizzle-orm";
import { type Abi, createTestClient, createWalletClient, erc20Abi, http, publicActions } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import DevToken from "../contracts/artifacts/DevToken.json" with { type: "json" };
import { buildApp } from "../server/src/app.ts";
import { demoAccount } from "../server/src/chain/dev-chain.ts";
import { startEmbeddedChain } from "../server/src/chain/embedded.ts";
import { type Config, testConfig } from "../server/src/config.ts";
import { openDatabase, rowsOf } from "../server/src/db/client.ts";

export type PaymentsBench = Awaited<ReturnType<typeof setUpPaymentsBench>>;

export async function setUpPaymentsBench(
  options: {
    configure?: (config: Config) => void;
    /** PostgreSQL to use instead of DATABASE_URL (none: in-memory PGlite). */
    databaseUrl?: string;
  } = {},
) {
  const dataDir = mkdtempSync(join(tmpdir(), "cpxtb-bench-payments-"));
  const config = testConfig({ clientDist: "/nonexistent", dataDir });
  options.configure?.(config);
  for (const group of Object.keys(config.rateLimits) as (keyof typeof config.rateLimits)[]) {
    config.rateLimits[group] = { limit: 1e9, windowMs: 60_000 };
  }
  config.accountRateLimit = { limit: 1e9, windowMs: 60_000 };
  if (process.env.INDEXER_POLL_MS) config.payments.indexerPollMs = Number(process.env.INDEXER_POLL_MS);
  const confirmations = Number(process.env.CONFIRMATIONS ?? 1);
  const embedded = await startEmbeddedChain({ ...config.chain, confirmations }, dataDir);
  const url = options.databaseUrl ?? process.env.DATABASE_URL;
  // Counts the statements the app sends while `measure` runs (the batches' constant-statement claims).
  let statements: number | null = null;
  const onStatement = () => {
    if (statements !== null) statements++;
  };
  const database = url
    ? await openDatabase({ driver: "pg", url, poolSize: 20, onStatement })
    : await openDatabase({ driver: "pglite", dataDir: null, onStatement });
  await database.migrate();
  const app = await buildApp(config, { chain: embedded.chain, database });
  const close = async () => {
    await app.close();
    await database.close();
    await embedded.chain.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const register = await app.inject({
      method: "POST",
      url: "/api/register",
      payload: { username: `bench${Date.now()}`, password: "correct horse battery staple 42" },
    });
    const cookie = `cpxtb_session=${register.cookies.find((c) => c.name === "cpxtb_session")!.value}`;
    const wallet = privateKeyToAccount(generatePrivateKey());
    const challenge = (
      await app.inject({
        method: "POST",
        url: "/api/merchant/wallet-challenge",
        headers: { cookie },
        payload: { address: wallet.address },
      })
    ).json();
    const merchant = await app.inject({
      method: "POST",
      url: "/api/merchant",
      headers: { cookie },
      payload: {
        name: "Bench Shop",
        businessType: "retail",
        contactEmail: "bench@example.com",
        walletAddress: wallet.address,
        proof: {
          nonce: challenge.nonce,
          signature: await wallet.signMessage({ message: challenge.message }),
        },
      },
    });
    if (merchant.statusCode !== 201) throw new Error(merchant.body);

    const test = createTestClient({
      chain: foundry,
      mode: "anvil",
      transport: http(embedded.anvil.url),
    }).extend(publicActions);
    const payer = createWalletClient({
      chain: foundry,
      account: demoAccount(1),
      transport: http(embedded.anvil.url),
    });
    // The deployer owns the development token: mint the payer enough for every sample.
    const owner = createWalletClient({
      chain: foundry,
      account: demoAccount(0),
      transport: http(embedded.anvil.url),
    });
    const minted = await owner.writeContract({
      address: embedded.deployment.token,
      abi: DevToken.abi as Abi,
      functionName: "mint",
      args: [demoAccount(1).address, 10n ** 30n],
    });
    await test.waitForTransactionReceipt({ hash: minted });

    return {
      app,
      config,
      /** Runs `work` and tells how long it took and how many statements the app sent meanwhile. */
      measure: async (work: () => Promise<unknown>) => {
        statements = 0;
        const started = performance.now();
        try {
          await work();
          return { ms: performance.now() - started, statements };
        } finally {
          statements = null;
        }
      },
      /** The `n` column of a one-row count query. */
      countRows: async (query: SQL) => Number(rowsOf<{ n: string }>(await database.db.execute(query))[0]!.n),
      /** Creates `count` payments through the API, 25 at a time; `payload(i)` is the i-th one's body. */
      createPayments: async (count: number, payload: (i: number) => Record<string, unknown>) => {
        const created: { id: string; amountDueBase: string }[] = [];
        for (let i = 0; i < count; i += 25) {
          const batch = await Promise.all(
            Array.from({ length: Math.min(25, count - i) }, (_, k) =>
              app.inject({
                method: "POST",
                url: "/api/merchant/payments",
                headers: { cookie },
                payload: payload(i + k),
              }),
            ),
          );
          for (const res of batch) {
            if (res.statusCode !== 201) throw new Error(res.body);
            created.push(res.json());
          }
        }
        return created;
      },
      database,
      test,
      cookie,
      confirmations,
      close,
      anvilUrl: embedded.anvil.url,
      token: embedded.deployment.token,
      merchantAddress: wallet.address,
      /** POST /api/merchant/payments in USD. */
      create: (cents: number) =>
        app.inject({
          method: "POST",
          url: "/api/merchant/payments",
          headers: { cookie },
          payload: { currency: "USD", amount: (cents / 100).toFixed(2) },
        }),
      /** Sends the exact amount from the payer to the merchant (mined at once unless automine is off). */
      pay: (amountBase: string) =>
        payer.writeContract({
          address: embedded.deployment.token,
          abi: erc20Abi,
          functionName: "transfer",
          args: [wallet.address, BigInt(amountBase)],
        }),
    };
  } catch (error) {
    await close();
    throw error;
  }
}

export function percentile(sorted: number[], p: number): string {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!.toFixed(0);
}
