import type { PaymentStatus, PublicPayment } from "@common/payments.ts";
import { and, desc, eq, getTableColumns, gte, inArray, isNull, lt, lte, type SQL, sql } from "drizzle-orm";
import { getAddress } from "viem";
import { type DbOrTx, rowsOf } from "../../db/client.ts";
import {
  chainTransfers,
  indexerBlocks,
  merchants,
  paymentAmounts,
  paymentEvents,
  paymentSearchKey,
  paymentSearchText,
  payments,
  paymentTimeline,
} from "../../db/schema.ts";
import { createId, idTimePrefix } from "../../lib/ids.ts";
import { type MerchantScope, memberMerchantId, merchantIdOf } from "../merchants/repository.ts";
import { MATCHABLE_STATUSES } from "./state.ts";

export type PaymentRow = typeof payments.$inferSelect;

/** What the pay page may show of a merchant: name, logo, website and the page's appearance. */
export const publicMerchantColumns = {
  name: merchants.name,
  logoUrl: merchants.logoUrl,
  website: merchants.website,
  brandColor: merchants.brandColor,
  pageTheme: merchants.pageTheme,
  payLanguage: merchants.payLanguage,
};
export type PublicMerchant = PublicPayment["merchant"];
export type TransferRow = typeof chainTransfers.$inferSelect;
export type TimelineRow = typeof paymentTimeline.$inferSelect;

export async function insertPayment(db: DbOrTx, values: typeof payments.$inferInsert): Promise<PaymentRow> {
  const [row] = await db.insert(payments).values(values).returning();
  return row!;
}

export async function findPaymentForUpdate(db: DbOrTx, id: string): Promise<PaymentRow | undefined> {
  const [row] = await db.select().from(payments).where(eq(payments.id, id)).for("update");
  return row;
}

export async function findPaymentByReference(db: DbOrTx, reference: string) {
  const [row] = await db
    .select({ payment: payments, merchant: publicMerchantColumns })
    .from(payments)
    .innerJoin(merchants, eq(merchants.id, payments.merchantId))
    .where(eq(payments.reference, reference));
  return row;
}

/** A payment of the scope's business: membership is part of the query, never checked afterwards. */
export async function findPaymentOfOwner(
  db: DbOrTx,
  scope: MerchantScope,
  id: string,
): Promise<PaymentRow | undefined> {
  const [row] = await db
    .select({ payment: payments })
    .from(payments)
    .where(and(eq(payments.id, id), eq(payments.merchantId, merchantIdOf(scope))));
  return row?.payment;
}

export async function listPaymentsOfOwner(
  db: DbOrTx,
  scope: MerchantScope,
  filter: {
    status?: PaymentStatus;
    orderId?: string;
    linkId?: string;
    q?: string;
    /** Created at or after `from` and before `to`. */
    from?: Date;
    to?: Date;
    cursor?: string;
    limit: number;
  },
): Promise<PaymentRow[]> {
  const search = filter.q ? searchCondition(filter.q) : undefined;
  // A search names the business as a value, not as the membership subquery: the planner then knows how many
  // payments it has and whether walking its newest rows or reading the search index is cheaper (decision 037).
  let merchantId: SQL<string> | string = merchantIdOf(scope);
  if (search && typeof scope === "object" && "merchantId" in scope) merchantId = scope.merchantId;
  else if (search) {
    const [row] = rowsOf<{ id: string | null }>(await db.execute(sql`select ${merchantId} as id`));
    if (!row?.id) return [];
    merchantId = row.id;
  }
  const rows = await db
    .select({ payment: payments })
    .from(payments)
    .where(
      and(
        eq(payments.merchantId, merchantId),
        filter.status ? eq(payments.status, filter.status) : undefined,
        filter.orderId ? eq(payments.orderId, filter.orderId) : undefined,
        filter.linkId ? eq(payments.linkId, filter.linkId) : undefined,
        search,
        createdWithin(filter.from, filter.to),
        filter.cursor ? lt(payments.id, filter.cursor) : undefined,
      ),
    )
    .orderBy(desc(payments.id))
    .limit(filter.limit + 1);
  return rows.map((r) => r.payment);
}

