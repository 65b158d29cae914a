// One vocabulary for what became of a payment (issue 36): the words the app shows, the CSV's `status_name`
// column and the emails all come from here, so a person reads the same name everywhere (in another language, the
// catalogs' `pay.status.*`, which the pages and the report PDF show, translate these names). Plain
// values only (no zod): the dashboard's first render imports it.
import type { PaymentStatus } from "./payment-values.ts";
import type { RefundStatus } from "./refund-values.ts";

/** The name of each payment status, as a person reads it (the machine code stays in the API and the CSV). */
export const PAYMENT_STATUS_NAMES: Readonly<Record<PaymentStatus, string>> = {
  pending: "Awaiting payment",
  processing: "Confirming",
  partial: "Partly paid",
  completed: "Paid",
  expired: "Expired",
  paid_late: "Paid late",
  invalid: "Invalid",
  cancelled: "Cancelled",
};

/** One sentence for each status, for an email or a report that explains it. */
export const PAYMENT_STATUS_DESCRIPTIONS: Readonly<Record<PaymentStatus, string>> = {
  pending: "Waiting for the payer's transfer.",
  processing: "A transfer arrived and is waiting for its confirmations.",
  partial: "Less than the amount due arrived; the payer can still send the rest.",
  completed: "The full amount arrived before the payment expired.",
  expired: "The payment expired before the full amount arrived.",
  paid_late: "The full amount arrived after the payment expired.",
  invalid: "The transfer that paid it was undone on the chain.",
  cancelled: "The merchant cancelled it before anything arrived.",
};

/** Refunds are beside the status (decision 018); their names, where one is shown. */
export const REFUND_STATUS_NAMES: Readonly<Record<RefundStatus, string>> = {
  none: "Not refunded",
  partially_refunded: "Partly refunded",
  refunded: "Refunded",
};

/** The name of a status code; an unknown code (a newer server) is shown as it is rather than hidden. */
export function paymentStatusName(status: string): string {
  return (PAYMENT_STATUS_NAMES as Record<string, string>)[status] ?? status;
}
