import { setImmediate as nextTurn } from "node:timers/promises";
import { PAYMENT_STATUSES, type PaymentStatus } from "@common/payments.ts";
import {
  DAILY_BUCKETS_UP_TO_DAYS,
  daysInRange,
  REPORT_CSV_COLUMNS,
  type ReportBucket,
  type ReportRange,
  type ReportSummary,
} from "@common/reports.ts";
import { paymentStatusName } from "@common/status-names.ts";
import { formatUnits } from "viem";
import type { DbOrTx } from "../../db/client.ts";
import { AppError } from "../../errors.ts";
import { formatCents } from "../payments/amounts.ts";
import * as repo from "./repository.ts";

/**
 * The export's pages (keyset, below): a first page of 100 rows, so the first rows go out at once and a download the
 * reader leaves at once has cost one small read, then pages of 1,000. Rows are formatted 100 at a time with a turn
 * of the event loop between (issue 39: ten exports at once kept the one thread formatting whole pages while an
 * eleventh waited 0.9-1.6 s for its first byte).
 */
const CSV_FIRST_PAGE_ROWS = 100;
const CSV_PAGE_ROWS = 1000;
const CSV_ROWS_PER_TURN = 100;

function money(row: repo.MoneyRow) {
  return {
    count: row.count,
    amountReceived: formatUnits(BigInt(row.received), 18),
    usd: formatCents(BigInt(row.usd_cents)),
    unvalued: row.unvalued,
  };
}

const ZERO: repo.MoneyRow = { count: 0, received: "0", usd_cents: "0", unvalued: 0 };

function addMoney(a: repo.MoneyRow, b: repo.MoneyRow): repo.MoneyRow {
  return {
    count: a.count + b.count,
    received: (BigInt(a.received) + BigInt(b.received)).toString(),
    usd_cents: (BigInt(a.usd_cents) + BigInt(b.usd_cents)).toString(),
    unvalued: a.unvalued + b.unvalued,
  };
}

/** a / b rounded half up (both non-negative). */
function divRound(a: bigint, b: bigint): bigint {
  return (2n * a + b) / (2n * b);
}

/** PostgreSQL knows a few zones differently from the runtime's ICU: its refusal is a bad request too. */
async function withZoneCheck<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const e = error as { code?: string; message?: string; cause?: { code?: string; message?: string } };
    const code = e.code ?? e.cause?.code;
    const message = `${e.message ?? ""} ${e.cause?.message ?? ""}`;
    if (code === "22023" && /time zone/i.test(message)) {
      throw new AppError(
        "VALIDATION_ERROR",
        "tz: is not a known time zone (use an IANA name like Europe/Berlin)",
      );
    }
    throw error;
  }
}

type StatusTotals = Omit<repo.StatusBucketRow, "bucket">;

/** The per-status totals of the range, in the order of PAYMENT_STATUSES. */
function totalsByStatus(rows: repo.StatusBucketRow[]): StatusTotals[] {
  const totals = new Map<PaymentStatus, StatusTotals>();
  for (const row of rows) {
    const sum = totals.get(row.status);
    totals.set(
      row.status,
      sum
        ? {
            ...addMoney(sum, row),
            status: row.status,
            due: (BigInt(sum.due) + BigInt(row.due)).toString(),
            received_count: sum.received_count + row.received_count,
            refunded_count: sum.refunded_count + row.refunded_count,
            refunded: (BigInt(sum.refunded) + BigInt(row.refunded)).toString(),
            refunded_usd_cents: (BigInt(sum.refunded_usd_cents) + BigInt(row.refunded_usd_cents)).toString(),
          }
        : { ...row },
    );
  }
  return PAYMENT_STATUSES.flatMap((status) => totals.get(status) ?? []);
}

const PAID_STATUSES: readonly PaymentStatus[] = ["completed", "paid_late"];

/** The paid payments per bucket, every bucket of the range present (empty ones as zero). */
function paidByBucket(rows: repo.StatusBucketRow[], starts: string[]) {
  const buckets = new Map(starts.map((start) => [start, ZERO]));
  for (const row of rows) {
    const sum = buckets.get(row.bucket);
    if (sum && PAID_STATUSES.includes(row.status)) buckets.set(row.bucket, addMoney(sum, row));
  }
  return [...buckets].map(([start, sum]) => ({ start, ...sum }));
}

/**
 * The first day of every bucket from `from` to `to` (calendar days of the report's time zone): each day, or the
 * Monday of each ISO week (what PostgreSQL's `date_trunc('week')` gives).
 */
export function bucketStarts(from: string, to: string, bucket: ReportBucket): string[] {
  const day = 86_400_000;
  let at = Date.parse(`${from}T00:00:00Z`);
  if (bucket === "week") at -= ((new Date(at).getUTCDay() + 6) % 7) * day;
  const end = Date.parse(`${to}T00:00:00Z`);
  const step = bucket === "week" ? 7 * day : day;
  const starts: string[] = [];
  for (; at <= end; at += step) starts.push(new Date(at).toISOString().slice(0, 10));
  return starts;
}

