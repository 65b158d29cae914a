// Reports and history at scale (issue 17, "Numbers to report"): seeds BENCH_PAYMENTS payments (default 100,000)
// for one merchant, spread over the last year, plus BENCH_OTHER_PAYMENTS (default 0) spread over 9 other
// merchants, then measures over HTTP, one request at a time: the history's first and deeper pages, searches,
// 30-day and one-year summaries, and the memory growth of the server process while the CSV of all the merchant's
// rows streams out.
//
//   node --import tsx bench/reports.ts                                  # embedded PGlite, in memory
//   DATABASE_URL=postgres://root@127.0.0.1:5432/x node --import tsx bench/reports.ts
//   DATABASE_URL=... BENCH_OTHER_PAYMENTS=900000 node --import tsx bench/reports.ts   # 1,000,000 in all
//   BENCH_KEEP_DATABASE=1 keeps the PostgreSQL database afterwards, to study plans with psql (drop it yourself).
import { and, desc, eq, sql } from "drizzle-orm";
import { buildApp } from "../server/src/app.ts";
import { testConfig } from "../server/src/config.ts";
import { type Database, openDatabase } from "../server/src/db/client.ts";
import { payments } from "../server/src/db/schema.ts";
import { merchantIdOf } from "../server/src/modules/merchants/repository.ts";
import { searchCondition } from "../server/src/modules/payments/repository.ts";
import { compactPaymentSums } from "../server/src/modules/reports/sums.ts";
import { createBenchDatabase } from "./database.ts";

const PAYMENTS = Number(process.env.BENCH_PAYMENTS ?? 100_000);
const OTHER = Number(process.env.BENCH_OTHER_PAYMENTS ?? 0);

async function openBenchDatabase(): Promise<{ database: Database; drop: () => Promise<void> }> {
  const { url, drop } = await createBenchDatabase("reports");
  if (url) console.log(`database ${new URL(url).pathname.slice(1)}`);
  const database = url
    ? await openDatabase({ driver: "pg", url, poolSize: 10 })
    : await openDatabase({ driver: "pglite", dataDir: null });
  await database.migrate();
  return { database, drop };
}

/**
 * Payments as the engine leaves them: statuses in realistic shares, USD-asked ones with their locked rate,
 * CPXTB-asked ones with the rate at completion, a credited transfer for each payment that received something.
 */
