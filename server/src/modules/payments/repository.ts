import type { PaymentStatus, PublicPayment } from "@common/payments.ts";
import { and, desc, eq, gte, ilike, inArray, isNull, lt, lte, or, sql } from "drizzle-orm";
import { type DbOrTx, rowsOf } from "../../db/client.ts";
import {
  chainTransfers,
  indexerBlocks,
  merchants,
  paymentEvents,
  payments,
  paymentTimeline,
} from "../../db/schema.ts";
import { createId } from "../../lib/ids.ts";
import { MATCHABLE_STATUSES } from "./state.ts";

export type PaymentRow = typeof payments.$inferSelect;

/** What the pay page may show of a merchant: name, logo and the page's appearance. */
export const publicMerchantColumns = {
  name: merchants.name,
  logoUrl: merchants.logoUrl,
  brandColor: merchants.brandColor,
  pageTheme: merchants.pageTheme,
};
export type PublicMerchant = PublicPayment["merchant"];
export type TransferRow = typeof chainTransfers.$inferSelect;
export type TimelineRow = typeof paymentTimeline.$inferSelect;

export async function insertPayment(db: DbOrTx, values: typeof payments.$inferInsert): Promise<PaymentRow> {
  const [row] = await db.insert(payments).values(values).returning();
  return row!;
}

