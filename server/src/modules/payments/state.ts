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
 * the same answer, so re-evaluating a payment after any event (new log, confirmation, reorg, clock) is safe.
 */
export function nextStatus(input: {
  current: PaymentStatus;
  sums: Sums;
  due: bigint;
  tolerance: bigint;
  pastExpiry: boolean;
  /** For a payment coming back from `invalid`: it had been paid after its expiry. */
  wasPaidLate: boolean;
}): PaymentStatus {
  const { current, sums, due, tolerance, pastExpiry } = input;
  const threshold = due - tolerance;
  const covered = sums.confirmed >= threshold;
  const seenCovered = sums.seen >= threshold;
  switch (current) {
    case "pending":
    case "processing":
    case "partial":
      if (covered) return "completed";
      if (seenCovered) return "processing";
      if (pastExpiry) return "expired";
      return sums.confirmed > 0n ? "partial" : "pending";
    case "expired":
      return covered ? "paid_late" : "expired";
    case "completed":
    case "paid_late":
      // Its crediting transfer(s) vanished below the threshold: a reorg deeper than the confirmations.
      return covered ? current : "invalid";
    case "invalid":
      // The same log mined again (re-credited once, by its unique key).
      if (!covered) return "invalid";
      return input.wasPaidLate ? "paid_late" : "completed";
  }
}

export function isLive(status: PaymentStatus, now: Date, monitorUntil: Date): boolean {
  if (OPEN_STATUSES.includes(status)) return true;
  return status === "expired" && now < monitorUntil;
}