async function seed(database: Database, merchantId: string, count: number, wallet: string, salt: string) {
  const { db } = database;
  const batch = 50_000;
  for (let offset = 0; offset < count; offset += batch) {
    const n = Math.min(batch, count - offset);
    await db.execute(sql`
      insert into payments (id, reference, merchant_id, chain_id, token_address, token_decimals, receiving_address,
        amount_usd_cents, price_e18, price_source, price_at, base_amount, tag, amount_due, tolerance_bps,
        amount_received, amount_seen, description, order_id, status, live, expires_at, monitor_until,
        completed_at, completed_price_e18, completed_price_at, created_at, updated_at)
      select 'pay_' || lpad(to_hex((extract(epoch from t.at) * 1000)::bigint), 12, '0') || lpad(${salt}, 2, '0')
          || lpad(to_hex(${offset} + g), 12, '0'),
        substr(encode(sha256((${salt} || '-' || (${offset} + g))::bytea), 'hex'), 1, 32),
        ${merchantId}, 31337, '0x0000000000000000000000000000000000000001', 18, ${wallet},
        case when g % 3 = 0 then null else 100 + (g % 5000) end,
        case when g % 3 = 0 then null else 2500000000000000 end,
        case when g % 3 = 0 then null else 'fixed' end,
        case when g % 3 = 0 then null else t.at end,
        (400 + g % 5000) * 1000000000000000000::numeric, 1 + g % 999,
        (400 + g % 5000) * 1000000000000000000::numeric + (1 + g % 999) * 1000000000000,
        0,
        case s.status when 'completed' then (400 + g % 5000) * 1000000000000000000::numeric
                      when 'paid_late' then (400 + g % 5000) * 1000000000000000000::numeric
                      when 'partial' then 100 * 1000000000000000000::numeric else 0 end,
        0,
        (array['Oat latte', 'Carrot cake', 'Flat white', 'Invoice', 'Croissant box', 'Catering order'])[1 + g % 6]
          || ' #' || (${offset} + g),
        case when g % 2 = 0 then 'A-' || (${offset} + g) else null end,
        s.status, false, t.at + interval '15 minutes', t.at + interval '24 hours',
        case when s.status in ('completed', 'paid_late') then t.at + interval '2 minutes' else null end,
        case when g % 3 = 0 and s.status in ('completed', 'paid_late') then 2600000000000000 else null end,
        case when g % 3 = 0 and s.status in ('completed', 'paid_late') then t.at + interval '2 minutes' else null end,
        t.at, t.at
      from generate_series(1, ${n}) as g
      -- (g in the expression: without it PGlite evaluates the lateral once, and every row got the same time)
      cross join lateral (select now() - (random() * interval '365 days') - g * interval '0 s' as at) t
      cross join lateral (select case
        when g % 100 < 70 then 'completed' when g % 100 < 80 then 'expired' when g % 100 < 88 then 'pending'
        when g % 100 < 93 then 'partial' when g % 100 < 97 then 'paid_late' else 'invalid' end as status) s`);
  }
  await db.execute(sql`
    insert into chain_transfers (id, chain_id, token_address, tx_hash, log_index, block_number, block_hash,
      block_time, from_address, to_address, value, merchant_id, payment_id, credited_by)
    select 'trf_' || substr(p.id, 5), 31337, p.token_address, '0x' || encode(sha256(p.id::bytea), 'hex'), 0, 1,
      '0x' || encode(sha256(p.reference::bytea), 'hex'), p.created_at,
      '0x' || substr(encode(sha256(p.reference::bytea), 'hex'), 1, 40), p.receiving_address, p.amount_received,
      p.merchant_id, p.id, 'amount'
    from payments p where p.merchant_id = ${merchantId} and p.amount_received > 0`);
}

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function measure(label: string, urls: () => string, times: number, base: string, cookie: string) {
  const ms: number[] = [];
  let bytes = 0;
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    const res = await fetch(`${base}${urls()}`, { headers: { cookie } });
    const body = await res.arrayBuffer();
    ms.push(performance.now() - started);
    bytes = body.byteLength;
    if (res.status !== 200) throw new Error(`${label}: ${res.status} ${Buffer.from(body).toString()}`);
  }
  ms.sort((a, b) => a - b);
  const row = {
    what: label,
    runs: times,
    p50: percentile(ms, 50).toFixed(1),
    p99: percentile(ms, 99).toFixed(1),
    max: ms.at(-1)!.toFixed(1),
    bytes,
  };
  console.log(
    `${label.padEnd(44)} p50 ${row.p50.padStart(7)} ms  p99 ${row.p99.padStart(7)} ms  max ${row.max.padStart(7)} ms`,
  );
  return row;
}