/**
 * Payments created before the id took `created_at`'s time (issue 39) had both read from the same clock milliseconds
 * apart; 10 minutes covers them with room to spare.
 */
const ID_TIME_MARGIN_MS = 10 * 60_000;

/**
 * Created at or after `from` and before `to` (decision 037). The history is read in id order through
 * `(merchant_id, id)`: with `created_at` alone, a window months back is reached by filtering every newer row of the
 * merchant, and its last page every older one. A payment's id starts with its creation time, so redundant bounds on
 * the id start and stop that read at the window; the `created_at` test stays the exact one. It is one CASE because
 * the planner takes two ranges over correlated columns as independent: it would expect the window's share of rows
 * squared and read a short window whole through `(merchant_id, created_at, id)` and sort it (1.9 ms against 0.1 ms
 * for a page of a month at 40,000 payments). A CASE it neither estimates from statistics nor reads by an index.
 */
function createdWithin(from: Date | undefined, to: Date | undefined): SQL | undefined {
  if (!from && !to) return undefined;
  const exact = and(
    from ? gte(payments.createdAt, from) : undefined,
    to ? lt(payments.createdAt, to) : undefined,
  );
  return and(
    from ? gte(payments.id, idTimePrefix("pay", Math.max(0, from.getTime() - ID_TIME_MARGIN_MS))) : undefined,
    to ? lt(payments.id, idTimePrefix("pay", to.getTime() + ID_TIME_MARGIN_MS)) : undefined,
    sql`(case when ${exact} then true else false end)`,
  );
}

/**
 * The history search: `q` is a literal, case-insensitive substring of the description, the order id or the
 * reference; `strpos` on the lower-cased text is that test, exactly (ILIKE compares lower-cased text too, but would
 * need its wildcards escaped). From 2 characters on, the term is looked for in the search key (schema
 * `paymentSearchKey`, the same text lower-cased with characters outside ASCII replaced) by a regular expression
 * that the trigram index serves, so a rare term's few rows are found through the index while a common one is found
 * by walking the merchant's newest rows. For a term in ASCII that is the exact test already; a term with other
 * characters is also tested exactly. A 1-character term has no trigram and is tested on the merchant's rows.
 */
export function searchCondition(q: string): SQL {
  const exact = sql`strpos(lower(${paymentSearchText(payments)}), lower(${q})) > 0`;
  if ([...q].length < 2) return exact;
  const literal = q.replace(/[\\^$.|?*+()[\]{}]/g, (c) => `\\${c}`);
  const inKey = sql`(${paymentSearchKey(payments)}) ~ (regexp_replace(lower(${literal}), '[^\\x01-\\x7f]', chr(2), 'g') || '[\\x01-\\x7f]')`;
  return /^[\x20-\x7e]*$/.test(q) ? inKey : sql`(${inKey} and ${exact})`;
}

export async function listTimeline(db: DbOrTx, paymentId: string): Promise<TimelineRow[]> {
  return db
    .select()
    .from(paymentTimeline)
    .where(eq(paymentTimeline.paymentId, paymentId))
    .orderBy(paymentTimeline.id);
}

export async function listTransfersOfPayment(db: DbOrTx, paymentId: string): Promise<TransferRow[]> {
  return db
    .select()
    .from(chainTransfers)
    .where(eq(chainTransfers.paymentId, paymentId))
    .orderBy(chainTransfers.blockNumber);
}

/** The merchant's transfers that no payment claims (the inbox), scoped by membership inside the query. */
export async function listInboxOfOwner(db: DbOrTx, scope: MerchantScope): Promise<TransferRow[]> {
  const rows = await db
    .select({ transfer: chainTransfers })
    .from(chainTransfers)
    .where(
      and(
        eq(chainTransfers.merchantId, merchantIdOf(scope)),
        isNull(chainTransfers.paymentId),
        isNull(chainTransfers.orphanedAt),
        isNull(chainTransfers.dismissedAt),
      ),
    )
    .orderBy(desc(chainTransfers.blockNumber))
    .limit(200);
  return rows.map((r) => r.transfer);
}

