import { and, asc, eq, gt, isNotNull, isNull, sql } from "drizzle-orm";
import { getAddress } from "viem";
import type { DbOrTx } from "../../db/client.ts";
import { chainTransfers, merchants, payments, refundRequests, refunds } from "../../db/schema.ts";
import { type MerchantScope, merchantIdOf } from "../merchants/repository.ts";
import type { PaymentRow } from "./repository.ts";

export type RefundRow = typeof refunds.$inferSelect;
export type RefundLinkRow = typeof refundRequests.$inferSelect;

export async function listRefundsOfPayment(db: DbOrTx, paymentId: string): Promise<RefundRow[]> {
  return db
    .select()
    .from(refunds)
    .where(eq(refunds.paymentId, paymentId))
    .orderBy(asc(refunds.createdAt), asc(refunds.id));
}

export async function listRefundLinksOfPayment(db: DbOrTx, paymentId: string): Promise<RefundLinkRow[]> {
  return db
    .select()
    .from(refundRequests)
    .where(eq(refundRequests.paymentId, paymentId))
    .orderBy(asc(refundRequests.createdAt), asc(refundRequests.id));
}

/** The addresses that paid this payment: the `from` of its credited transfers still on chain. */
export async function listPayerAddresses(db: DbOrTx, paymentId: string): Promise<string[]> {
  const rows = await db
    .select({ from: chainTransfers.fromAddress })
    .from(chainTransfers)
    .where(and(eq(chainTransfers.paymentId, paymentId), isNull(chainTransfers.orphanedAt)))
    .orderBy(asc(chainTransfers.blockNumber), asc(chainTransfers.logIndex));
  return [...new Set(rows.map((r) => r.from))];
}

/**
 * The payment of the scope's business, row-locked until the transaction ends: membership and role are part of
 * the query, and a second refund of the same payment waits here until the first one committed or rolled back.
 */
export async function lockPaymentOfOwner(
  tx: DbOrTx,
  scope: MerchantScope,
  paymentId: string,
): Promise<PaymentRow | undefined> {
  const [row] = await tx
    .select({ payment: payments })
    .from(payments)
    .where(and(eq(payments.id, paymentId), eq(payments.merchantId, merchantIdOf(scope))))
    .for("update", { of: payments });
  return row?.payment;
}

/** Inserts the refund unless its transaction is already recorded (unique (chain, tx hash)): false then. */
export async function insertRefund(tx: DbOrTx, values: typeof refunds.$inferInsert): Promise<boolean> {
  const rows = await tx
    .insert(refunds)
    .values(values)
    .onConflictDoNothing({ target: [refunds.chainId, refunds.txHash] })
    .returning({ id: refunds.id });
  return rows.length > 0;
}

/**
 * Adds `amount` to the payment's refunded sum only while it stays within what was received: one conditional
 * statement, so of two refunds against the same remaining amount at most one succeeds (the second re-reads the
 * row after the first commits and no longer matches). Returns the updated row, or undefined when it would exceed.
 */
export async function addRefundedAmount(
  tx: DbOrTx,
  paymentId: string,
  amount: bigint,
  now: Date,
): Promise<PaymentRow | undefined> {
  const [row] = await tx
    .update(payments)
    .set({ amountRefunded: sql`${payments.amountRefunded} + ${amount.toString()}::numeric`, updatedAt: now })
    .where(
      and(
        eq(payments.id, paymentId),
        sql`${payments.amountReceived} - ${payments.amountRefunded} >= ${amount.toString()}::numeric`,
      ),
    )
    .returning();
  return row;
}

/** Whether a transfer of this transaction is credited to a payment (a payment is never a refund). */
export async function isTxCreditedToPayment(db: DbOrTx, chainId: number, txHash: string): Promise<boolean> {
  const rows = await db
    .select({ id: chainTransfers.id })
    .from(chainTransfers)
    .where(
      and(
        eq(chainTransfers.chainId, chainId),
        eq(chainTransfers.txHash, txHash.toLowerCase()),
        isNotNull(chainTransfers.paymentId),
      ),
    )
    .limit(1);
  return rows.length > 0;
}

export async function insertRefundLink(tx: DbOrTx, values: typeof refundRequests.$inferInsert) {
  const [row] = await tx.insert(refundRequests).values(values).returning();
  return row!;
}

/** A refund link by its token's hash, with what the payer's page shows of its payment and merchant. */
export async function findRefundLinkByTokenHash(db: DbOrTx, tokenHash: string) {
  const [row] = await db
    .select({
      link: refundRequests,
      payment: payments,
      merchant: { name: merchants.name, logoUrl: merchants.logoUrl },
    })
    .from(refundRequests)
    .innerJoin(payments, eq(payments.id, refundRequests.paymentId))
    .innerJoin(merchants, eq(merchants.id, payments.merchantId))
    .where(eq(refundRequests.tokenHash, tokenHash));
  return row;
}

/** Sets the payer's address once: only while the link is unused and not expired (single use, in one statement). */
export async function submitRefundLinkAddress(
  tx: DbOrTx,
  tokenHash: string,
  address: string,
  now: Date,
): Promise<RefundLinkRow | undefined> {
  const [row] = await tx
    .update(refundRequests)
    .set({ address, submittedAt: now })
    .where(
      and(
        eq(refundRequests.tokenHash, tokenHash),
        isNull(refundRequests.submittedAt),
        gt(refundRequests.expiresAt, now),
      ),
    )
    .returning();
  return row;
}

/** The addresses a refund of this payment may go to: those that paid it, and those its payer gave. */
export async function refundAddressesOf(db: DbOrTx, paymentId: string) {
  const [payers, links] = await Promise.all([
    listPayerAddresses(db, paymentId),
    listRefundLinksOfPayment(db, paymentId),
  ]);
  const seen = new Set<string>();
  const out: { address: string; source: "payer" | "refund_link" }[] = [];
  for (const address of payers) {
    const a = getAddress(address);
    if (seen.has(a)) continue;
    seen.add(a);
    out.push({ address: a, source: "payer" });
  }
  for (const link of links) {
    if (!link.address) continue;
    const a = getAddress(link.address);
    if (seen.has(a)) continue;
    seen.add(a);
    out.push({ address: a, source: "refund_link" });
  }
  return out;
}
