import type { PaymentStatus, PublicPayment } from "@common/payments.ts";
import { and, desc, eq, getTableColumns, gte, inArray, isNull, lt, lte, type SQL, sql } from "drizzle-orm";
import { type DbOrTx, rowsOf } from "../../db/client.ts";
import {
  chainTransfers,
  indexerBlocks,
  merchants,
  paymentAmounts,
  paymentEvents,
  paymentSearchText,
  payments,
  paymentTimeline,
} from "../../db/schema.ts";
import { createId } from "../../lib/ids.ts";
import { type MerchantScope, merchantIdOf } from "../merchants/repository.ts";
import { MATCHABLE_STATUSES } from "./state.ts";

export type PaymentRow = typeof payments.$inferSelect;

/** What the pay page may show of a merchant: name, logo, website and the page's appearance. */
export const publicMerchantColumns = {
  name: merchants.name,
  logoUrl: merchants.logoUrl,
  website: merchants.website,
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
    q?: string;
    /** Created at or after `from` and before `to`. */
    from?: Date;
    to?: Date;
    cursor?: string;
    limit: number;
  },
): Promise<PaymentRow[]> {
  const search = filter.q ? searchCondition(filter.q) : undefined;
  const rows = await db
    .select({ payment: payments })
    .from(payments)
    .where(
      and(
        eq(payments.merchantId, merchantIdOf(scope)),
        filter.status ? eq(payments.status, filter.status) : undefined,
        filter.orderId ? eq(payments.orderId, filter.orderId) : undefined,
        search,
        filter.from ? gte(payments.createdAt, filter.from) : undefined,
        filter.to ? lt(payments.createdAt, filter.to) : undefined,
        filter.cursor ? lt(payments.id, filter.cursor) : undefined,
      ),
    )
    .orderBy(desc(payments.id))
    .limit(filter.limit + 1);
  return rows.map((r) => r.payment);
}

/**
 * The history search: `q` is a literal, case-insensitive substring of the description, the order id or the
 * reference (LIKE's wildcards in it are escaped), tested once per row on the joined text the trigram index holds.
 * From 3 characters on, PostgreSQL finds a rare term's few rows through that index, while a common one is found by
 * walking the merchant's newest rows; shorter terms are tested on the merchant's rows.
 */
function searchCondition(q: string): SQL {
  const pattern = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql`(${paymentSearchText(payments)}) ilike ${pattern}`;
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
      ),
    )
    .orderBy(desc(chainTransfers.blockNumber))
    .limit(200);
  return rows.map((r) => r.transfer);
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
 * Marks up to `limit` unpublished events as published and returns them (each to exactly one publisher), with
 * their payment's reference so listeners can tell whether anyone waits for it before reading anything else.
 */
export async function claimUnpublishedEvents(db: DbOrTx, limit: number) {
  const result = await db.execute(sql`
    with claimed as (
      update payment_events set published_at = now()
      where seq in (select seq from payment_events where published_at is null order by seq limit ${limit}
                    for update skip locked)
      returning id, payment_id, merchant_id, type, seq
    )
    select c.id, c.payment_id as "paymentId", c.merchant_id as "merchantId", c.type, c.seq, p.reference
    from claimed c left join payments p on p.id = c.payment_id`);
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