/** Which of these transfers no payment has claimed (nor a reorg removed). */
export async function findUnmatchedTransferIds(db: DbOrTx, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: chainTransfers.id })
    .from(chainTransfers)
    .where(
      and(
        inArray(chainTransfers.id, ids),
        isNull(chainTransfers.paymentId),
        isNull(chainTransfers.orphanedAt),
      ),
    );
  return new Set(rows.map((r) => r.id));
}

/** A payment the inbox proposes for a transfer. */
export type InboxSuggestionRow = {
  transfer_id: string;
  id: string;
  reference: string;
  status: PaymentStatus;
  amount_due: string;
  amount_requested: string;
  description: string | null;
  order_id: string | null;
};

/** Suggestions per transfer: its merchant's partial payments, then the open or expired ones nearest each side. */
const SUGGESTIONS_PER_SIDE = 3;

/**
 * The payments of the transfer's own merchant, at the transfer's address, that it most likely was meant for: partly
 * paid ones first (their remainder nearest the transfer's value), then open or expired ones whose amount due is
 * nearest, a few above and below (each side an index range scan of payments_match_idx, not a sort of them all).
 */
export async function listInboxSuggestions(
  db: DbOrTx,
  transfers: TransferRow[],
): Promise<InboxSuggestionRow[]> {
  if (transfers.length === 0) return [];
  const ids = transfers.map((t) => t.id);
  const columns = sql`p.id, p.reference, p.status, p.amount_due::text as amount_due,
    p.amount_requested::text as amount_requested, p.description, p.order_id`;
  const same = sql`p.chain_id = t.chain_id and p.token_address = t.token_address
    and p.receiving_address = t.to_address and p.merchant_id = t.merchant_id`;
  const result = await db.execute(sql`
    select t.id as transfer_id, s.* from chain_transfers t
    cross join lateral (
      (select ${columns}, 0 as rank, abs(p.amount_requested - t.value) as distance from payments p
        where ${same} and p.status = 'partial'
        order by abs(p.amount_requested - t.value) limit ${SUGGESTIONS_PER_SIDE})
      union all
      (select ${columns}, 1 as rank, p.amount_due - t.value as distance from payments p
        where ${same} and p.amount_due >= t.value and p.status in ('pending', 'expired')
        order by p.amount_due asc limit ${SUGGESTIONS_PER_SIDE})
      union all
      (select ${columns}, 1 as rank, t.value - p.amount_due as distance from payments p
        where ${same} and p.amount_due < t.value and p.status in ('pending', 'expired')
        order by p.amount_due desc limit ${SUGGESTIONS_PER_SIDE})
    ) s
    where t.id in (${sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    )})
    order by t.id, s.rank, s.distance, s.id`);
  return rowsOf<InboxSuggestionRow>(result);
}

/** Takes an unmatched transfer of the scope's business out of the inbox; false when it is not there (any more). */
export async function dismissTransfer(
  db: DbOrTx,
  scope: MerchantScope,
  transferId: string,
  now: Date,
): Promise<TransferRow | undefined> {
  const [row] = await db
    .update(chainTransfers)
    .set({ dismissedAt: now })
    .where(
      and(
        eq(chainTransfers.id, transferId),
        eq(chainTransfers.merchantId, merchantIdOf(scope)),
        isNull(chainTransfers.paymentId),
        isNull(chainTransfers.dismissedAt),
      ),
    )
    .returning();
  return row;
}

export async function findTransferOfOwner(
  db: DbOrTx,
  scope: MerchantScope,
  id: string,
): Promise<TransferRow | undefined> {
  const [row] = await db
    .select({ transfer: chainTransfers })
    .from(chainTransfers)
    .where(and(eq(chainTransfers.id, id), eq(chainTransfers.merchantId, merchantIdOf(scope))));
  return row?.transfer;
}

