import * as z from "zod";
import { calendarDate, isRealDate } from "./dates.ts";
import { paymentStatus } from "./payments.ts";

/** A report covers at most this many calendar days (a leap year). */
export const MAX_REPORT_DAYS = 366;

const DAY_MS = 86_400_000;

/** Whether this runtime knows the IANA time zone (both the browser and Node have the full list). */
export function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

export const timeZone = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_+\-/]+$/, "must be an IANA time zone like Europe/Berlin")
  .refine(isTimeZone, "is not a known time zone (use an IANA name like Europe/Berlin)");

/** Whole days from `from` to `to`, both included. */
export function daysInRange(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
}

export const REPORT_BUCKETS = ["day", "week"] as const;
export type ReportBucket = (typeof REPORT_BUCKETS)[number];

/** Days up to this span are charted per day by default, longer ranges per week. */
export const DAILY_BUCKETS_UP_TO_DAYS = 62;

/**
 * The date range of a report: calendar days `from`..`to` (both included) in the time zone `tz`, so "today" is the
 * merchant's today and buckets follow its midnights (daylight-saving days are 23 or 25 hours long).
 */
export const reportRangeQuery = z
  .object({
    from: calendarDate,
    to: calendarDate,
    tz: timeZone,
    bucket: z.enum(REPORT_BUCKETS).optional(),
    /** Only the payments made from this payment link. */
    linkId: z
      .string()
      .regex(/^lnk_[0-9a-z]{26}$/, "unknown link")
      .optional(),
  })
  .superRefine((v, ctx) => {
    if (!isRealDate(v.from) || !isRealDate(v.to)) return;
    const days = daysInRange(v.from, v.to);
    if (days < 1) ctx.addIssue({ code: "custom", path: ["to"], message: "must not be before from" });
    else if (days > MAX_REPORT_DAYS)
      ctx.addIssue({
        code: "custom",
        path: ["to"],
        message: `the range must be at most ${MAX_REPORT_DAYS} days (one year)`,
      });
  });
export type ReportRange = z.infer<typeof reportRangeQuery>;

/**
 * Money of a group of payments: token amounts in whole CPXTB (decimal strings), USD as "123.45". `usd` values the
 * received tokens at each payment's rate (the locked one; for a payment asked in CPXTB, the rate when it was
 * paid); `unvalued` counts payments that received tokens but have no rate, which `usd` leaves out.
 */
const money = {
  count: z.number().int(),
  amountReceived: z.string(),
  usd: z.string(),
  unvalued: z.number().int(),
};

export const reportStatusTotal = z.object({
  status: paymentStatus,
  ...money,
  amountDue: z.string(),
});

export const reportBucket = z.object({
  /** First day of the bucket (a Monday for weeks), in the report's time zone. */
  start: z.string(),
  /** Paid payments (completed or paid late) created in the bucket and what they brought. */
  ...money,
});

export const reportSummaryResponse = z.object({
  from: z.string(),
  to: z.string(),
  tz: z.string(),
  bucket: z.enum(REPORT_BUCKETS),
  /** Instants the range covers: [startsAt, endsAt). */
  startsAt: z.string(),
  endsAt: z.string(),
  token: z.object({ symbol: z.string() }),
  /** Every payment created in the range. */
  payments: z.number().int(),
  byStatus: z.array(reportStatusTotal),
  /** Paid payments: completed and paid late. */
  revenue: z.object({ ...money, averageReceived: z.string().nullable(), averageUsd: z.string().nullable() }),
  paidLate: z.object(money),
  /** Tokens received by payments that were not paid in full (partial, or expired after a partial payment). */
  partial: z.object(money),
  buckets: z.array(reportBucket),
  /**
   * Refunds sent back for the payments of the range (decision 018): how many payments had one, how much in
   * CPXTB, and its USD value at each payment's rate.
   */
  refunds: z.object({ count: z.number().int(), amountRefunded: z.string(), usd: z.string() }),
  /** Revenue minus what was refunded of the paid payments: what the business kept. */
  netRevenue: z.object({ amount: z.string(), usd: z.string() }),
});
export type ReportSummary = z.infer<typeof reportSummaryResponse>;
export type ReportMoney = z.infer<typeof reportBucket>;

/** The columns of the CSV export, in order: `status` is the machine code, `status_name` its name (common/status-names.ts). */
export const REPORT_CSV_COLUMNS = [
  "created_at",
  "completed_at",
  "reference",
  "order_id",
  "description",
  "status",
  "status_name",
  "amount_due_cpxtb",
  "amount_received_cpxtb",
  "requested_usd",
  "usd_value",
  "rate_usd_per_cpxtb",
  "rate_at",
  "payer_addresses",
  "tx_hashes",
  "amount_refunded_cpxtb",
  "refunded_usd",
  "refund_tx_hashes",
  "link_id",
] as const;
