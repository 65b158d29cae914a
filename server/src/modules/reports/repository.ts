import type { PaymentStatus } from "@common/payments.ts";
import type { ReportBucket } from "@common/reports.ts";
import { type SQL, sql } from "drizzle-orm";
import { type DbOrTx, rowsOf } from "../../db/client.ts";
import { merchantIdOf } from "../merchants/repository.ts";

/** Calendar days `from`..`to` (both included) in time zone `tz`, scoped to one owner's merchant. */
export type ReportScope = {
  ownerId: string;
  from: string;
  to: string;
  tz: string;
  linkId?: string | undefined;
};

/** Token amounts normalised to 18 decimals, so payments of tokens with other decimals still add up exactly. */
// (The power is skipped for the usual 18 decimals: numeric powers per row are what made year-long sums slow.)
const to18 = (column: SQL) =>
  sql`(case when p.token_decimals = 18 then ${column} else ${column} * (10::numeric ^ (18 - p.token_decimals)) end)`;
const received18 = to18(sql`p.amount_received`);
const due18 = to18(sql`p.amount_due`);
const refunded18 = to18(sql`p.amount_refunded`);
/** The payment's rate: the one locked at creation, or for an amount asked in CPXTB the one when it was paid. */
const rateE18 = sql`coalesce(p.price_e18, p.completed_price_e18)`;
/** USD value in cents of what was received, rounded per payment (so the CSV's rows add up to the totals). */
const usdCents = sql`round(${received18} * ${rateE18} / 1e34)`;
/** USD value in cents of what was refunded, at the same rate as what was received (decision 018). */
const refundedUsdCents = sql`round(${refunded18} * ${rateE18} / 1e34)`;

/** The range's first and last instants: the time zone's midnights, daylight-saving changes included. */
function bounds(scope: ReportScope) {
  return {
    start: sql`((${scope.from}::date)::timestamp at time zone ${scope.tz})`,
    end: sql`((${scope.to}::date + 1)::timestamp at time zone ${scope.tz})`,
  };
}

/** The owner's payments created in the range: the owner is part of the query, never checked afterwards. */
function ownedInRange(scope: ReportScope, extra?: SQL) {
  const { start, end } = bounds(scope);
  return sql`p.merchant_id = ${merchantIdOf(scope.ownerId)} and p.created_at >= ${start} and p.created_at < ${end}
    ${scope.linkId ? sql`and p.link_id = ${scope.linkId}` : sql``}
    ${extra ? sql`and ${extra}` : sql``}`;
}

export type MoneyRow = { count: number; received: string; usd_cents: string; unvalued: number };

export async function findRangeInstants(db: DbOrTx, scope: ReportScope) {
  const { start, end } = bounds(scope);
  const [row] = rowsOf<{ start: Date | string; end: Date | string }>(
    await db.execute(sql`select ${start} as start, ${end} as end`),
  );
  return { start: new Date(row!.start), end: new Date(row!.end) };
}

export type StatusBucketRow = MoneyRow & {
  status: PaymentStatus;
  /** The bucket's first day, `YYYY-MM-DD` in the time zone. */
  bucket: string;
  due: string;
  /** The payments that received anything (for the partial totals). */
  received_count: number;
  /** What was sent back (refunds are a summary beside the status, decision 018). */
  refunded_count: number;
  refunded: string;
  refunded_usd_cents: string;
};

/**
 * The first day of every bucket of the range (the Monday of each ISO week, or each day) with its instants in the
 * time zone, clipped to the range: what both ways of adding up group by.
 */
function bucketsOf(scope: ReportScope, bucket: ReportBucket) {
  const { start, end } = bounds(scope);
  const step = bucket === "week" ? sql`interval '7 days'` : sql`interval '1 day'`;
  const first =
    bucket === "week" ? sql`date_trunc('week', ${scope.from}::date::timestamp)` : sql`${scope.from}::date`;
  return sql`select to_char(d, 'YYYY-MM-DD') as bucket,
      greatest(d at time zone ${scope.tz}, ${start}) as starts_at,
      least((d + ${step}) at time zone ${scope.tz}, ${end}) as ends_at
    from generate_series(${first}::timestamp, ${scope.to}::date::timestamp, ${step}) d`;
}

/** Quarter hours: the small slot of `payment_sums` (every zone of the tz database is on quarter hours today). */
const SLOT_SECONDS = 900;
/** Where `payment_sums`' slots are counted from (the migration's `date_bin` origin): a UTC midnight. */
const SLOT_ORIGIN = sql`timestamptz '2000-01-01 00:00:00+00'`;