/** Claims an uncredited transfer for a payment: true for exactly one caller, even under concurrency. */
export async function claimTransfer(
  db: DbOrTx,
  transferId: string,
  paymentId: string,
  creditedBy: NonNullable<TransferRow["creditedBy"]>,
  merchantId: string,
): Promise<boolean> {
  const updated = await db
    .update(chainTransfers)
    .set({ paymentId, creditedBy, merchantId })
    .where(and(eq(chainTransfers.id, transferId), isNull(chainTransfers.paymentId)))
    .returning({ id: chainTransfers.id });
  return updated.length > 0;
}

export type NewTransfer = {
  chainId: number;
  tokenAddress: string;
  txHash: string;
  logIndex: number;
  blockNumber: bigint;
  blockHash: string;
  blockTime: Date | null;
  fromAddress: string;
  toAddress: string;
  value: bigint;
  merchantId: string | null;
};

/**
 * Stores a log once per (chain, tx, log index). A log seen again (re-mined after a reorg, or first stored by the
 * fast path) keeps its row, credit included, and takes the block it is in now.
 */
export async function upsertTransfer(
  db: DbOrTx,
  t: NewTransfer,
): Promise<{ row: TransferRow; inserted: boolean }> {
  const [returned] = await db
    .insert(chainTransfers)
    .values({ id: createId("trf"), ...t })
    .onConflictDoUpdate({
      target: [chainTransfers.chainId, chainTransfers.txHash, chainTransfers.logIndex],
      set: {
        blockNumber: sql`excluded.block_number`,
        blockHash: sql`excluded.block_hash`,
        blockTime: sql`coalesce(excluded.block_time, ${chainTransfers.blockTime})`,
        merchantId: sql`coalesce(${chainTransfers.merchantId}, excluded.merchant_id)`,
        orphanedAt: null,
      },
    })
    // xmax = 0: the row was inserted, not updated.
    .returning({ ...getTableColumns(chainTransfers), inserted: sql<boolean>`(xmax = 0)` });
  const { inserted, ...row } = returned!;
  return { row, inserted };
}

/** A JSON array of rows as one parameter, for `json_to_recordset` (see engine.jsonRecords). */
function jsonRecords(rows: readonly object[]): SQL {
  return sql`${JSON.stringify(rows, (_key, value) => (typeof value === "bigint" ? value.toString() : value))}::json`;
}

/**
 * `upsertTransfer` for the logs of a batch, in one statement (the same for 1 log or 10,000): each row in the order
 * given, with whether it was inserted. Each (chain, tx, log index) must appear once.
 */
export async function upsertTransfers(
  db: DbOrTx,
  transfers: readonly NewTransfer[],
): Promise<{ row: Pick<TransferRow, "id" | "paymentId" | "merchantId">; inserted: boolean }[]> {
  if (transfers.length === 0) return [];
  const rows = transfers.map((t) => ({
    id: createId("trf"),
    chain_id: t.chainId,
    token_address: t.tokenAddress,
    tx_hash: t.txHash,
    log_index: t.logIndex,
    block_number: t.blockNumber,
    block_hash: t.blockHash,
    block_time: t.blockTime,
    from_address: t.fromAddress,
    to_address: t.toAddress,
    value: t.value,
    merchant_id: t.merchantId,
  }));
  const result = await db.execute(sql`
    insert into chain_transfers (id, chain_id, token_address, tx_hash, log_index, block_number, block_hash,
      block_time, from_address, to_address, value, merchant_id)
    select r.id, r.chain_id, r.token_address, r.tx_hash, r.log_index, r.block_number, r.block_hash, r.block_time,
      r.from_address, r.to_address, r.value, r.merchant_id
    from json_to_recordset(${jsonRecords(rows)}) as r(id text, chain_id int, token_address text, tx_hash text,
      log_index int, block_number bigint, block_hash text, block_time timestamptz, from_address text,
      to_address text, value numeric, merchant_id text)
    on conflict (chain_id, tx_hash, log_index) do update set
      block_number = excluded.block_number,
      block_hash = excluded.block_hash,
      block_time = coalesce(excluded.block_time, chain_transfers.block_time),
      merchant_id = coalesce(chain_transfers.merchant_id, excluded.merchant_id),
      orphaned_at = null
    returning id, tx_hash, log_index, payment_id, merchant_id, (xmax = 0) as inserted`);
  const byKey = new Map(
    rowsOf<{
      id: string;
      tx_hash: string;
      log_index: number;
      payment_id: string | null;
      merchant_id: string | null;
      inserted: boolean;
    }>(result).map((r) => [`${r.tx_hash}:${Number(r.log_index)}`, r]),
  );
  return transfers.map((t) => {
    const r = byKey.get(`${t.txHash}:${t.logIndex}`)!;
    return { row: { id: r.id, paymentId: r.payment_id, merchantId: r.merchant_id }, inserted: r.inserted };
  });
}

