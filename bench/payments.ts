// Payments: creation throughput (app.inject, 50 in flight) and indexer throughput (transfers processed while
// 1,000 payments are open). Embedded anvil + in-memory PGlite (or DATABASE_URL). Detection latency to the pay
// page: bench/detection.ts.
// Run: npx tsx bench/payments.ts   (CREATIONS=2000 TRANSFERS=300 to change the sizes)
import { setUpPaymentsBench } from "./payments-setup.ts";

const CREATIONS = Number(process.env.CREATIONS ?? 2000);
const TRANSFERS = Number(process.env.TRANSFERS ?? 200);
const IN_FLIGHT = 50;

const bench = await setUpPaymentsBench();
const { app, test, database } = bench;
try {
  await app.payments.indexer!.runOnce();

  // 1. Creation throughput: many prices, 50 requests in flight. A short warm-up first (JIT, caches).
  const createMany = async (count: number, price: (i: number) => number) => {
    let next = 0;
    let failures = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (next < count) {
          const i = next++;
          const res = await bench.create(price(i));
          if (res.statusCode !== 201) failures++;
        }
      }),
    );
    return { seconds: (performance.now() - started) / 1000, failures };
  };
  await createMany(200, (i) => 50 + (i % 50));
  const created = await createMany(CREATIONS, (i) => 100 + (i % 400));
  console.log(
    `payment creation: ${Math.round(CREATIONS / created.seconds)} /s (${CREATIONS} in ${created.seconds.toFixed(2)} s, ${IN_FLIGHT} in flight, ${created.failures} failed, ${database.driver})`,
  );
  // The same price for all: every creation competes for the 999 tags of one amount.
  const samePrice = await createMany(500, () => 9999);
  console.log(
    `payment creation, one price: ${Math.round(500 / samePrice.seconds)} /s (500 in ${samePrice.seconds.toFixed(2)} s, ${samePrice.failures} failed)`,
  );

  // 2. Indexer throughput: TRANSFERS exact payments mined in one block while 1,000 more payments are open.
  const open: { amountDueBase: string }[] = [];
  for (let i = 0; i < 1000; i++) open.push((await bench.create(1000 + (i % 500))).json());
  await test.setAutomine(false);
  for (let i = 0; i < TRANSFERS; i++) await bench.pay(open[i]!.amountDueBase);
  await test.mine({ blocks: 1 });
  await test.setAutomine(true);
  const t0 = performance.now();
  await app.payments.indexer!.runOnce();
  const indexSeconds = (performance.now() - t0) / 1000;
  console.log(
    `indexer: ${TRANSFERS} transfers in one block with ${200 + CREATIONS + 500 + 1000} open payments in ${indexSeconds.toFixed(2)} s = ${Math.round(TRANSFERS / indexSeconds)} transfers/s`,
  );
} finally {
  await bench.close();
}