/**
 * Sums per status and bucket (days or ISO weeks in the time zone): the totals per status and the paid payments'
 * buckets are both added up from these few hundred rows at most. Read from the sums kept beside the payments
 * (`payment_sums`, decision 039): a bucket's whole UTC days from the day rows, its edges (the zone's midnight is
 * rarely UTC's) from the quarter-hour rows, each part one range of the index; so a year of a business with 100,000
 * payments is a few thousand rows added, not every payment valued and placed in its week. Sums subtract: an edge
 * longer than half a day is read as its whole UTC day less the quarter hours outside the bucket, so a day in
 * Berlin (23:00 to 23:00 UTC) is one day row and eight quarter rows, not 96. A zone whose midnights are not on a
 * quarter hour (none today; some before 1980) is added up from the payments themselves.
 */
export async function sumByStatusAndBucket(
  db: DbOrTx,
  scope: ReportScope,
  bucket: ReportBucket,
): Promise<StatusBucketRow[]> {
  const buckets = bucketsOf(scope, bucket);
  const [check] = rowsOf<{ aligned: boolean | null }>(
    await db.execute(sql`select bool_and(extract(epoch from starts_at)::numeric % ${SLOT_SECONDS} = 0
      and extract(epoch from ends_at)::numeric % ${SLOT_SECONDS} = 0) as aligned from (${buckets}) b`),
  );
  if (check?.aligned === false) return sumPaymentsByStatusAndBucket(db, scope, bucket);
  const merchant = merchantIdOf(scope.ownerId);
  const link = scope.linkId ? sql`and s.link_id = ${scope.linkId}` : sql``;
  const rows = (sign: 1 | -1, unit: "quarter" | "day", from: SQL, to: SQL) =>
    sql`select ${sql.raw(String(sign))} as sign, s.* from payment_sums s
      where s.merchant_id = ${merchant} and s.unit = ${unit} and s.slot >= ${from} and s.slot < ${to} ${link}`;
  const result = await db.execute(sql`
    select x.status, b.bucket, x.count, x.received, x.usd_cents, x.unvalued, x.due, x.received_count,
      x.refunded_count, x.refunded, x.refunded_usd_cents
    from (
      select bucket, starts_at, ends_at, days_from, days_to,
        -- An edge longer than half a day is its whole UTC day less what lies outside the bucket (only when the
        -- bucket reaches a UTC midnight: within one UTC day, its quarter hours are all read).
        days_from <= days_to and days_from - starts_at > interval '12 hours' as left_less,
        days_from <= days_to and ends_at - days_to > interval '12 hours' as right_less
      from (
        select bucket, starts_at, ends_at,
          -- The bucket's first and last UTC midnights; when the first is after the last, no midnight within.
          date_bin('1 day', starts_at + interval '1 day' - interval '1 microsecond', ${SLOT_ORIGIN}) as days_from,
          date_bin('1 day', ends_at, ${SLOT_ORIGIN}) as days_to
        from (${buckets}) b0
      ) b1
    ) b
    cross join lateral (
      select s.status,
        sum(s.sign * s.count)::int as count,
        sum(s.sign * s.received)::numeric(78, 0)::text as received,
        sum(s.sign * s.usd_cents)::numeric(78, 0)::text as usd_cents,
        sum(s.sign * s.unvalued)::int as unvalued,
        sum(s.sign * s.due)::numeric(78, 0)::text as due,
        sum(s.sign * s.received_count)::int as received_count,
        sum(s.sign * s.refunded_count)::int as refunded_count,
        sum(s.sign * s.refunded)::numeric(78, 0)::text as refunded,
        sum(s.sign * s.refunded_usd_cents)::numeric(78, 0)::text as refunded_usd_cents
      from (
        ${rows(
          1,
          "day",
          sql`case when b.left_less then b.days_from - interval '1 day' else b.days_from end`,
          sql`case when b.right_less then b.days_to + interval '1 day' else b.days_to end`,
        )}
        union all ${rows(1, "quarter", sql`b.starts_at`, sql`case when b.left_less then b.starts_at else least(b.days_from, b.ends_at) end`)}
        union all ${rows(1, "quarter", sql`case when b.right_less then b.ends_at else greatest(b.days_to, b.days_from) end`, sql`b.ends_at`)}
        union all ${rows(-1, "quarter", sql`b.days_from - interval '1 day'`, sql`case when b.left_less then b.starts_at else b.days_from - interval '1 day' end`)}
        union all ${rows(-1, "quarter", sql`b.ends_at`, sql`case when b.right_less then b.days_to + interval '1 day' else b.ends_at end`)}
      ) s
      group by s.status
      having sum(s.sign * s.count) <> 0
    ) x`);
  return rowsOf<StatusBucketRow>(result);
}