/**
 * Addresses whose incoming transfers matter to the indexer (every block): merchants' wallets and the receiving
 * addresses of matchable payments. The latter are few (about one per merchant) among many matchable payments
 * (expired ones stay matchable), so they are skipped through in the order of `payments_matchable_address_idx`, one
 * index probe per address, rather than every matchable payment read and grouped (decision 037). The status list is
 * written out as that index's predicate is, so the planner may use it.
 */
export async function findWatchedAddresses(db: DbOrTx): Promise<Set<string>> {
  const rows = await db.select({ a: merchants.walletAddress }).from(merchants);
  const result = await db.execute(sql`
    with recursive a (address) as (
      (select receiving_address from payments where status in ${MATCHABLE_LIST}
        order by receiving_address limit 1)
      union all
      select (select p.receiving_address from payments p
        where p.status in ${MATCHABLE_LIST} and p.receiving_address > a.address
        order by p.receiving_address limit 1)
      from a where a.address is not null
    )
    select address as a from a where address is not null`);
  const paying = rowsOf<{ a: string }>(result);
  return new Set([...rows, ...paying].map((r) => getAddress(r.a)));
}

/** MATCHABLE_STATUSES as an SQL list of literals (the partial index's predicate must be provable from it). */
const MATCHABLE_LIST = sql.raw(`(${MATCHABLE_STATUSES.map((s) => `'${s}'`).join(", ")})`);

/**
 * `findPaymentByAmount` for many transfers in one statement: for each, the payment whose reserved remaining
 * amount it equals, else the newest payment whose amount due it equals, both matchable and watched at the block's
 * time. Answers in the order given (null: nothing matches). Every transfer is matched against the payments as
 * they are before the batch, exactly as one at a time with the evaluations after the batch (the indexer's order).
 */
export async function findPaymentsByAmount(
  db: DbOrTx,
  key: { chainId: number; tokenAddress: string },
  transfers: readonly { to: string; value: bigint; blockTime: Date }[],
): Promise<({ id: string; merchantId: string } | null)[]> {
  if (transfers.length === 0) return [];
  const rows = transfers.map((t, n) => ({ n, to_address: t.to, value: t.value, block_time: t.blockTime }));
  const matchable = sql.join(
    MATCHABLE_STATUSES.map((s) => sql`${s}`),
    sql`, `,
  );
  const result = await db.execute(sql`
    select r.n, coalesce(rest.id, due.id) as id, coalesce(rest.merchant_id, due.merchant_id) as merchant_id
    from json_to_recordset(${jsonRecords(rows)}) as r(n int, to_address text, value numeric, block_time timestamptz)
    left join lateral (
      select p.id, p.merchant_id
      from payment_amounts a join payments p on p.id = a.payment_id
      where a.chain_id = ${key.chainId} and a.token_address = ${key.tokenAddress}
        and a.receiving_address = r.to_address and a.amount = r.value and a.kind = 'remainder'
        -- Created before the block (a few minutes of clock skew allowed), still watched at the block's time.
        and a.created_at <= r.block_time + interval '10 minutes'
        and p.status in (${matchable}) and p.monitor_until >= r.block_time
      limit 1
    ) as rest on true
    left join lateral (
      select p.id, p.merchant_id
      from payments p
      where rest.id is null and p.chain_id = ${key.chainId} and p.token_address = ${key.tokenAddress}
        and p.receiving_address = r.to_address and p.amount_due = r.value
        and p.status in (${matchable}) and p.monitor_until >= r.block_time
        and p.created_at <= r.block_time + interval '10 minutes'
      order by p.created_at desc
      limit 1
    ) as due on true`);
  const found = new Map(
    rowsOf<{ n: number; id: string | null; merchant_id: string | null }>(result).map((r) => [Number(r.n), r]),
  );
  return transfers.map((_t, n) => {
    const r = found.get(n);
    return r?.id ? { id: r.id, merchantId: r.merchant_id! } : null;
  });
}

