// The refund contract's plain values, apart from its zod schemas (refunds.ts re-exports them); see
// payment-values.ts.

/**
 * Refunds are a summary beside a payment's status, never a status (decision 018): what the chain paid stays what
 * the engine computes, and a refund is a separate, verified transfer back.
 */
export const REFUND_STATUSES = ["none", "partially_refunded", "refunded"] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

/** The payment statuses whose received tokens a merchant may send back (expired: after a partial payment). */
export const REFUNDABLE_PAYMENT_STATUSES = ["completed", "paid_late", "partial", "expired"] as const;

/** How long a refund link stays open for the payer. */
export const REFUND_LINK_DAYS = 14;

export const REFUND_LINK_STATES = ["waiting", "submitted", "expired"] as const;
