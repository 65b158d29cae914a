// Indexer throughput (issue 14, "Indexer in bulk"): BENCH_OPEN_PAYMENTS open payments (default 10,000, created
// through the API), then ROUNDS rounds (default 3) of BENCH_TRANSFERS token transfers (default 3,000) sent with
// automine off and mined into as few blocks as the gas limit allows: most pay a payment's exact amount, some pay a
// payment twice (overpaid), some send an amount nothing asks for (the merchant's inbox). Each round times one
// indexer catch-up over those blocks (getLogs, matching, credits, timeline, outbox, in its transactions) and counts
// the statements the app sent through drizzle meanwhile.
//
//   node --import tsx bench/indexer.ts                                                  # embedded PGlite
//   DATABASE_URL=postgres://root@127.0.0.1:5432/postgres node --import tsx bench/indexer.ts
// With DATABASE_URL, a database of its own is created beside the given one and dropped afterwards.
import { loadavg } from "node:os";
import { sql } from "drizzle-orm";
import { encodeFunctionData, erc20Abi, type Hex } from "viem";
import { demoAccount } from "../server/src/chain/dev-chain.ts";
import { createBenchDatabase } from "./database.ts";
import { setUpPaymentsBench } from "./payments-setup.ts";

const OPEN = Number(process.env.BENCH_OPEN_PAYMENTS ?? 10_000);
const TRANSFERS = Number(process.env.BENCH_TRANSFERS ?? 3000);
const ROUNDS = Number(process.env.ROUNDS ?? 3);

const { url, drop } = await createBenchDatabase("indexer");
const bench = await setUpPaymentsBench({ databaseUrl: url });
const { test, database } = bench;
const indexer = bench.app.payments.indexer!;

try {
  // Open payments through the API (tags, reserved amounts and all).
  const created = performance.now();
  const open = (
    await bench.createPayments(OPEN, (i) => ({ currency: "CPXTB", amount: String(1 + (i % 400)) }))
  ).map((json) => ({ id: json.id, due: BigInt(json.amountDueBase) }));
  console.log(
    `${OPEN} open payments created in ${((performance.now() - created) / 1000).toFixed(1)} s (${database.driver})`,
  );
  await indexer.runOnce();

  const payer = demoAccount(1);
  let nonce = await test.getTransactionCount({ address: payer.address, blockTag: "pending" });
  const results: { tps: number; statements: number; blocks: number; ms: number }[] = [];
  let next = 0;
  for (let round = 0; round < ROUNDS; round++) {
    // 80 % exact amounts, 10 % a payment paid twice (overpaid), 10 % amounts nothing asks for (inbox).
    const amounts: bigint[] = [];
    let credited = 0;
    for (let step = 0; amounts.length < TRANSFERS; step++) {
      const kind = step % 10;
      if (next >= open.length) throw new Error("not enough open payments for that many transfers");
      const payment = open[next++]!;
      if (kind === 9) {
        amounts.push(123_456_789n + BigInt(amounts.length));
      } else if (kind === 8 && amounts.length + 2 <= TRANSFERS) {
        amounts.push(payment.due, payment.due);
        credited += 2;
      } else {
        amounts.push(payment.due);
        credited++;
      }
    }
    const stillOpen = await bench.countRows(
      sql`select count(*) as n from payments where status in ('pending', 'processing', 'partial')`,
    );
    await test.setAutomine(false);
    const firstBlock = (await test.getBlockNumber({ cacheTime: 0 })) + 1n;
    for (let i = 0; i < amounts.length; i += 200) {
      const raws: Hex[] = await Promise.all(
        amounts.slice(i, i + 200).map((amount) =>
          payer.signTransaction({
            chainId: 31337,
            type: "eip1559",
            to: bench.token,
            data: encodeFunctionData({
              abi: erc20Abi,
              functionName: "transfer",
              args: [bench.merchantAddress, amount],
            }),
            nonce: nonce++,
            gas: 80_000n,
            maxFeePerGas: 100_000_000_000n,
            maxPriorityFeePerGas: 1_000_000_000n,
          }),
        ),
      );
      await Promise.all(
        raws.map((serializedTransaction) => test.sendRawTransaction({ serializedTransaction })),
      );
    }
    let blocks = 0;
    while ((await test.getTxpoolStatus()).pending > 0) {
      await test.mine({ blocks: 1 });
      blocks++;
    }
    await test.setAutomine(true);
    const lastBlock = await test.getBlockNumber({ cacheTime: 0 });
    const logs = await test.getContractEvents({
      address: bench.token,
      abi: erc20Abi,
      eventName: "Transfer",
      fromBlock: firstBlock,
      toBlock: lastBlock,
    });
    if (logs.length !== TRANSFERS) throw new Error(`${logs.length} transfers mined, ${TRANSFERS} sent`);

    const { ms, statements } = await bench.measure(() => indexer.runOnce());

    const recorded = await bench.countRows(
      sql`select count(*) as n from chain_transfers where block_number >= ${firstBlock.toString()}
          and payment_id is not null`,
    );
    const stored = await bench.countRows(
      sql`select count(*) as n from chain_transfers where block_number >= ${firstBlock.toString()}`,
    );
    if (recorded !== credited || stored !== TRANSFERS) {
      throw new Error(`round ${round}: ${recorded} credited (expected ${credited}), ${stored} stored`);
    }
    const tps = (TRANSFERS / ms) * 1000;
    results.push({ tps, statements, blocks, ms });
    console.log(
      `round ${round + 1}: ${TRANSFERS} transfers in ${blocks} blocks (${credited} credits, ${stillOpen} open ` +
        `payments): ${ms.toFixed(0)} ms -> ${tps.toFixed(0)} transfers/s, ${statements} statements ` +
        `(load ${loadavg()
          .map((l) => l.toFixed(2))
          .join(" ")})`,
    );
  }
  const sorted = [...results].sort((a, b) => a.tps - b.tps);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  console.log(
    `indexer (${database.driver}, ${OPEN} open payments, ${TRANSFERS} transfers per round, median of ${ROUNDS}): ` +
      `${median.tps.toFixed(0)} transfers/s, ${median.statements} statements for ${median.blocks} blocks ` +
      `(load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(" ")})`,
  );
} finally {
  await bench.close();
  await drop();
}
