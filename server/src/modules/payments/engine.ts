import type { PaymentStatus } from "@common/payments.ts";
import { and, eq, gt, isNotNull, isNull, sql } from "drizzle-orm";
import { type DbOrTx, rowsOf } from "../../db/client.ts";
import { chainTransfers, paymentAmounts, payments } from "../../db/schema.ts";
import { MAX_TAG, tagUnit, toleranceOf } from "./amounts.ts";
import * as repo from "./repository.ts";
import { coverTime, isLive, nextStatus, OPEN_STATUSES, type Sums } from "./state.ts";

export type EvaluationContext = {
  /** The chain head the confirmations are counted against. */
  head: bigint;
  confirmations: number;
  now: Date;
  /**
   * The chain's time: the newest block the indexer processed (PAYMENTS.md, States). An uncovered payment expires
   * only once it is past `expiresAt`; null (unknown) never expires anything.
   */
  chainTime: Date | null;
  /** Why this evaluation happens, for the timeline ("transfer 0xabc:1 in block 12", "reorg at block 40"...). */
  cause: string;
  transferId?: string | null;
  blockNumber?: bigint | null;
  /** The USD rate now, read when a payment asked in CPXTB (no locked price) becomes paid; null if unavailable. */
  completionPrice?: () => Promise<{ priceE18: bigint; at: Date } | null>;
};

/** The payment's credited, still-existing transfers. */
async function liveCredits(db: DbOrTx, paymentId: string) {
  return db
    .select({
      value: chainTransfers.value,
      blockNumber: chainTransfers.blockNumber,
      logIndex: chainTransfers.logIndex,
      blockTime: chainTransfers.blockTime,
    })
    .from(chainTransfers)
    .where(and(eq(chainTransfers.paymentId, paymentId), isNull(chainTransfers.orphanedAt)));
}

