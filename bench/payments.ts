// Payments: creation throughput (app.inject, 50 in flight), detection latency from the confirming block to the
// outbox event, and indexer throughput with 1,000 open payments. Embedded anvil + in-memory PGlite (or DATABASE_URL).
// Run: npx tsx bench/payments.ts   (CREATIONS=2000 TRANSFERS=300 to change the sizes)
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Abi, createTestClient, createWalletClient, erc20Abi, http, publicActions } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import DevToken from "../contracts/artifacts/DevToken.json" with { type: "json" };
import { buildApp } from "../server/src/app.ts";
import { demoAccount } from "../server/src/chain/dev-chain.ts";
import { startEmbeddedChain } from "../server/src/chain/embedded.ts";
import { testConfig } from "../server/src/config.ts";
import { openDatabase } from "../server/src/db/client.ts";

const CREATIONS = Number(process.env.CREATIONS ?? 1000);
const TRANSFERS = Number(process.env.TRANSFERS ?? 200);
const LATENCY_SAMPLES = Number(process.env.SAMPLES ?? 20);

const dataDir = mkdtempSync(join(tmpdir(), "cpxtb-bench-payments-"));
const config = testConfig({ clientDist: "/nonexistent", dataDir });
for (const group of Object.keys(config.rateLimits) as (keyof typeof config.rateLimits)[]) {
  config.rateLimits[group] = { limit: 1e9, windowMs: 60_000 };
}
const embedded = await startEmbeddedChain({ ...config.chain, confirmations: 1 }, dataDir);
const database = process.env.DATABASE_URL
  ? await openDatabase({ driver: "pg", url: process.env.DATABASE_URL, poolSize: 20 })
  : await openDatabase({ driver: "pglite", dataDir: null });
await database.migrate();
const app = await buildApp(config, { chain: embedded.chain, database });

try {
  // A merchant whose wallet is a fresh key (proved by signature, like the dashboard does).
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
      proof: { nonce: challenge.nonce, signature: await wallet.signMessage({ message: challenge.message }) },
    },
  });
  if (merchant.statusCode !== 201) throw new Error(merchant.body);
  const create = (cents: number) =>
    app.inject({
      method: "POST",
      url: "/api/merchant/payments",
      headers: { cookie },
      payload: { currency: "USD", amount: (cents / 100).toFixed(2) },
    });
  await app.payments.indexer!.runOnce();

  // 1. Creation throughput: many prices, 50 requests in flight.
  let next = 0;
  let failures = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: 50 }, async () => {
      while (next < CREATIONS) {
        const i = next++;
        const res = await create(100 + (i % 400));
        if (res.statusCode !== 201) failures++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `payment creation: ${Math.round(CREATIONS / seconds)} /s (${CREATIONS} in ${seconds.toFixed(2)} s, 50 in flight, ${failures} failed, ${database.driver})`,
  );

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
  const pay = (amount: string) =>
    payer.writeContract({
      address: embedded.deployment.token,
      abi: erc20Abi,
      functionName: "transfer",
      args: [wallet.address, BigInt(amount)],
    });

  // 2. Detection latency: confirming block (the receipt is in) -> `payment.completed` published, indexer loop running.
  const published = new Map<string, number>();
  app.payments.live.onPublished = (_id, type) => {
    if (type === "payment.completed") published.set(_id, performance.now());
  };
  app.payments.start();
  const latencies: number[] = [];
  for (let i = 0; i < LATENCY_SAMPLES; i++) {
    const payment = (await create(777)).json();
    const before = published.size;
    const hash = await pay(payment.amountDueBase);
    await test.waitForTransactionReceipt({ hash, pollingInterval: 5 });
    const mined = performance.now();
    while (published.size === before) await new Promise((r) => setTimeout(r, 2));
    latencies.push([...published.values()].at(-1)! - mined);
  }
  latencies.sort((a, b) => a - b);
  const pct = (p: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]!.toFixed(0);
  console.log(
    `detection latency (confirming block -> completed event, poll ${config.payments.indexerPollMs} ms): p50 ${pct(50)} ms, p95 ${pct(95)} ms, max ${pct(100)} ms`,
  );
  await app.payments.stop();

  // 3. Indexer throughput: TRANSFERS exact payments mined while 1,000 payments are open, then one catch-up.
  const open: { amountDueBase: string }[] = [];
  for (let i = 0; i < 1000; i++) open.push((await create(1000 + (i % 500))).json());
  await test.setAutomine(false);
  for (let i = 0; i < TRANSFERS; i++) await pay(open[i]!.amountDueBase);
  await test.mine({ blocks: 1 });
  await test.setAutomine(true);
  const t0 = performance.now();
  await app.payments.indexer!.runOnce();
  const indexSeconds = (performance.now() - t0) / 1000;
  console.log(
    `indexer: ${TRANSFERS} transfers with 1,000+ open payments in ${indexSeconds.toFixed(2)} s = ${Math.round(TRANSFERS / indexSeconds)} transfers/s`,
  );
} finally {
  await app.close();
  await database.close();
  await embedded.chain.close();
  rmSync(dataDir, { recursive: true, force: true });
}