/** Tags already used by live payments of this base amount at this address. */
export async function findLiveTags(
  db: DbOrTx,
  key: { chainId: number; tokenAddress: string; receivingAddress: string; baseAmount: bigint },
): Promise<Set<number>> {
  const rows = await db
    .select({ tag: payments.tag })
    .from(payments)
    .where(
      and(
        eq(payments.chainId, key.chainId),
        eq(payments.tokenAddress, key.tokenAddress),
        eq(payments.receivingAddress, key.receivingAddress),
        eq(payments.baseAmount, key.baseAmount),
        eq(payments.live, true),
      ),
    );
  return new Set(rows.map((r) => r.tag));
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

/** A payment of the merchant owned by `ownerId`: the owner is part of the query, never checked afterwards. */
export async function findPaymentOfOwner(
  db: DbOrTx,
  ownerId: string,
  id: string,
): Promise<PaymentRow | undefined> {
  const [row] = await db
    .select({ payment: payments })
    .from(payments)
    .innerJoin(merchants, eq(merchants.id, payments.merchantId))
    .where(and(eq(payments.id, id), eq(merchants.ownerId, ownerId)));
  return row?.payment;
}

export async function listPaymentsOfOwner(
  db: DbOrTx,
  ownerId: string,
  filter: { status?: PaymentStatus; orderId?: string; q?: string; cursor?: string; limit: number },
): Promise<PaymentRow[]> {
  // The search is a literal substring: LIKE's wildcards in it are escaped.
  const pattern = filter.q ? `%${filter.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const rows = await db
    .select({ payment: payments })
    .from(payments)
    .innerJoin(merchants, eq(merchants.id, payments.merchantId))
    .where(
      and(
        eq(merchants.ownerId, ownerId),
        filter.status ? eq(payments.status, filter.status) : undefined,
        filter.orderId ? eq(payments.orderId, filter.orderId) : undefined,
        pattern
          ? or(
              ilike(payments.description, pattern),
              ilike(payments.orderId, pattern),
              ilike(payments.reference, pattern),
            )
          : undefined,
        filter.cursor ? lt(payments.id, filter.cursor) : undefined,
      ),
    )
    .orderBy(desc(payments.id))
    .limit(filter.limit + 1);
  return rows.map((r) => r.payment);
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

/** The merchant's transfers that no payment claims (the inbox), scoped by the owner inside the query. */
export async function listInboxOfOwner(db: DbOrTx, ownerId: string): Promise<TransferRow[]> {
  const rows = await db
    .select({ transfer: chainTransfers })
    .from(chainTransfers)
    .innerJoin(merchants, eq(merchants.id, chainTransfers.merchantId))
    .where(
      and(
        eq(merchants.ownerId, ownerId),
        isNull(chainTransfers.paymentId),
        isNull(chainTransfers.orphanedAt),
      ),
    )
    .orderBy(desc(chainTransfers.blockNumber))
    .limit(200);
  return rows.map((r) => r.transfer);
}

export async function findTransferOfOwner(
  db: DbOrTx,
  ownerId: string,
  id: string,
): Promise<TransferRow | undefined> {
  const [row] = await db
    .select({ transfer: chainTransfers })
    .from(chainTransfers)
    .innerJoin(merchants, eq(merchants.id, chainTransfers.merchantId))
    .where(and(eq(chainTransfers.id, id), eq(merchants.ownerId, ownerId)));
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
  const result = await db.execute(sql`
    insert into chain_transfers (id, chain_id, token_address, tx_hash, log_index, block_number, block_hash, block_time,
      from_address, to_address, value, merchant_id)
    values (${createId("trf")}, ${t.chainId}, ${t.tokenAddress}, ${t.txHash}, ${t.logIndex}, ${t.blockNumber},
      ${t.blockHash}, ${t.blockTime}, ${t.fromAddress}, ${t.toAddress}, ${t.value.toString()}, ${t.merchantId})
    on conflict (chain_id, tx_hash, log_index) do update set
      block_number = excluded.block_number, block_hash = excluded.block_hash,
      block_time = coalesce(excluded.block_time, chain_transfers.block_time),
      merchant_id = coalesce(chain_transfers.merchant_id, excluded.merchant_id),
      orphaned_at = null
    returning id, (xmax = 0) as inserted`);
  const [returned] = rowsOf<{ id: string; inserted: boolean }>(result);
  const [row] = await db.select().from(chainTransfers).where(eq(chainTransfers.id, returned!.id));
  return { row: row!, inserted: returned!.inserted };
}

/** The one payment a transfer of exactly `value` to `to` at `blockTime` pays, if any (PAYMENTS.md, Matching 2). */
export async function findPaymentByAmount(
  db: DbOrTx,
  key: { chainId: number; tokenAddress: string; to: string; value: bigint; blockTime: Date },
): Promise<PaymentRow | undefined> {
  // Created before the block (a few minutes of clock skew allowed), still watched at the block's time.
  const createdBefore = new Date(key.blockTime.getTime() + 10 * 60 * 1000);
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

export async function insertTimeline(db: DbOrTx, values: Omit<typeof paymentTimeline.$inferInsert, "id">) {
  await db.insert(paymentTimeline).values({ id: createId("ptl"), ...values });
}

export async function insertEvent(
  db: DbOrTx,
  values: { paymentId: string; merchantId: string; type: string },
) {
  await db.insert(paymentEvents).values({ id: createId("evt"), ...values });
}

/** Marks up to `limit` unpublished events as published and returns them (each to exactly one publisher). */
export async function claimUnpublishedEvents(db: DbOrTx, limit: number) {
  const result = await db.execute(sql`
    update payment_events set published_at = now()
    where seq in (select seq from payment_events where published_at is null order by seq limit ${limit}
                  for update skip locked)
    returning id, payment_id as "paymentId", merchant_id as "merchantId", type, seq`);
  return rowsOf<{ id: string; paymentId: string; merchantId: string; type: string; seq: string }>(
    result,
  ).sort((a, b) => Number(BigInt(a.seq) - BigInt(b.seq)));
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

/**
 * Inserts a new payment, its first timeline row and its `payment.created` event in one statement (one round trip;
 * a single statement is atomic), and returns the row as stored.
 */
export async function insertPaymentCreated(
  db: DbOrTx,
  v: typeof payments.$inferInsert & { id: string; createdAt: Date },
): Promise<PaymentRow> {
  const n = (x: bigint | null | undefined) => (x === null || x === undefined ? null : x.toString());
  await db.execute(sql`
    with p as (
      insert into payments (id, reference, merchant_id, chain_id, token_address, token_decimals, receiving_address,
        amount_usd_cents, price_e18, price_source, price_at, base_amount, tag, amount_due, tolerance_bps,
        description, order_id, success_url, payer_email, expires_at, monitor_until, created_at, updated_at)
      values (${v.id}, ${v.reference}, ${v.merchantId}, ${v.chainId}, ${v.tokenAddress}, ${v.tokenDecimals},
        ${v.receivingAddress}, ${n(v.amountUsdCents)}, ${n(v.priceE18)}, ${v.priceSource ?? null}, ${v.priceAt ?? null},
        ${n(v.baseAmount)}, ${v.tag}, ${n(v.amountDue)}, ${v.toleranceBps}, ${v.description ?? null},
        ${v.orderId ?? null}, ${v.successUrl ?? null}, ${v.payerEmail ?? null}, ${v.expiresAt}, ${v.monitorUntil},
        ${v.createdAt}, ${v.createdAt})
      returning id, merchant_id
    ), t as (
      insert into payment_timeline (id, payment_id, from_status, to_status, cause, created_at)
      select ${createId("ptl")}, p.id, null, 'pending', 'created', ${v.createdAt} from p
    )
    insert into payment_events (id, payment_id, merchant_id, type)
    select ${createId("evt")}, p.id, p.merchant_id, 'payment.created' from p`);
  return {
    amountUsdCents: null,
    priceE18: null,
    priceSource: null,
    priceAt: null,
    description: null,
    orderId: null,
    successUrl: null,
    payerEmail: null,
    regeneratedFromId: null,
    ...v,
    amountReceived: 0n,
    amountSeen: 0n,
    overpaid: false,
    status: "pending",
    live: true,
    completedAt: null,
    regeneratedToId: null,
    updatedAt: v.createdAt,
  } as PaymentRow;
}