/**
 * `claimTransfer` for many (transfer, payment) pairs in one statement; returns the ids of the transfers claimed
 * (each by exactly one caller, even under concurrency: only a transfer no payment holds yet).
 */
export async function claimTransfers(
  db: DbOrTx,
  claims: readonly { transferId: string; paymentId: string; merchantId: string }[],
  creditedBy: NonNullable<TransferRow["creditedBy"]>,
): Promise<Set<string>> {
  if (claims.length === 0) return new Set();
  const rows = claims.map((c) => ({ id: c.transferId, payment_id: c.paymentId, merchant_id: c.merchantId }));
  const result = await db.execute(sql`
    update chain_transfers as t set payment_id = r.payment_id, credited_by = ${creditedBy}, merchant_id = r.merchant_id
    from json_to_recordset(${jsonRecords(rows)}) as r(id text, payment_id text, merchant_id text)
    where t.id = r.id and t.payment_id is null
    returning t.id`);
  return new Set(rowsOf<{ id: string }>(result).map((r) => r.id));
}

/** The one payment a transfer of exactly `value` to `to` at `blockTime` pays, if any (PAYMENTS.md, Matching 2). */
export async function findPaymentByAmount(
  db: DbOrTx,
  key: { chainId: number; tokenAddress: string; to: string; value: bigint; blockTime: Date },
): Promise<PaymentRow | undefined> {
  // Created before the block (a few minutes of clock skew allowed), still watched at the block's time.
  const createdBefore = new Date(key.blockTime.getTime() + 10 * 60 * 1000);
  // A partial payment's reserved remaining amount (unique among live amounts), reserved before the block.
  const [rest] = await db
    .select({ payment: payments })
    .from(paymentAmounts)
    .innerJoin(payments, eq(payments.id, paymentAmounts.paymentId))
    .where(
      and(
        eq(paymentAmounts.chainId, key.chainId),
        eq(paymentAmounts.tokenAddress, key.tokenAddress),
        eq(paymentAmounts.receivingAddress, key.to),
        eq(paymentAmounts.amount, key.value),
        eq(paymentAmounts.kind, "remainder"),
        lte(paymentAmounts.createdAt, createdBefore),
        inArray(payments.status, MATCHABLE_STATUSES),
        gte(payments.monitorUntil, key.blockTime),
      ),
    );
  if (rest) return rest.payment;
  const [row] = await db
    .select()
    .from(payments)
    .where(
      and(
        eq(payments.chainId, key.chainId),
        eq(payments.tokenAddress, key.tokenAddress),
        eq(payments.receivingAddress, key.to),
        eq(payments.amountDue, key.value),
        inArray(payments.status, MATCHABLE_STATUSES),
        gte(payments.monitorUntil, key.blockTime),
        lte(payments.createdAt, createdBefore),
      ),
    )
    .orderBy(desc(payments.createdAt))
    .limit(1);
  return row;
}

/**
 * The paid payments (completed or paid late) a member created since `since`, in the business the member acts for:
 * how many, their USD amounts (those asked in USD) and what they received.
 */
