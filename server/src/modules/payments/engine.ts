import type { PaymentStatus } from "@common/payments.ts";
import { and, eq, gt, isNotNull, isNull, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.ts";
import { chainTransfers, payments } from "../../db/schema.ts";
import { toleranceOf } from "./amounts.ts";
import * as repo from "./repository.ts";
import { isLive, nextStatus } from "./state.ts";

export type EvaluationContext = {
  /** The chain head the confirmations are counted against. */
  head: bigint;
  confirmations: number;
  now: Date;
  /** Why this evaluation happens, for the timeline ("transfer 0xabc:1 in block 12", "reorg at block 40"...). */
  cause: string;
  transferId?: string | null;
  blockNumber?: bigint | null;
  /** The USD rate now, read when a payment asked in CPXTB (no locked price) becomes paid; null if unavailable. */
  completionPrice?: () => Promise<{ priceE18: bigint; at: Date } | null>;
};

/** Sums of the payment's credited, still-existing transfers: all of them, and the confirmed ones. */
async function creditSums(db: DbOrTx, paymentId: string, head: bigint, confirmations: number) {
  const confirmedBelow = head - BigInt(confirmations) + 1n;
  const [row] = await db
    .select({
      seen: sql<string>`coalesce(sum(${chainTransfers.value}), 0)`,
      confirmed: sql<string>`coalesce(sum(${chainTransfers.value}) filter (where ${chainTransfers.blockNumber} <= ${confirmedBelow.toString()}), 0)`,
    })
    .from(chainTransfers)
    .where(and(eq(chainTransfers.paymentId, paymentId), isNull(chainTransfers.orphanedAt)));
  return { seen: BigInt(row?.seen ?? 0), confirmed: BigInt(row?.confirmed ?? 0) };
}

/**
 * Recomputes a payment from its credits and writes the result; a status change goes to the timeline with its
 * cause and to the outbox, in the caller's transaction. Idempotent: nothing changes, nothing is written.
 */
export async function evaluatePayment(
  db: DbOrTx,
  paymentId: string,
  ctx: EvaluationContext,
): Promise<PaymentStatus | null> {
  const payment = await repo.findPaymentForUpdate(db, paymentId);
  if (!payment) return null;
  const sums = await creditSums(db, paymentId, ctx.head, ctx.confirmations);
  const current = payment.status;
  const next = nextStatus({
    current,
    sums,
    due: payment.amountDue,
    tolerance: toleranceOf(payment.amountDue, payment.toleranceBps),
    pastExpiry: ctx.now >= payment.expiresAt,
    wasPaidLate: payment.completedAt !== null && payment.completedAt > payment.expiresAt,
  });
  const live = payment.live && isLive(next, ctx.now, payment.monitorUntil);
  const overpaid = sums.confirmed > payment.amountDue;
  const paid = next === "completed" || next === "paid_late";
  // Kept through `invalid`, so a payment whose log comes back is restored to what it was.
  const completedAt = paid && !payment.completedAt ? ctx.now : payment.completedAt;
  // Reports value a CPXTB-asked payment at the rate of its completion (decision 011).
  const completedPrice =
    paid && !payment.completedAt && payment.priceE18 === null && ctx.completionPrice
      ? await ctx.completionPrice()
      : null;
  const changed =
    next !== current ||
    live !== payment.live ||
    sums.confirmed !== payment.amountReceived ||
    sums.seen !== payment.amountSeen ||
    overpaid !== payment.overpaid;
  if (!changed) return current;
  await db
    .update(payments)
    .set({
      status: next,
      live,
      amountReceived: sums.confirmed,
      amountSeen: sums.seen,
      overpaid,
      completedAt,
      ...(completedPrice
        ? { completedPriceE18: completedPrice.priceE18, completedPriceAt: completedPrice.at }
        : {}),
      updatedAt: ctx.now,
    })
    .where(eq(payments.id, paymentId));
  if (next !== current) {
    await repo.insertTimeline(db, {
      paymentId,
      fromStatus: current,
      toStatus: next,
      cause: ctx.cause,
      transferId: ctx.transferId ?? null,
      blockNumber: ctx.blockNumber ?? null,
      createdAt: ctx.now,
    });
  }
  if (next !== current || sums.seen !== payment.amountSeen || sums.confirmed !== payment.amountReceived) {
    await repo.insertEvent(db, {
      paymentId,
      merchantId: payment.merchantId,
      type: next !== current ? `payment.${next}` : "payment.updated",
    });
  }
  return next;
}

/** Payments whose credits may have changed confirmation state since `fromBlock` (or are awaiting them). */
export async function findPaymentsAwaitingConfirmations(
  db: DbOrTx,
  key: { chainId: number; tokenAddress: string },
  fromBlock: bigint,
): Promise<string[]> {
  const recent = await db
    .select({ id: chainTransfers.paymentId })
    .from(chainTransfers)
    .where(
      and(
        eq(chainTransfers.chainId, key.chainId),
        eq(chainTransfers.tokenAddress, key.tokenAddress),
        isNotNull(chainTransfers.paymentId),
        isNull(chainTransfers.orphanedAt),
        gt(chainTransfers.blockNumber, fromBlock),
      ),
    );
  const processing = await db
    .select({ id: payments.id })
    .from(payments)
    .where(eq(payments.status, "processing"));
  return [...new Set([...recent.map((r) => r.id!), ...processing.map((r) => r.id)])];
}

/** Orphans the transfers above `block` (a reorg took them) and returns the payments they credited. */
export async function orphanTransfersAbove(
  db: DbOrTx,
  key: { chainId: number; tokenAddress: string },
  block: bigint,
  now: Date,
): Promise<string[]> {
  const rows = await db
    .update(chainTransfers)
    .set({ orphanedAt: now })
    .where(
      and(
        eq(chainTransfers.chainId, key.chainId),
        eq(chainTransfers.tokenAddress, key.tokenAddress),
        gt(chainTransfers.blockNumber, block),
        isNull(chainTransfers.orphanedAt),
      ),
    )
    .returning({ paymentId: chainTransfers.paymentId });
  return [...new Set(rows.map((r) => r.paymentId).filter((id): id is string => id !== null))];
}

/** Orphans stored transfers of blocks [from, to] that the chain no longer has (`present` = "tx:logIndex" keys). */
export async function orphanMissingInRange(
  db: DbOrTx,
  key: { chainId: number; tokenAddress: string },
  from: bigint,
  to: bigint,
  present: Set<string>,
  now: Date,
): Promise<string[]> {
  const stored = await db
    .select({
      id: chainTransfers.id,
      txHash: chainTransfers.txHash,
      logIndex: chainTransfers.logIndex,
      paymentId: chainTransfers.paymentId,
    })
    .from(chainTransfers)
    .where(
      and(
        eq(chainTransfers.chainId, key.chainId),
        eq(chainTransfers.tokenAddress, key.tokenAddress),
        sql`${chainTransfers.blockNumber} between ${from.toString()} and ${to.toString()}`,
        isNull(chainTransfers.orphanedAt),
      ),
    );
  const missing = stored.filter((r) => !present.has(`${r.txHash}:${r.logIndex}`));
  const affected: string[] = [];
  for (const row of missing) {
    await db.update(chainTransfers).set({ orphanedAt: now }).where(eq(chainTransfers.id, row.id));
    if (row.paymentId) affected.push(row.paymentId);
  }
  return affected;
}