export function bucketOf(range: ReportRange) {
  return range.bucket ?? (daysInRange(range.from, range.to) <= DAILY_BUCKETS_UP_TO_DAYS ? "day" : "week");
}

export async function getSummary(
  db: DbOrTx,
  ownerId: string,
  range: ReportRange,
  tokenSymbol: string,
): Promise<ReportSummary> {
  const scope = { ownerId, from: range.from, to: range.to, tz: range.tz, linkId: range.linkId };
  const bucket = bucketOf(range);
  return withZoneCheck(async () => {
    // Sequential on purpose: PGlite is one connection.
    const instants = await repo.findRangeInstants(db, scope);
    const rows = await repo.sumByStatusAndBucket(db, scope, bucket);
    const byStatus = totalsByStatus(rows);
    const buckets = paidByBucket(rows, bucketStarts(range.from, range.to, bucket));
    const of = (status: string) => byStatus.find((r) => r.status === status) ?? ZERO;
    const revenue = addMoney(of("completed"), of("paid_late"));
    // Not paid in full but received something: partial, or expired after a partial payment (the expired ones
    // that received nothing add nothing to the sums, only to the count).
    const expired = of("expired");
    const partial = addMoney(of("partial"), {
      ...expired,
      count: "received_count" in expired ? (expired.received_count as number) : 0,
    });
    const valued = revenue.count - revenue.unvalued;
    const refundedOf = (statuses?: string[]) =>
      byStatus
        .filter((r) => !statuses || statuses.includes(r.status))
        .reduce(
          (sum, r) => ({
            count: sum.count + r.refunded_count,
            refunded: sum.refunded + BigInt(r.refunded),
            usdCents: sum.usdCents + BigInt(r.refunded_usd_cents),
          }),
          { count: 0, refunded: 0n, usdCents: 0n },
        );
    const refunded = refundedOf();
    const refundedPaid = refundedOf(["completed", "paid_late"]);
    return {
      from: range.from,
      to: range.to,
      tz: range.tz,
      bucket,
      startsAt: instants.start.toISOString(),
      endsAt: instants.end.toISOString(),
      token: { symbol: tokenSymbol },
      payments: byStatus.reduce((n, r) => n + r.count, 0),
      byStatus: byStatus.map((r) => ({
        status: r.status,
        ...money(r),
        amountDue: formatUnits(BigInt(r.due), 18),
      })),
      revenue: {
        ...money(revenue),
        averageReceived:
          revenue.count > 0
            ? formatUnits(divRound(BigInt(revenue.received), BigInt(revenue.count)), 18)
            : null,
        averageUsd: valued > 0 ? formatCents(divRound(BigInt(revenue.usd_cents), BigInt(valued))) : null,
      },
      paidLate: money(of("paid_late")),
      partial: money(partial),
      buckets: buckets.map((b) => ({ start: b.start, ...money(b) })),
      refunds: {
        count: refunded.count,
        amountRefunded: formatUnits(refunded.refunded, 18),
        usd: formatCents(refunded.usdCents),
      },
      netRevenue: {
        amount: formatUnits(BigInt(revenue.received) - refundedPaid.refunded, 18),
        usd: formatCents(BigInt(revenue.usd_cents) - refundedPaid.usdCents),
      },
    };
  });
}

/** A cell that a spreadsheet would run as a formula (=, +, -, @, tab, CR) gets a leading apostrophe. */
export function neutraliseFormula(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** RFC 4180: a field with a comma, quote or line break is quoted, its quotes doubled. */
export function csvField(value: string | null | undefined): string {
  if (value === null || value === undefined || value === "") return "";
  const safe = neutraliseFormula(value);
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export function csvLine(values: Array<string | null | undefined>): string {
  return `${values.map(csvField).join(",")}\r\n`;
}

const zoneFormats = new Map<string, Intl.DateTimeFormat>();

function zoneFormat(tz: string): Intl.DateTimeFormat {
  let format = zoneFormats.get(tz);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone: tz,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    zoneFormats.set(tz, format);
  }
  return format;
}

/** How far the zone's wall clock is ahead of UTC at the instant `ms`, in milliseconds (to the second). */
function offsetAt(format: Intl.DateTimeFormat, ms: number): number {
  const parts: Record<string, string> = {};
  for (const part of format.formatToParts(new Date(ms))) parts[part.type] = part.value;
  const wall = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
    new Date(ms).getUTCMilliseconds(),
  );
  return wall - ms;
}

const HOUR_MS = 3_600_000;
/** Per zone, the offset of each UTC hour asked for whose first and last millisecond have the same one. */
const hourOffsets = new Map<string, Map<number, number>>();