export async function sumSalesOfMember(
  db: DbOrTx,
  userId: string,
  since: Date,
): Promise<{ count: number; usdCents: bigint; base: bigint }> {
  const result = await db.execute(sql`
    select count(*)::int as count, coalesce(sum(amount_usd_cents), 0)::text as usd_cents,
      coalesce(sum(amount_received), 0)::text as base
    from payments
    where merchant_id = ${memberMerchantId(sql`${userId}`)} and created_by = ${userId}
      and status in ('completed', 'paid_late') and created_at >= ${since.toISOString()}::timestamptz`);
  const [row] = rowsOf<{ count: number; usd_cents: string; base: string }>(result);
  return {
    count: Number(row?.count ?? 0),
    usdCents: BigInt(row?.usd_cents ?? 0),
    base: BigInt(row?.base ?? 0),
  };
}

/** Whether any transfer (on chain now or orphaned by a reorg) was ever credited to the payment. */
export async function hasCredits(db: DbOrTx, paymentId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: chainTransfers.id })
    .from(chainTransfers)
    .where(eq(chainTransfers.paymentId, paymentId))
    .limit(1);
  return row !== undefined;
}

export async function insertTimeline(db: DbOrTx, values: Omit<typeof paymentTimeline.$inferInsert, "id">) {
  await db.insert(paymentTimeline).values({ id: createId("ptl"), ...values });
}

export async function insertEvent(
  db: DbOrTx,
  values: { paymentId: string; merchantId: string; type: string },
) {
  await db.insert(paymentEvents).values({ id: createId("evt"), ...values });
}

/**
 * Takes up to `limit` events off the live publisher's queue and returns them (each to exactly one publisher), with
 * their payment's reference so listeners can tell whether anyone waits for it before reading anything else.
 * Only publishers lock the queue's rows (decision 031): the dispatcher, which locks the event rows themselves
 * while it stores their webhooks and emails, never makes a publisher skip an event.
 */
export async function claimUnpublishedEvents(db: DbOrTx, limit: number) {
  const result = await db.execute(sql`
    with claimed as (
      delete from payment_events_unpublished
      where seq in (select seq from payment_events_unpublished order by seq limit ${limit} for update skip locked)
      returning seq
    )
    select e.id, e.payment_id as "paymentId", e.merchant_id as "merchantId", e.type, e.seq, p.reference
    from claimed c join payment_events e on e.seq = c.seq left join payments p on p.id = e.payment_id`);
  return rowsOf<{
    id: string;
    paymentId: string;
    merchantId: string;
    type: string;
    seq: string;
    reference: string | null;
  }>(result).sort((a, b) => Number(BigInt(a.seq) - BigInt(b.seq)));
}

/** The newest block the indexer has processed (its cursor), for confirmation counts. */
export async function findIndexedHead(
  db: DbOrTx,
  chainId: number,
  tokenAddress: string,
): Promise<bigint | null> {
  const [row] = await db
    .select({ blockNumber: indexerBlocks.blockNumber })
    .from(indexerBlocks)
    .where(and(eq(indexerBlocks.chainId, chainId), eq(indexerBlocks.tokenAddress, tokenAddress)))
    .orderBy(desc(indexerBlocks.blockNumber))
    .limit(1);
  return row?.blockNumber ?? null;
}

/** The indexer's cursor: the newest processed block and its time (the chain's time as the indexer knows it). */
export async function findIndexedTip(
  db: DbOrTx,
  chainId: number,
  tokenAddress: string,
): Promise<{ blockNumber: bigint; blockTime: Date | null } | null> {
  const [row] = await db
    .select({ blockNumber: indexerBlocks.blockNumber, blockTime: indexerBlocks.blockTime })
    .from(indexerBlocks)
    .where(and(eq(indexerBlocks.chainId, chainId), eq(indexerBlocks.tokenAddress, tokenAddress)))
    .orderBy(desc(indexerBlocks.blockNumber))
    .limit(1);
  return row ?? null;
}
