import type { PaymentStatus } from "@common/payments.ts";

export type Sums = {
  /** Credited transfers that still exist on chain. */
  seen: bigint;
  /** Those among them with enough confirmations. */
  confirmed: bigint;
};

/** Statuses whose amount stays reserved: a transfer of that amount still credits the payment. */
export const OPEN_STATUSES: PaymentStatus[] = ["pending", "processing", "partial"];
export const MATCHABLE_STATUSES: PaymentStatus[] = [...OPEN_STATUSES, "expired"];

/**
 * The next status of a payment from what the chain says now (PAYMENTS.md, States). Pure: the same inputs give
 * the same answer, so re-evaluating a payment after any event (new log, confirmation, reorg, expiry job) is safe.
 *
 * On time or late is decided by the chain, never by the wall clock: a payment is paid on time when the block time
 * of the transfer that completed its cover (`coveredAt`) is at or before `expiresAt`, whenever that block is
 * indexed; an uncovered payment expires only once the chain's time is past `expiresAt`.
 */
export function nextStatus(input: {
  current: PaymentStatus;
  sums: Sums;
  due: bigint;
  tolerance: bigint;
  expiresAt: Date;
  /** Block time of the credited transfer that brought the (seen) sum to the threshold; null while uncovered. */
  coveredAt: Date | null;
  /** The chain's time as the indexer knows it (its newest processed block); null when unknown. */
  chainTime: Date | null;
}): PaymentStatus {
  const { current, sums, due, tolerance, expiresAt, coveredAt, chainTime } = input;
  const threshold = due - tolerance;
  const covered = sums.confirmed >= threshold;
  const seenCovered = sums.seen >= threshold && coveredAt !== null;
  const onTime = coveredAt !== null && coveredAt.getTime() <= expiresAt.getTime();
  const pastExpiry = chainTime !== null && chainTime.getTime() > expiresAt.getTime();
  switch (current) {
    case "pending":
    case "processing":
    case "partial":
      // Covered by a block after the expiry: the payment had expired on chain before it was paid.
      if (seenCovered && !onTime) return covered ? "paid_late" : "expired";
      if (covered) return "completed";
      if (seenCovered) return "processing";
      if (pastExpiry) return "expired";
      return sums.confirmed > 0n ? "partial" : "pending";
    case "expired":
      // A cover mined in time but credited after the expiry job ran (fast path, assignment) is on time.
      if (!covered) return "expired";
      return onTime ? "completed" : "paid_late";
    case "completed":
    case "paid_late":
      // Its crediting transfer(s) vanished below the threshold: a reorg deeper than the confirmations.
      return covered ? current : "invalid";
    case "cancelled":
      // Final (decision 033): a transfer for it is never credited to it; it goes to the merchant's inbox.
      return "cancelled";
    case "invalid":
      // The same log mined again (re-credited once, by its unique key).
      if (!covered) return "invalid";
      return onTime ? "completed" : "paid_late";
  }
}

/**
 * The block time of the transfer that completed the cover: transfers in chain order (block, log index), the first
 * at which the running sum reaches `threshold`. Confirmed transfers are a prefix of that order, so the same
 * transfer completes the confirmed cover.
 */
export function coverTime(
  transfers: { value: bigint; blockNumber: bigint; logIndex: number; blockTime: Date | null }[],
  threshold: bigint,
): Date | null {
  const ordered = [...transfers].sort((a, b) =>
    a.blockNumber === b.blockNumber ? a.logIndex - b.logIndex : a.blockNumber < b.blockNumber ? -1 : 1,
  );
  let sum = 0n;
  for (const t of ordered) {
    sum += t.value;
    // A row without a block time (never written so today) counts as late: never called on time without proof.
    if (sum >= threshold) return t.blockTime ?? new Date(8.64e15);
  }
  return null;
}

export function isLive(status: PaymentStatus, now: Date, monitorUntil: Date): boolean {
  if (OPEN_STATUSES.includes(status)) return true;
  // A cancelled payment keeps its amount reserved through the window too (decision 033): no new payment takes that
  // amount while a late transfer for the cancelled one may still come, so such a transfer lands in the inbox.
  return (status === "expired" || status === "cancelled") && now < monitorUntil;
}