/**
 * The same sums added up from the payments themselves, in one pass over the range: the way a zone off the quarter
 * hours is served, and what the kept sums are tested against. The rows are grouped by
 * `date_trunc(unit, instant, zone)`, about three times cheaper per row than truncating the instant converted to
 * the zone's wall clock; only each group's key is then formatted as the zone's date.
 */
export async function sumPaymentsByStatusAndBucket(
  db: DbOrTx,
  scope: ReportScope,
  bucket: ReportBucket,
): Promise<StatusBucketRow[]> {
  const unit = bucket === "week" ? "week" : "day";
  const result = await db.execute(sql`
    select g.*, to_char(g.starts_at at time zone ${scope.tz}, 'YYYY-MM-DD') as bucket
    from (
      select p.status, date_trunc(${unit}, p.created_at, ${scope.tz}) as starts_at,
        count(*)::int as count,
        coalesce(sum(${received18}), 0)::numeric(78, 0)::text as received,
        coalesce(sum(${usdCents}), 0)::numeric(78, 0)::text as usd_cents,
        (count(*) filter (where ${rateE18} is null and p.amount_received > 0))::int as unvalued,
        coalesce(sum(${due18}), 0)::numeric(78, 0)::text as due,
        (count(*) filter (where p.amount_received > 0))::int as received_count,
        (count(*) filter (where p.amount_refunded > 0))::int as refunded_count,
        coalesce(sum(${refunded18}), 0)::numeric(78, 0)::text as refunded,
        coalesce(sum(${refundedUsdCents}), 0)::numeric(78, 0)::text as refunded_usd_cents
      from payments p
      where ${ownedInRange(scope)}
      group by 1, 2
    ) g`);
  return rowsOf<StatusBucketRow>(result);
}

export type CsvRow = {
  id: string;
  /** The exact creation time as PostgreSQL prints it (microseconds kept): the keyset of the next page. */
  created_key: string;
  created_at: Date | string;
  completed_at: Date | string | null;
  reference: string;
  order_id: string | null;
  description: string | null;
  status: PaymentStatus;
  due: string;
  received: string;
  amount_usd_cents: string | null;
  usd_cents: string | null;
  rate_e18: string | null;
  rate_at: Date | string | null;
  payers: string | null;
  tx_hashes: string | null;
  refunded: string;
  refunded_usd_cents: string | null;
  refund_tx_hashes: string | null;
  link_id: string | null;
};

/**
 * One page of the export, in creation order after the keyset `after` (created_at, id): the CSV is read page by
 * page so the server's memory stays flat whatever the number of rows.
 */
export async function listRowsForCsv(
  db: DbOrTx,
  scope: ReportScope,
  after: { createdKey: string; id: string } | null,
  limit: number,
): Promise<CsvRow[]> {
  const keyset = after
    ? sql`(p.created_at, p.id) > (${after.createdKey}::timestamptz, ${after.id})`
    : undefined;
  const result = await db.execute(sql`
    select p.id, p.created_at::text as created_key, p.created_at, p.completed_at, p.reference, p.order_id, p.description, p.status,
           ${due18}::numeric(78, 0)::text as due, ${received18}::numeric(78, 0)::text as received,
           p.amount_usd_cents::text as amount_usd_cents, ${usdCents}::numeric(78, 0)::text as usd_cents,
           ${rateE18}::text as rate_e18, coalesce(p.price_at, p.completed_price_at) as rate_at,
           t.payers, t.tx_hashes,
           ${refunded18}::numeric(78, 0)::text as refunded,
           ${refundedUsdCents}::numeric(78, 0)::text as refunded_usd_cents, r.refund_tx_hashes, p.link_id
    from payments p
    left join lateral (
      select string_agg(distinct c.from_address, ' ') as payers, string_agg(distinct c.tx_hash, ' ') as tx_hashes
      from chain_transfers c where c.payment_id = p.id and c.orphaned_at is null
    ) t on true
    left join lateral (
      select string_agg(f.tx_hash, ' ' order by f.created_at, f.id) as refund_tx_hashes
      from refunds f where f.payment_id = p.id
    ) r on true
    where ${ownedInRange(scope, keyset)}
    order by p.created_at, p.id
    limit ${limit}`);
  return rowsOf<CsvRow>(result);
}
