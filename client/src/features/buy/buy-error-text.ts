import type { BuyConfig, BuyOrder } from "@common/buy";
import { formatDecimal, numberShape } from "@common/locale-format";
import type { Locale } from "@common/locales";
import { apiErrorText, detailOf, errorBodyOf } from "@/features/payments/pay-error-text";
import { walletFailureText } from "@/features/payments/transfer-error-text";
import { currentLocale, t } from "@/i18n/i18n";
import { isolate } from "@/i18n/ltr";
import { isApiError } from "@/lib/api-error";
import { dollars } from "./format";

type Details = Record<string, unknown> | undefined;
type Values = Record<string, string>;

/** A value of `details`, isolated left to right (an address, a code, an amount inside right-to-left text). */
const ltr = (details: Details, key: string, locale: Locale) => {
  const value = detailOf(details, key);
  return value === undefined ? undefined : isolate(value, locale);
};

/** Whether the server listed the ETH for refund (a boolean in `details`), as a select's case. */
const refund = (details: Details): Values => ({ refund: details?.refund === true ? "yes" : "no" });

/** Values a message needs, or undefined when one is missing (the server's sentence is shown then). */
const needs = (values: Record<string, string | undefined>): Values | undefined =>
  Object.values(values).every((value) => value !== undefined) ? (values as Values) : undefined;

type Refusal = { id: string; values?: (details: Details, locale: Locale) => Values | undefined };

/**
 * Every refusal a buyer can meet on the buy screens (server/src/modules/buy), by its `details.reason`: the
 * message that says it and the values it takes from `details`. The English messages are the server's sentences.
 */
const REFUSALS: Readonly<Record<string, Refusal>> = {
  below_minimum: {
    id: "buy.error.belowMinimum",
    values: (d, locale) => needs({ amount: usd(detailOf(d, "minUsd"), locale) }),
  },
  above_maximum: {
    id: "buy.error.aboveMaximum",
    values: (d, locale) => needs({ amount: usd(detailOf(d, "maxUsd"), locale) }),
  },
  amount_too_small: { id: "buy.refusal.amountTooSmall" },
  sign_in_for_managed_wallet: { id: "buy.refusal.signInForManagedWallet" },
  no_managed_wallet: { id: "buy.refusal.noManagedWallet" },
  wallet_proof_required: { id: "buy.refusal.walletProofRequired" },
  signature_request_invalid: { id: "buy.refusal.signatureRequestInvalid" },
  signature_other_wallet: { id: "buy.refusal.signatureOtherWallet" },
  signature_invalid: { id: "buy.refusal.signatureInvalid" },
  order_not_found: { id: "buy.refusal.orderNotFound" },
  tx_not_found: { id: "buy.refusal.txNotFound" },
  tx_wrong_recipient: { id: "buy.refusal.txWrongRecipient" },
  tx_not_mined: { id: "buy.refusal.txNotMined" },
  tx_failed: { id: "buy.refusal.txFailed" },
  tx_no_eth: { id: "buy.refusal.txNoEth" },
  tx_paid_other_order: { id: "buy.refusal.txPaidOtherOrder" },
  tx_other_sender: {
    id: "buy.refusal.txOtherSender",
    values: (d, locale) => {
      const addresses = needs({ from: ltr(d, "from", locale), wallet: ltr(d, "wallet", locale) });
      return addresses && { ...addresses, ...refund(d) };
    },
  },
  order_already_paid: { id: "buy.refusal.orderAlreadyPaid", values: refund },
  tx_does_not_fit: { id: "buy.refusal.txDoesNotFit", values: refund },
  paypal_unavailable: { id: "buy.refusal.paypalUnavailable" },
  // Buying is unavailable here (a 503 while the buy page was open; /api/buy/config says it first).
  no_chain: { id: "buy.unavailable.noChain" },
  no_treasury: { id: "buy.unavailable.noTreasury" },
  no_eth_price: { id: "buy.unavailable.noEthPrice" },
  // The price's own failures (price_stale, price_unreachable…) are the shared reading's (`apiErrorText`).
  paypal_no_answer: { id: "buy.refusal.paypalNoAnswer" },
  paypal_order_refused: { id: "buy.refusal.paypalOrderRefused" },
  paypal_no_approval_link: { id: "buy.refusal.paypalNoApprovalLink" },
  paypal_not_approved: { id: "buy.refusal.paypalNotApproved" },
  paypal_declined: {
    id: "buy.refusal.paypalDeclined",
    values: (d, locale) => needs({ issue: ltr(d, "issue", locale) }),
  },
  paypal_capture_failed: { id: "buy.refusal.paypalCaptureFailed" },
  paypal_read_failed: { id: "buy.refusal.paypalReadFailed" },
  paypal_no_payment: { id: "buy.refusal.paypalNoPayment" },
  paypal_other_order: { id: "buy.refusal.paypalOtherOrder" },
  paypal_not_completed: {
    id: "buy.refusal.paypalNotCompleted",
    values: (d, locale) => needs({ status: ltr(d, "status", locale) }),
  },
  paypal_capture_taken: { id: "buy.refusal.paypalCaptureTaken" },
};

