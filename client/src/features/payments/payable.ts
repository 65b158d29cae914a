import type { PaymentStatus } from "@common/payment-values";

/**
 * Whether a payment's QR code and link may be shown as something to pay now (issue 35): waiting for its first
 * transfer, or partly paid (its QR asks for the rest), and not past its expiry by this device's clock. A paid,
 * confirming, expired, cancelled or invalid payment is never offered to a payer's wallet again.
 */
export function isPayable(payment: { status: PaymentStatus; expiresAt: string }, now: number): boolean {
  if (payment.status !== "pending" && payment.status !== "partial") return false;
  return Date.parse(payment.expiresAt) > now;
}

/** What a counter or the dashboard says of a payment that is no longer payable, in plain words. */
export function closedMessage(payment: { status: PaymentStatus; expiresAt: string }, now: number): string {
  switch (payment.status) {
    case "completed":
      return "Paid.";
    case "paid_late":
      return "Paid, after it had expired.";
    case "processing":
      return "Payment received, being confirmed. Do not let it be paid again.";
    case "partial":
    case "pending":
      return Date.parse(payment.expiresAt) <= now
        ? "Expired: its time ran out. Create a new payment."
        : "Open.";
    case "expired":
      return "Expired: its time ran out. Create a new payment.";
    case "cancelled":
      return "Cancelled: it can no longer be paid.";
    case "invalid":
      return "Invalid: the transfer that paid it left the chain.";
  }
}