/**
 * The zone's offset at `ms`. `formatToParts` costs some 25-75 µs a call, and a CSV page of 1,000 rows asks for
 * 3,000 instants (issue 39: most of a page's time, on the server's one thread); a zone's offset changes a few times
 * a year, so it is read once per UTC hour and kept, and read for the instant itself in an hour where it changes.
 */
function zoneOffset(tz: string, ms: number): number {
  const format = zoneFormat(tz);
  let hours = hourOffsets.get(tz);
  if (!hours) {
    hours = new Map();
    hourOffsets.set(tz, hours);
  }
  const hour = Math.floor(ms / HOUR_MS);
  const known = hours.get(hour);
  if (known !== undefined) return known;
  const offset = offsetAt(format, hour * HOUR_MS);
  if (offsetAt(format, hour * HOUR_MS + HOUR_MS - 1) !== offset) return offsetAt(format, ms);
  if (hours.size >= 100_000) hours.clear();
  hours.set(hour, offset);
  return offset;
}

const two = (n: number) => String(n).padStart(2, "0");

/** `2026-03-29T03:30:00.000+02:00`: the instant as the merchant's wall clock, with its offset. */
export function isoInZone(value: Date | string | null, tz: string): string | null {
  if (value === null) return null;
  const ms = new Date(value).getTime();
  const offsetMs = zoneOffset(tz, ms);
  const wall = new Date(ms + offsetMs);
  const offsetMin = Math.round(offsetMs / 60_000);
  const sign = offsetMin < 0 ? "-" : "+";
  const abs = Math.abs(offsetMin);
  const offset = `${sign}${two(Math.floor(abs / 60))}:${two(abs % 60)}`;
  return (
    `${String(wall.getUTCFullYear()).padStart(4, "0")}-${two(wall.getUTCMonth() + 1)}-${two(wall.getUTCDate())}` +
    `T${two(wall.getUTCHours())}:${two(wall.getUTCMinutes())}:${two(wall.getUTCSeconds())}.` +
    `${String(wall.getUTCMilliseconds()).padStart(3, "0")}${offset}`
  );
}

export function csvFileName(range: ReportRange) {
  return `cpxtb-payments-${range.from}-to-${range.to}.csv`;
}

/**
 * The export, page by page (keyset on creation time and id): each page is read only when the previous one has
 * been taken by the response, so memory stays flat. UTF-8 with a byte order mark (spreadsheets then read
 * non-ASCII descriptions right), CRLF line ends.
 * The first chunk is the header line, once PostgreSQL has accepted the time zone (a refusal is still a 400): the
 * download starts at once instead of after the first page of a long year (issue 39: its first byte took 1.5 s
 * at a million payments).
 */
export async function* csvChunks(db: DbOrTx, ownerId: string, range: ReportRange): AsyncGenerator<string> {
  const scope = { ownerId, from: range.from, to: range.to, tz: range.tz, linkId: range.linkId };
  const tz = range.tz;
  await withZoneCheck(() => repo.findRangeInstants(db, scope));
  yield `\uFEFF${csvLine([...REPORT_CSV_COLUMNS])}`;
  let after: { createdKey: string; id: string } | null = null;
  for (let pageRows = CSV_FIRST_PAGE_ROWS; ; pageRows = CSV_PAGE_ROWS) {
    const rows: repo.CsvRow[] = await withZoneCheck(() => repo.listRowsForCsv(db, scope, after, pageRows));
    for (let start = 0; start < rows.length; start += CSV_ROWS_PER_TURN) {
      if (start > 0) await nextTurn();
      let chunk = "";
      for (const r of rows.slice(start, start + CSV_ROWS_PER_TURN)) chunk += csvRow(r, tz);
      yield chunk;
    }
    if (rows.length < pageRows) return;
    const last = rows.at(-1)!;
    after = { createdKey: last.created_key, id: last.id };
  }
}

/** One payment as a line of the export. */
function csvRow(r: repo.CsvRow, tz: string): string {
  return csvLine([
    isoInZone(r.created_at, tz),
    isoInZone(r.completed_at, tz),
    r.reference,
    r.order_id,
    r.description,
    r.status,
    paymentStatusName(r.status),
    formatUnits(BigInt(r.due), 18),
    formatUnits(BigInt(r.received), 18),
    r.amount_usd_cents === null ? null : formatCents(BigInt(r.amount_usd_cents)),
    r.usd_cents === null ? null : formatCents(BigInt(r.usd_cents)),
    r.rate_e18 === null ? null : formatUnits(BigInt(r.rate_e18), 18),
    isoInZone(r.rate_at, tz),
    r.payers,
    r.tx_hashes,
    formatUnits(BigInt(r.refunded), 18),
    r.refunded_usd_cents === null ? null : formatCents(BigInt(r.refunded_usd_cents)),
    r.refund_tx_hashes,
    r.link_id,
  ]);
}
