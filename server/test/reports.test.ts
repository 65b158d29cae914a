import { randomBytes } from "node:crypto";
import type { PaymentStatus } from "@common/payment-values.ts";
import { parse } from "csv-parse/sync";
import { getAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../src/app.ts";
import { connectChain } from "../src/chain/service.ts";
import { chainTransfers, payments } from "../src/db/schema.ts";
import { createId, createToken } from "../src/lib/ids.ts";
import { chainConfigFor, startTestChain, type TestChain } from "./chain-helpers.ts";
import { createTestApp } from "./helpers.ts";
import {
  api,
  chainTools,
  createMerchant,
  createPayment,
  paymentTestConfig,
  signUp,
  type TestMerchant,
} from "./payment-helpers.ts";

const TOKEN = 10n ** 18n;
const PRICE_E18 = 25n * 10n ** 16n; // 0.25 USD per CPXTB

let chain: TestChain;
let app: App;

beforeAll(async () => {
  chain = await startTestChain();
  const connected = await connectChain(
    chainConfigFor(chain.url, chain.deployment, {
      confirmations: 1,
      price: { source: "fixed", fixedUsd: "0.25" },
    }),
  );
  app = await createTestApp(paymentTestConfig(), { chain: connected });
  await app.payments.indexer!.runOnce();
});
afterAll(async () => {
  await chain?.stop();
});

type Status = PaymentStatus;

type SeedPayment = {
  createdAt: string;
  status: Status;
  due: bigint;
  received?: bigint;
  usdCents?: bigint | null;
  priceE18?: bigint | null;
  completedPriceE18?: bigint | null;
  description?: string | null;
  orderId?: string | null;
  payer?: string;
};

/** A payment row as the engine would have left it (the reports read rows; how they got there is tested elsewhere). */
function paymentRow(merchant: TestMerchant, id: string, p: SeedPayment) {
  const createdAt = new Date(p.createdAt);
  const paid = p.status === "completed" || p.status === "paid_late";
  return {
    id,
    reference: createToken(16),
    merchantId: merchant.id,
    chainId: 31337,
    tokenAddress: chain.deployment.token,
    tokenDecimals: 18,
    receivingAddress: merchant.wallet.address,
    amountUsdCents: p.usdCents ?? null,
    priceE18: p.priceE18 ?? null,
    priceSource: p.priceE18 ? "fixed" : null,
    priceAt: p.priceE18 ? createdAt : null,
    baseAmount: p.due,
    tag: 1,
    amountDue: p.due,
    toleranceBps: 0,
    amountReceived: p.received ?? 0n,
    amountSeen: p.received ?? 0n,
    description: p.description ?? null,
    orderId: p.orderId ?? null,
    status: p.status,
    live: false,
    expiresAt: new Date(createdAt.getTime() + 15 * 60_000),
    monitorUntil: new Date(createdAt.getTime() + 24 * 3600_000),
    completedAt: paid ? new Date(createdAt.getTime() + 60_000) : null,
    completedPriceE18: p.completedPriceE18 ?? null,
    completedPriceAt: p.completedPriceE18 ? new Date(createdAt.getTime() + 60_000) : null,
    createdAt,
    updatedAt: createdAt,
  };
}

/** Inserts a payment row, with its transfer when it received something. */
async function seed(merchant: TestMerchant, p: SeedPayment) {
  const id = createId("pay");
  const createdAt = new Date(p.createdAt);
  await app.database.db.insert(payments).values(paymentRow(merchant, id, p));
  if (p.received) {
    await app.database.db.insert(chainTransfers).values({
      id: createId("trf"),
      chainId: 31337,
      tokenAddress: chain.deployment.token,
      txHash: `0x${randomBytes(32).toString("hex")}`,
      logIndex: 0,
      blockNumber: 1n,
      blockHash: `0x${randomBytes(32).toString("hex")}`,
      blockTime: createdAt,
      fromAddress: p.payer ?? getAddress(`0x${randomBytes(20).toString("hex")}`),
      toAddress: merchant.wallet.address,
      value: p.received,
      merchantId: merchant.id,
      paymentId: id,
      creditedBy: "amount",
    });
  }
  return id;
}

type Summary = {
  payments: number;
  startsAt: string;
  endsAt: string;
  bucket: string;
  byStatus: { status: string; count: number; amountDue: string; amountReceived: string; usd: string }[];
  revenue: {
    count: number;
    amountReceived: string;
    usd: string;
    unvalued: number;
    averageReceived: string | null;
    averageUsd: string | null;
  };
  paidLate: { count: number; amountReceived: string; usd: string };
  partial: { count: number; amountReceived: string; usd: string };
  buckets: { start: string; count: number; amountReceived: string; usd: string }[];
};

const query = (q: Record<string, string>) => new URLSearchParams(q).toString();

async function summary(merchant: { cookie: string }, q: Record<string, string>) {
  const res = await api(app, merchant.cookie).get(`/api/merchant/reports/summary?${query(q)}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Summary;
}

async function csv(merchant: { cookie: string }, q: Record<string, string>) {
  const res = await api(app, merchant.cookie).get(`/api/merchant/reports/payments.csv?${query(q)}`);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
  expect(res.headers["content-disposition"]).toBe(
    `attachment; filename="cpxtb-payments-${q.from}-to-${q.to}.csv"`,
  );
  return {
    raw: res.body,
    rows: parse(res.body, { bom: true, columns: true, skip_empty_lines: true }) as Record<string, string>[],
  };
}

/** Decimal strings added exactly (as integers of 10^-18). */
function sum(values: Array<string | undefined>, decimals = 18): bigint {
  return values.reduce((total, v) => {
    if (!v) return total;
    const [whole, fraction = ""] = v.split(".");
    return total + BigInt(whole!) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, "0"));
  }, 0n);
}

describe("reports", () => {
  it("counts a payment just paid on the chain, valued at the rate when it was paid", async () => {
    const merchant = await createMerchant(app);
    const payment = await createPayment(app, merchant.cookie, { currency: "CPXTB", amount: "40" });
    const usdPayment = await createPayment(app, merchant.cookie, { currency: "USD", amount: "10.00" });
    const tools = chainTools(chain);
    const payer = await tools.payer();
    const { hash } = await tools.pay(payer, merchant.wallet.address, payment.amountDueBase);
    await tools.pay(payer, merchant.wallet.address, usdPayment.amountDueBase);
    await app.payments.indexer!.runOnce();

    const today = new Date().toISOString().slice(0, 10);
    const report = await summary(merchant, { from: today, to: today, tz: "UTC" });
    expect(report.payments).toBe(2);
    expect(report.revenue.count).toBe(2);
    expect(report.revenue.unvalued).toBe(0);
    const received = BigInt(payment.amountDueBase) + BigInt(usdPayment.amountDueBase);
    expect(sum([report.revenue.amountReceived])).toBe(received);
    // 40.00x CPXTB at 0.25 = 10.00; 10 USD asked, paid with the tag's few micro-CPXTB more = 10.00.
    expect(report.revenue.usd).toBe("20.00");
    expect(report.buckets).toEqual([
      { start: today, count: 2, amountReceived: report.revenue.amountReceived, usd: "20.00", unvalued: 0 },
    ]);

    const { rows } = await csv(merchant, { from: today, to: today, tz: "UTC" });
    const row = rows.find((r) => r.reference === payment.reference)!;
    expect(row).toMatchObject({
      status: "completed",
      usd_value: "10.00",
      rate_usd_per_cpxtb: "0.25",
      requested_usd: "",
      payer_addresses: payer.address,
      tx_hashes: hash,
    });
    expect(rows.find((r) => r.reference === usdPayment.reference)).toMatchObject({
      requested_usd: "10.00",
      usd_value: "10.00",
    });
  });

  it("a partial payment asked in CPXTB is worth what it received, at the rate when it arrived (not $0.00)", async () => {
    const merchant = await createMerchant(app);
    const payment = await createPayment(app, merchant.cookie, { currency: "CPXTB", amount: "40" });
    const tools = chainTools(chain);
    const payer = await tools.payer();
    // 10 CPXTB of the 40 due: an amount that matches nothing, credited by its transaction hash (the pay page).
    const { hash } = await tools.pay(payer, merchant.wallet.address, 10n * TOKEN);
    await app.payments.indexer!.runOnce();
    const res = await api(app).post(`/api/payments/public/${payment.reference}/tx`, { txHash: hash });
    expect(res.statusCode, res.body).toBe(200);
    await tools.mine(1);
    await app.payments.indexer!.runOnce();
    await expect
      .poll(async () => {
        await app.payments.indexer!.runOnce();
        return (await api(app, merchant.cookie).get(`/api/merchant/payments/${payment.id}`)).json().status;
      })
      .toBe("partial");

    const today = new Date().toISOString().slice(0, 10);
    const report = await summary(merchant, { from: today, to: today, tz: "UTC" });
    // 10 CPXTB at 0.25 USD.
    expect(report.partial).toMatchObject({ count: 1, amountReceived: "10", usd: "2.50", unvalued: 0 });
    expect(report.byStatus.find((s) => s.status === "partial")).toMatchObject({ usd: "2.50", unvalued: 0 });
    const { rows } = await csv(merchant, { from: today, to: today, tz: "UTC" });
    expect(rows.find((r) => r.reference === payment.reference)).toMatchObject({
      status: "partial",
      status_name: "Partly paid",
      amount_received_cpxtb: "10",
      usd_value: "2.50",
      rate_usd_per_cpxtb: "0.25",
    });
  });

  it("totals per status, averages, paid late and partial; the CSV's rows add up to them", async () => {
    const merchant = await createMerchant(app);
    const day = "2026-01-";
    // Outside the range by a millisecond on each side.
    await seed(merchant, {
      createdAt: "2025-12-31T23:59:59.999Z",
      status: "completed",
      due: TOKEN,
      received: TOKEN,
      priceE18: PRICE_E18,
    });
    await seed(merchant, {
      createdAt: "2026-02-01T00:00:00.000Z",
      status: "completed",
      due: TOKEN,
      received: TOKEN,
      priceE18: PRICE_E18,
    });
    // Inside.
    await seed(merchant, {
      createdAt: `${day}01T00:00:00.000Z`,
      status: "completed",
      due: 40n * TOKEN,
      received: 40n * TOKEN,
      usdCents: 1000n,
      priceE18: PRICE_E18,
    });
    await seed(merchant, {
      createdAt: `${day}05T12:00:00.000Z`,
      status: "completed",
      due: 100n * TOKEN,
      received: 101n * TOKEN,
      completedPriceE18: 2n * PRICE_E18,
    });
    await seed(merchant, {
      createdAt: `${day}10T08:00:00.000Z`,
      status: "paid_late",
      due: 8n * TOKEN,
      received: 8n * TOKEN,
      usdCents: 200n,
      priceE18: PRICE_E18,
    });
    await seed(merchant, {
      createdAt: `${day}12T08:00:00.000Z`,
      status: "completed",
      due: 3n * TOKEN,
      received: 3n * TOKEN,
    });
    await seed(merchant, {
      createdAt: `${day}15T08:00:00.000Z`,
      status: "partial",
      due: 20n * TOKEN,
      received: 5n * TOKEN,
      usdCents: 500n,
      priceE18: PRICE_E18,
    });
    await seed(merchant, {
      createdAt: `${day}20T08:00:00.000Z`,
      status: "expired",
      due: 20n * TOKEN,
      received: 2n * TOKEN,
      usdCents: 500n,
      priceE18: PRICE_E18,
    });
    await seed(merchant, {
      createdAt: `${day}21T08:00:00.000Z`,
      status: "expired",
      due: 20n * TOKEN,
      usdCents: 500n,
      priceE18: PRICE_E18,
    });
    await seed(merchant, {
      createdAt: `${day}31T23:59:59.999Z`,
      status: "pending",
      due: 4n * TOKEN,
      usdCents: 100n,
      priceE18: PRICE_E18,
    });

    const range = { from: "2026-01-01", to: "2026-01-31", tz: "UTC" };
    const report = await summary(merchant, range);
    expect(report.payments).toBe(8);
    expect(report.startsAt).toBe("2026-01-01T00:00:00.000Z");
    expect(report.endsAt).toBe("2026-02-01T00:00:00.000Z");
    const byStatus = Object.fromEntries(report.byStatus.map((s) => [s.status, s]));
    expect(byStatus.completed).toMatchObject({
      count: 3,
      amountReceived: "144",
      amountDue: "143",
      usd: "60.50",
      unvalued: 1,
    });
    expect(byStatus.paid_late).toMatchObject({ count: 1, amountReceived: "8", usd: "2.00" });
    expect(byStatus.expired).toMatchObject({ count: 2, amountReceived: "2", amountDue: "40", usd: "0.50" });
    expect(byStatus.pending).toMatchObject({ count: 1, amountReceived: "0", usd: "0.00" });
    // 40 @0.25 = 10.00, 101 @0.50 = 50.50, 8 @0.25 = 2.00; the 3 CPXTB paid without a known rate are unvalued.
    expect(report.revenue).toEqual({
      count: 4,
      amountReceived: "152",
      usd: "62.50",
      unvalued: 1,
      averageReceived: "38",
      averageUsd: "20.83",
    });
    expect(report.paidLate).toMatchObject({ count: 1, amountReceived: "8", usd: "2.00" });
    expect(report.partial).toMatchObject({ count: 2, amountReceived: "7", usd: "1.75" });
    expect(report.bucket).toBe("day");
    expect(report.buckets).toHaveLength(31);
    expect(report.buckets.filter((b) => b.count > 0).map((b) => [b.start, b.count, b.usd])).toEqual([
      ["2026-01-01", 1, "10.00"],
      ["2026-01-05", 1, "50.50"],
      ["2026-01-10", 1, "2.00"],
      ["2026-01-12", 1, "0.00"],
    ]);

    const { rows } = await csv(merchant, range);
    expect(rows).toHaveLength(8);
    expect(rows.map((r) => r.created_at)).toEqual([...rows.map((r) => r.created_at)].sort());
    const paidRows = rows.filter((r) => r.status === "completed" || r.status === "paid_late");
    expect(sum(paidRows.map((r) => r.amount_received_cpxtb))).toBe(sum([report.revenue.amountReceived]));
    expect(
      sum(
        paidRows.map((r) => r.usd_value),
        2,
      ),
    ).toBe(sum([report.revenue.usd], 2));
    expect(sum(rows.map((r) => r.amount_due_cpxtb))).toBe(sum(report.byStatus.map((s) => s.amountDue)));
    for (const total of report.byStatus) {
      const ofStatus = rows.filter((r) => r.status === total.status);
      expect(ofStatus).toHaveLength(total.count);
      expect(
        sum(
          ofStatus.map((r) => r.usd_value),
          2,
        ),
      ).toBe(sum([total.usd], 2));
    }
    expect(rows.find((r) => r.amount_received_cpxtb === "3")).toMatchObject({
      usd_value: "",
      rate_usd_per_cpxtb: "",
    });

    const weekly = await summary(merchant, { ...range, bucket: "week" });
    expect(weekly.buckets[0]!.start).toBe("2025-12-29");
    expect(weekly.buckets.reduce((n, b) => n + b.count, 0)).toBe(4);
  });

  it("buckets by the time zone's days across a daylight-saving change, and writes local times", async () => {
    const merchant = await createMerchant(app);
    const times = [
      "2026-03-28T22:30:00.000Z", // Berlin 23:30 on the 28th (CET)
      "2026-03-28T23:30:00.000Z", // Berlin 00:30 on the 29th (CET; clocks go forward at 02:00)
      "2026-03-29T21:59:00.000Z", // Berlin 23:59 on the 29th (CEST)
      "2026-03-29T22:00:00.000Z", // Berlin 00:00 on the 30th
    ];
    for (const createdAt of times)
      await seed(merchant, {
        createdAt,
        status: "completed",
        due: TOKEN,
        received: TOKEN,
        priceE18: PRICE_E18,
      });
    const range = { from: "2026-03-28", to: "2026-03-30" };
    const counts = (r: Summary) => r.buckets.map((b) => [b.start, b.count]);

    const berlin = await summary(merchant, { ...range, tz: "Europe/Berlin" });
    expect(counts(berlin)).toEqual([
      ["2026-03-28", 1],
      ["2026-03-29", 2],
      ["2026-03-30", 1],
    ]);
    // The 29th is 23 hours long there.
    expect(berlin.startsAt).toBe("2026-03-27T23:00:00.000Z");
    expect(berlin.endsAt).toBe("2026-03-30T22:00:00.000Z");
    const utc = await summary(merchant, { ...range, tz: "UTC" });
    expect(counts(utc)).toEqual([
      ["2026-03-28", 2],
      ["2026-03-29", 2],
      ["2026-03-30", 0],
    ]);
    const weeks = await summary(merchant, { ...range, tz: "Europe/Berlin", bucket: "week" });
    expect(counts(weeks)).toEqual([
      ["2026-03-23", 3],
      ["2026-03-30", 1],
    ]);
    // New York moved its clocks three weeks earlier: 4 hours behind UTC on all these days.
    const newYork = await summary(merchant, { ...range, tz: "America/New_York" });
    expect(counts(newYork)).toEqual([
      ["2026-03-28", 2],
      ["2026-03-29", 2],
      ["2026-03-30", 0],
    ]);

    const { rows } = await csv(merchant, { ...range, tz: "Europe/Berlin" });
    expect(rows.map((r) => r.created_at)).toEqual([
      "2026-03-28T23:30:00.000+01:00",
      "2026-03-29T00:30:00.000+01:00",
      "2026-03-29T23:59:00.000+02:00",
      "2026-03-30T00:00:00.000+02:00",
    ]);
    expect(rows.map((r) => new Date(r.created_at!).toISOString())).toEqual(times);
  });

  it("neutralises spreadsheet formulas and quotes per RFC 4180; parsed back, the text is the data", async () => {
    const merchant = await createMerchant(app);
    const texts = [
      '=HYPERLINK("http://evil.example","click")',
      "+1+2",
      "-3",
      "@SUM(A1:A2)",
      "\tTabbed",
      "\rReturn",
      'Comma, "quotes" and\r\na line break',
      "Ünïcödé ☕ plain",
    ];
    let minute = 0;
    for (const text of texts) {
      minute++;
      await seed(merchant, {
        createdAt: `2026-04-01T10:${String(minute).padStart(2, "0")}:00.000Z`,
        status: "pending",
        due: TOKEN,
        description: text,
        orderId: text.slice(0, 20),
      });
    }
    const { raw, rows } = await csv(merchant, { from: "2026-04-01", to: "2026-04-01", tz: "UTC" });
    expect(raw.startsWith("\uFEFFcreated_at,completed_at,reference,order_id,description,status,")).toBe(true);
    expect(raw.split("\r\n").at(-1)).toBe("");
    const neutral = (t: string) => (/^[=+\-@\t\r]/.test(t) ? `'${t}` : t);
    expect(rows.map((r) => r.description)).toEqual(texts.map(neutral));
    expect(rows.map((r) => r.order_id)).toEqual(texts.map((t) => neutral(t.slice(0, 20))));
    for (const row of rows) for (const cell of Object.values(row)) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
  });

  it("pages through a long export: every row once, in order, across the small first page and the full ones", async () => {
    const merchant = await createMerchant(app);
    // 1,150 payments, two per second (equal creation times are ordered by id): a first page of 100, one of 1,000, 50.
    const start = Date.parse("2026-06-10T08:00:00.000Z");
    const rows = Array.from({ length: 1150 }, (_, i) => {
      const createdAt = new Date(start + Math.floor(i / 2) * 1000).toISOString();
      return paymentRow(merchant, createId("pay", new Date(createdAt)), {
        createdAt,
        status: "expired",
        due: TOKEN + BigInt(i),
        description: `row ${i}`,
      });
    });
    await app.database.db.insert(payments).values(rows);
    const expected = [...rows]
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1))
      .map((r) => r.description);
    const { rows: exported } = await csv(merchant, { from: "2026-06-10", to: "2026-06-10", tz: "UTC" });
    expect(exported.map((r) => r.description)).toEqual(expected);
  });

  it("never includes another merchant's payments; needs a session and a business", async () => {
    const mine = await createMerchant(app);
    const theirs = await createMerchant(app);
    await seed(mine, {
      createdAt: "2026-05-02T10:00:00.000Z",
      status: "completed",
      due: TOKEN,
      received: TOKEN,
      priceE18: PRICE_E18,
      description: "mine",
    });
    await seed(theirs, {
      createdAt: "2026-05-02T10:00:00.000Z",
      status: "completed",
      due: 7n * TOKEN,
      received: 7n * TOKEN,
      priceE18: PRICE_E18,
      description: "theirs",
    });
    await seed(theirs, {
      createdAt: "2026-05-03T10:00:00.000Z",
      status: "partial",
      due: 7n * TOKEN,
      received: TOKEN,
      priceE18: PRICE_E18,
      description: "theirs",
    });
    const range = { from: "2026-05-01", to: "2026-05-31", tz: "UTC" };
    const report = await summary(mine, range);
    expect(report.payments).toBe(1);
    expect(report.revenue).toMatchObject({ count: 1, amountReceived: "1", usd: "0.25" });
    expect(report.partial.count).toBe(0);
    const { rows } = await csv(mine, range);
    expect(rows.map((r) => r.description)).toEqual(["mine"]);
    expect((await summary(theirs, range)).payments).toBe(2);
    // The history search through the trigram index: short terms (fewer than 3 letters) and longer ones, in any
    // case; LIKE's wildcards are literal characters.
    for (const [q, found] of [
      ["mi", ["mine"]],
      ["Mi", ["mine"]],
      ["MINE", ["mine"]],
      ["%25", []],
      ["m%25e", []],
      ["m", ["mine"]],
      ["mine", ["mine"]],
      ["theirs", []],
      ["zz9", []],
    ] as const) {
      const res = await api(app, mine.cookie).get(`/api/merchant/payments?q=${q}`);
      expect(res.statusCode, res.body).toBe(200);
      expect((res.json() as { items: { description: string }[] }).items.map((p) => p.description)).toEqual(
        found,
      );
    }

    const url = `/api/merchant/reports/summary?${query(range)}`;
    const csvUrl = `/api/merchant/reports/payments.csv?${query(range)}`;
    for (const u of [url, csvUrl]) {
      const anonymous = await api(app).get(u);
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json().error.code).toBe("UNAUTHENTICATED");
      const { cookie } = await signUp(app);
      const noBusiness = await api(app, cookie).get(u);
      expect(noBusiness.statusCode).toBe(404);
      expect(noBusiness.json().error.code).toBe("NOT_FOUND");
    }
  });

  it("answers bad ranges with 400 in the error shape", async () => {
    const merchant = await createMerchant(app);
    const bad: Record<string, string>[] = [
      { from: "2026-02-01", to: "2026-01-31", tz: "UTC" }, // to before from
      { from: "2025-01-01", to: "2026-01-02", tz: "UTC" }, // 367 days
      { from: "2026-01-01", to: "2026-01-31", tz: "Mars/Olympus_Mons" },
      { from: "2026-01-01", to: "2026-01-31", tz: "UTC'; drop table payments;--" },
      { from: "2026-02-30", to: "2026-03-01", tz: "UTC" },
      { from: "01/02/2026", to: "2026-03-01", tz: "UTC" },
      { from: "2026-01-01", tz: "UTC" },
      { from: "2026-01-01", to: "2026-01-31", tz: "UTC", bucket: "month" },
    ];
    for (const q of bad) {
      for (const path of ["summary", "payments.csv"]) {
        const res = await api(app, merchant.cookie).get(`/api/merchant/reports/${path}?${query(q)}`);
        expect(res.statusCode, `${path} ${JSON.stringify(q)}`).toBe(400);
        expect(res.json().error.code).toBe("VALIDATION_ERROR");
        expect(typeof res.json().error.message).toBe("string");
      }
    }
    // A whole leap year is allowed.
    await summary(merchant, { from: "2028-01-01", to: "2028-12-31", tz: "Asia/Kolkata" });
  });
});
