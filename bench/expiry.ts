// Expiry job throughput: BENCH_DUE_PAYMENTS open payments (default 10,000, created through the API, 1 minute each),
// then the chain moved 2 minutes on and indexed, then the expiry job run until nothing is left due (each run
// expires what it finds: a run handles a bounded number, so this may take several). Prints the time, the runs and
// the statements the app sent through drizzle meanwhile, and checks every payment expired with one event.
//
//   node --import tsx bench/expiry.ts                                                  # embedded PGlite
//   DATABASE_URL=postgres://root@127.0.0.1:5432/postgres node --import tsx bench/expiry.ts
// With DATABASE_URL, a database of its own is created beside the given one and dropped afterwards.
import { loadavg } from "node:os";
import { sql } from "drizzle-orm";
import { createBenchDatabase } from "./database.ts";
import { setUpPaymentsBench } from "./payments-setup.ts";

const DUE = Number(process.env.BENCH_DUE_PAYMENTS ?? 10_000);

const { url, drop } = await createBenchDatabase("expiry");
const bench = await setUpPaymentsBench({ databaseUrl: url });
const { app, test, database } = bench;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");

try {
  const created = performance.now();
  await bench.createPayments(DUE, (i) => ({
    currency: "CPXTB",
    amount: String(1 + (i % 400)),
    expiresInMinutes: 1,
  }));
  console.log(
    `${DUE} payments created in ${((performance.now() - created) / 1000).toFixed(1)} s (${database.driver})`,
  );
  // The chain's time (as the indexer knows it) past every expiry; the wall clock still inside the monitoring window.
  const latest = await test.getBlock({ blockTag: "latest" });
  const past = BigInt(Math.max(Number(latest.timestamp), Math.floor(Date.now() / 1000))) + 120n;
  await test.setNextBlockTimestamp({ timestamp: past });
  await test.mine({ blocks: 1 });
  await app.payments.indexer!.runOnce();

  let runs = 0;
  let expired = 0;
  const { ms, statements } = await bench.measure(async () => {
    for (;;) {
      runs++;
      const found = await app.payments.expireNow();
      if (found === 0) break;
      expired += found;
    }
  });

  const rows = await bench.countRows(sql`select count(*) as n from payments where status = 'expired'`);
  const events = await bench.countRows(
    sql`select count(*) as n from payment_events where type = 'payment.expired'`,
  );
  if (rows !== DUE || events !== DUE || expired !== DUE) {
    throw new Error(`${rows} expired, ${events} expiry events, ${expired} reported (expected ${DUE} each)`);
  }
  console.log(
    `expiry (${database.driver}): ${DUE} due payments expired in ${ms.toFixed(0)} ms ` +
      `(${((DUE / ms) * 1000).toFixed(0)} payments/s), ${runs} runs of the job (the last finds none), ` +
      `${statements} statements (load average ${load()})`,
  );
} finally {
  await bench.close();
  await drop();
}