/** Sums of the credits: all of them, and those with enough confirmations. */
function creditSums(
  credits: { value: bigint; blockNumber: bigint }[],
  head: bigint,
  confirmations: number,
): Sums {
  const confirmedBelow = head - BigInt(confirmations) + 1n;
  let seen = 0n;
  let confirmed = 0n;
  for (const c of credits) {
    seen += c.value;
    if (c.blockNumber <= confirmedBelow) confirmed += c.value;
  }
  return { seen, confirmed };
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
  const credits = await liveCredits(db, paymentId);
  const sums = creditSums(credits, ctx.head, ctx.confirmations);
  const tolerance = toleranceOf(payment.amountDue, payment.toleranceBps);
  const coveredAt = coverTime(credits, payment.amountDue - tolerance);
  const current = payment.status;
  const next = nextStatus({
    current,
    sums,
    due: payment.amountDue,
    tolerance,
    expiresAt: payment.expiresAt,
    coveredAt,
    chainTime: ctx.chainTime,
  });
  const live = payment.live && isLive(next, ctx.now, payment.monitorUntil);
  const requested = await reserveRequested(db, payment, {
    next,
    live,
    confirmed: sums.confirmed,
    now: ctx.now,
  });
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
    requested !== payment.amountRequested ||
    sums.confirmed !== payment.amountReceived ||
    sums.seen !== payment.amountSeen ||
    overpaid !== payment.overpaid;
  if (!changed) return current;
  await db
    .update(payments)
    .set({
      status: next,
      live,
      amountRequested: requested,
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
  // Paid after its expiry, before the expiry job saw it: the timeline still shows it expired first, on chain.
  const steps: { from: PaymentStatus; to: PaymentStatus; cause: string }[] =
    next === "paid_late" && OPEN_STATUSES.includes(current)
      ? [
          {
            from: current,
            to: "expired",
            cause: `expired at ${payment.expiresAt.toISOString()}: covered by a block of ${coveredAt?.toISOString()}`,
          },
          { from: "expired", to: next, cause: ctx.cause },
        ]
      : next !== current
        ? [{ from: current, to: next, cause: ctx.cause }]
        : [];
  for (const step of steps) {
    await repo.insertTimeline(db, {
      paymentId,
      fromStatus: step.from,
      toStatus: step.to,
      cause: step.cause,
      transferId: ctx.transferId ?? null,
      blockNumber: ctx.blockNumber ?? null,
      createdAt: ctx.now,
    });
    await repo.insertEvent(db, {
      paymentId,
      merchantId: payment.merchantId,
      type: `payment.${step.to}`,
    });
  }
  if (
    steps.length === 0 &&
    (sums.seen !== payment.amountSeen ||
      sums.confirmed !== payment.amountReceived ||
      requested !== payment.amountRequested)
  ) {
    await repo.insertEvent(db, { paymentId, merchantId: payment.merchantId, type: "payment.updated" });
  }
  return next;
}

/** Tries of a free remaining amount: the exact rest, then one micro-token more each time. */
const REMAINDER_TRIES = MAX_TAG;

/**
 * What the payer is asked to send now, with its reservation (PAYMENTS.md, Matching 2): a payment that stops being
 * live releases every amount; a partial payment (or one that expired partly paid, inside its window) reserves its
 * remaining amount, rounded up to a micro-token and, when another live amount holds it, one micro-token more each
 * try, in the same unique index as every live amount. The reservation is kept while the rest stays the same.
 */
async function reserveRequested(
  db: DbOrTx,
  payment: repo.PaymentRow,
  state: { next: PaymentStatus; live: boolean; confirmed: bigint; now: Date },
): Promise<bigint> {
  if (payment.live && !state.live) {
    await db.delete(paymentAmounts).where(eq(paymentAmounts.paymentId, payment.id));
  }
  const left = payment.amountDue - state.confirmed;
  const owesRest =
    state.live && (state.next === "partial" || state.next === "expired") && state.confirmed > 0n && left > 0n;
  if (!owesRest) {
    if (payment.live && state.live && payment.amountRequested !== payment.amountDue) {
      await db
        .delete(paymentAmounts)
        .where(and(eq(paymentAmounts.paymentId, payment.id), eq(paymentAmounts.kind, "remainder")));
    }
    return state.next === "completed" || state.next === "paid_late" || state.next === "invalid" || left < 0n
      ? 0n
      : left;
  }
  const unit = tagUnit(payment.tokenDecimals);
  const first = ((left + unit - 1n) / unit) * unit;
  const last = first + BigInt(REMAINDER_TRIES - 1) * unit;
  const [held] = await db
    .select({ amount: paymentAmounts.amount })
    .from(paymentAmounts)
    .where(and(eq(paymentAmounts.paymentId, payment.id), eq(paymentAmounts.kind, "remainder")));
  if (held && held.amount >= first && held.amount <= last) return held.amount;
  if (held) {
    await db
      .delete(paymentAmounts)
      .where(and(eq(paymentAmounts.paymentId, payment.id), eq(paymentAmounts.kind, "remainder")));
  }
  const key = sql`${payment.chainId}::int, ${payment.tokenAddress}::text, ${payment.receivingAddress}::text`;
  for (let attempt = 0; attempt < 3; attempt++) {
    // The first amount no live payment holds (one index probe per try), inserted by the same statement; a
    // concurrent insert of that amount makes `on conflict` skip it, and the next attempt sees it taken.
    const result = await db.execute(sql`
      insert into payment_amounts (chain_id, token_address, receiving_address, amount, payment_id, kind, created_at)
      select ${key}, c.amount, ${payment.id}::text, 'remainder', ${state.now.toISOString()}::timestamptz
      from (
        select ${first.toString()}::numeric + k * ${unit.toString()}::numeric as amount
        from generate_series(0, ${REMAINDER_TRIES - 1}) as s(k)
      ) as c
      where not (select exists (
        select 1 from payment_amounts a
        where a.chain_id = ${payment.chainId} and a.token_address = ${payment.tokenAddress}
          and a.receiving_address = ${payment.receivingAddress} and a.amount = c.amount))
      limit 1
      on conflict do nothing
      returning amount`);
    const [row] = rowsOf<{ amount: string }>(result);
    if (row) return BigInt(row.amount);
  }
  // Every nearby amount is live elsewhere: the rest is asked for without a reservation (the fast path credits it).
  return first;
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
