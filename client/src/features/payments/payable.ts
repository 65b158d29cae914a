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