/** An order limit in the reader's currency format, isolated left to right. */
function usd(value: string | undefined, locale: Locale): string | undefined {
  return value === undefined ? undefined : isolate(dollars(value, locale, false), locale);
}

/** The refusal in the reader's words, or undefined for a reason these screens do not know (or a missing value). */
function refusalText(details: Details): string | undefined {
  const reason = details?.reason;
  const refusal =
    typeof reason === "string" && Object.hasOwn(REFUSALS, reason) ? REFUSALS[reason] : undefined;
  if (!refusal) return undefined;
  if (!refusal.values) return t(refusal.id);
  const values = refusal.values(details, currentLocale());
  return values && t(refusal.id, values);
}

/** The buy page's own sentences for the browser wallet's failures; the others are the checkout's (`pay.wallet.*`). */
const BUY_WALLET_WORDS = {
  noWallet: "buy.wallet.noWallet",
  otherAccount: "buy.wallet.otherAccount",
  noFunds: "buy.wallet.noFunds",
};

/**
 * A failed request on the buy screens, in the buyer's language (issue 37): a refusal by its `details.reason`
 * (even a 502 from PayPal says what happened), then the shared reading of `apiErrorText` (no network, too many
 * attempts, a server fault); the server's own message (English) for what these screens do not know, never a
 * status code. A browser wallet's failure in the buyer's words too (`walletFailureText`); any other error (a
 * library's, in English) as the shared reading says it (`pay.error.generic`), never its message.
 */
export function buyErrorText(error: unknown): string {
  const wallet = walletFailureText(error, BUY_WALLET_WORDS);
  if (wallet) return wallet;
  if (isApiError(error)) {
    const text = refusalText(errorBodyOf(error.body).details);
    if (text) return text;
  }
  return apiErrorText(error);
}

/**
 * Why buying is unavailable (`/api/buy/config`), in the buyer's words (issue 37): by its `unavailableReason`; the
 * server's English sentence for a reason this page does not know.
 */
export function buyUnavailableText(config: Pick<BuyConfig, "reason" | "unavailableReason">): string | null {
  const reason = config.unavailableReason;
  if (reason === "no_chain" || reason === "no_treasury") return refusalText({ reason }) ?? config.reason;
  return config.reason;
}

type Problem = { id: string; values?: (details: Details, locale: Locale) => Values | undefined };

/**
 * An ETH amount exactly as the server formatted it (never rounded), isolated left to right; a USD amount in the
 * locale's digit grouping (as the server wrote it in English, where the sentence must stay the server's own).
 */
const eth = ltr;
const usdNumber = (details: Details, key: string, locale: Locale) => {
  const value = detailOf(details, key);
  if (value === undefined) return undefined;
  return isolate(locale === "en" ? value : formatDecimal(value, numberShape(locale)), locale);
};

/** Every problem an order can carry (`problemDetails.reason`), with its message; English is the server's. */
const PROBLEMS: Readonly<Record<string, Problem>> = {
  paid_late: { id: "buy.problem.paidLate" },
  underpaid: {
    id: "buy.problem.underpaid",
    values: (d, locale) => needs({ paid: eth(d, "paid", locale), due: eth(d, "due", locale) }),
  },
  overpaid: {
    id: "buy.problem.overpaid",
    values: (d, locale) => needs({ excess: eth(d, "excess", locale) }),
  },
  delivery_failed: { id: "buy.problem.deliveryFailed" },
  paypal_expired: { id: "buy.problem.paypalExpired" },
  paypal_amount: {
    id: "buy.problem.paypalAmount",
    values: (d, locale) =>
      needs({
        captured: ltr(d, "captured", locale),
        currency: ltr(d, "currency", locale),
        quotedUsd: usdNumber(d, "quotedUsd", locale),
      }),
  },
};

/**
 * What went wrong with an order, in the buyer's language (issue 37), from its `problemDetails`; the server's
 * English `problem` for a reason this page does not know or a missing value.
 */
export function orderProblemText(order: Pick<BuyOrder, "problem" | "problemDetails">): string | null {
  const details = order.problemDetails ?? undefined;
  const reason = details?.reason;
  const problem = reason !== undefined && Object.hasOwn(PROBLEMS, reason) ? PROBLEMS[reason] : undefined;
  if (!problem) return order.problem;
  if (!problem.values) return t(problem.id);
  const values = problem.values(details, currentLocale());
  return values ? t(problem.id, values) : order.problem;
}

/** The treasury's fixed notes on a delivery (`delivery.noteReason`); English is the server's. */
const DELIVERY_NOTES: Readonly<Record<string, string>> = {
  daily_limit: "buy.deliveryNote.dailyLimit",
  low_balance: "buy.deliveryNote.lowBalance",
  nonce_reused: "buy.deliveryNote.nonceReused",
  reverted: "buy.deliveryNote.reverted",
};

/** A delivery's note in the buyer's language; the server's English note for one this page does not know. */
export function deliveryNoteText(delivery: BuyOrder["delivery"]): string | null {
  if (!delivery?.note) return null;
  const reason = delivery.noteReason;
  return reason && Object.hasOwn(DELIVERY_NOTES, reason) ? t(DELIVERY_NOTES[reason]!) : delivery.note;
}