async function main() {
  const { database, drop } = await openBenchDatabase();
  const config = testConfig({ clientDist: "/nonexistent" });
  for (const group of Object.keys(config.rateLimits) as (keyof typeof config.rateLimits)[]) {
    config.rateLimits[group] = { limit: 1e9, windowMs: 60_000 };
  }
  // Signed-in requests count against the per-account limit instead of `general`.
  config.accountRateLimit = { limit: 1e9, windowMs: 60_000 };
  const app = await buildApp(config, { database });
  try {
    const register = await app.inject({
      method: "POST",
      url: "/api/register",
      payload: { username: `bench${Date.now()}`, password: "correct horse battery staple 42" },
    });
    const cookie = `cpxtb_session=${register.cookies.find((c) => c.name === "cpxtb_session")!.value}`;
    const { id: userId } = register.json() as { id: string };
    const wallet = (n: number) => `0x${n.toString(16).padStart(40, "0")}`;
    const merchantId = "mer_bench0000000000000000000000";
    await database.db.execute(sql`
      insert into merchants (id, owner_id, name, business_type, contact_email, wallet_address, wallet_verified_at)
      values (${merchantId}, ${userId}, 'Bench Shop', 'retail', 'bench@example.com', ${wallet(1)}, now())`);
    let started = performance.now();
    await seed(database, merchantId, PAYMENTS, wallet(1), "a");
    if (OTHER > 0) {
      for (let m = 0; m < 9; m++) {
        const owner = `usr_bench${m}`;
        const other = `mer_bench${m}`;
        await database.db.execute(sql`
          insert into users (id, username) values (${owner}, ${`benchother${m}${Date.now()}`});
          `);
        await database.db.execute(sql`
          insert into merchants (id, owner_id, name, business_type, contact_email, wallet_address, wallet_verified_at)
          values (${other}, ${owner}, 'Other', 'retail', 'o@example.com', ${wallet(100 + m)}, now())`);
        await seed(database, other, Math.floor(OTHER / 9), wallet(100 + m), `o${m}`);
      }
    }
    // The reports' sums (decision 039) as the server's job leaves them a minute later: compacted.
    while ((await compactPaymentSums(database.db)) > 0) {}
    await database.db.execute(sql`analyze`);
    const seeded = await database.db.execute(sql`select count(*)::int as n from payments`);
    const total =
      (seeded as { rows?: { n: number }[] }).rows?.[0]?.n ?? (seeded as unknown as { n: number }[])[0]?.n;
    console.log(
      `${database.driver}: ${PAYMENTS} payments for the merchant, ${total} in all, seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );

    await app.listen({ host: "127.0.0.1", port: 0 });
    const { port } = app.server.address() as { port: number };
    const base = `http://127.0.0.1:${port}`;
    const tz = "Europe/Berlin";
    const today = new Date().toISOString().slice(0, 10);
    const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

    // Cursors of deeper pages, to read them at random.
    const cursors: string[] = [];
    let cursor: string | null = null;
    for (let i = 0; i < 50; i++) {
      const page = (await (
        await fetch(`${base}/api/merchant/payments?limit=20${cursor ? `&cursor=${cursor}` : ""}`, {
          headers: { cookie },
        })
      ).json()) as { nextCursor: string | null };
      cursor = page.nextCursor;
      if (!cursor) break;
      cursors.push(cursor);
    }
    const pick = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)]!;
    const rows = [];
    // Warm-up (plans, caches), not counted.
    for (let i = 0; i < 20; i++)
      await fetch(`${base}/api/merchant/payments?limit=20`, { headers: { cookie } });

    rows.push(
      await measure("history, first page", () => "/api/merchant/payments?limit=20", 300, base, cookie),
    );
    rows.push(
      await measure(
        "history, pages 2-50 (cursor)",
        () => `/api/merchant/payments?limit=20&cursor=${pick(cursors)}`,
        300,
        base,
        cookie,
      ),
    );
    rows.push(
      await measure(
        "history, status=partial",
        () => "/api/merchant/payments?limit=20&status=partial",
        200,
        base,
        cookie,
      ),
    );
    const rare = () => `A-${2 * (1 + Math.floor(Math.random() * (PAYMENTS / 2 - 1)))}`;
    rows.push(
      await measure(
        "search: an order id (1 match)",
        () => `/api/merchant/payments?limit=20&q=${rare()}`,
        200,
        base,
        cookie,
      ),
    );
    rows.push(
      await measure(
        "search: 'latte' (1 in 6)",
        () => "/api/merchant/payments?limit=20&q=latte",
        200,
        base,
        cookie,
      ),
    );
    rows.push(
      await measure(
        "search: 'zz9' (no match)",
        () => "/api/merchant/payments?limit=20&q=zz9",
        100,
        base,
        cookie,
      ),
    );
    rows.push(
      await measure(
        "search: 2 letters 'qx' (no match)",
        () => "/api/merchant/payments?limit=20&q=qx",
        50,
        base,
        cookie,
      ),
    );
    rows.push(
      await measure(
        "search: 2 letters 'at' (1 in 3)",
        () => "/api/merchant/payments?limit=20&q=at",
        50,
        base,
        cookie,
      ),
    );
    rows.push(
      await measure(
        "search: 1 letter 'q' (no match)",
        () => "/api/merchant/payments?limit=20&q=q",
        50,
        base,
        cookie,
      ),
    );
    rows.push(
      await measure(
        "summary, 30 days (daily)",
        () => `/api/merchant/reports/summary?from=${daysAgo(29)}&to=${today}&tz=${tz}`,
        50,
        base,
        cookie,
      ),
    );
    rows.push(
      await measure(
        "summary, one year (weekly)",
        () => `/api/merchant/reports/summary?from=${daysAgo(365)}&to=${today}&tz=${tz}`,
        20,
        base,
        cookie,
      ),
    );
    rows.push(
      await measure(
        "summary, one year (daily)",
        () => `/api/merchant/reports/summary?from=${daysAgo(365)}&to=${today}&tz=${tz}&bucket=day`,
        10,
        base,
        cookie,
      ),
    );

    // The CSV of every row of the merchant, streamed; the server process's memory sampled meanwhile.
    global.gc?.();
    const baseline = process.memoryUsage();
    let peakRss = baseline.rss;
    let peakHeap = baseline.heapUsed;
    const sampler = setInterval(() => {
      const m = process.memoryUsage();
      peakRss = Math.max(peakRss, m.rss);
      peakHeap = Math.max(peakHeap, m.heapUsed);
    }, 20);
    started = performance.now();
    const res = await fetch(
      `${base}/api/merchant/reports/payments.csv?from=${daysAgo(365)}&to=${today}&tz=${tz}`,
      {
        headers: { cookie },
      },
    );
    let bytes = 0;
    let lines = 0;
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      bytes += chunk.byteLength;
      for (const b of chunk) if (b === 10) lines++;
    }
    clearInterval(sampler);
    const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
    console.log(
      `CSV: ${lines - 1} rows, ${mb(bytes)} MB in ${((performance.now() - started) / 1000).toFixed(1)} s; ` +
        `server RSS ${mb(baseline.rss)} -> peak ${mb(peakRss)} MB (+${mb(peakRss - baseline.rss)}), ` +
        `heap ${mb(baseline.heapUsed)} -> peak ${mb(peakHeap)} MB (+${mb(peakHeap - baseline.heapUsed)})`,
    );

    // The plans behind the slowest requests, as the repositories write them (owner's merchant as a subquery).
    const merchantOfOwner = sql`(select id from merchants where owner_id = ${userId})`;
    const search = (q: string) =>
      database.db
        .select({ id: payments.id })
        .from(payments)
        .where(and(eq(payments.merchantId, merchantIdOf(userId)), searchCondition(q)))
        .orderBy(desc(payments.id))
        .limit(21);
    const plans = {
      "a search of 2 letters ('qx')": search("qx"),
      "a search of 1 letter ('q')": search("q"),
      "a rare search ('A-1234')": search("A-1234"),
      "a 30-day summary": sql`select p.status, date_trunc('day', p.created_at, ${tz}), count(*),
        sum(p.amount_received) from payments p where p.merchant_id = ${merchantOfOwner}
        and p.created_at >= now() - interval '30 days' and p.created_at < now() group by 1, 2`,
    };
    for (const [what, query] of Object.entries(plans)) {
      const plan = await database.db.execute(sql`explain analyze ${query}`);
      const rows =
        (plan as { rows?: Record<string, string>[] }).rows ?? (plan as unknown as Record<string, string>[]);
      console.log(`plan of ${what}:`);
      for (const r of rows) console.log(`  ${Object.values(r)[0]}`);
    }
  } finally {
    await app.close();
    await database.close();
    if (process.env.BENCH_KEEP_DATABASE)
      console.log(`kept the database (BENCH_KEEP_DATABASE): ${database.driver}`);
    else await drop();
  }
}

await main();
