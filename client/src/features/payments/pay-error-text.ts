import { t } from "@/i18n/i18n";
import { isApiError } from "@/lib/api-error";
import { errorText } from "@/lib/error-text";

/**
 * Which payer screen asked: a code means different things on each (NOT_FOUND is an unknown payment on the pay
 * page, a transaction not mined yet on the tx-hash form, an unknown link on /l/{slug}).
 */
export type PayErrorContext = "payment" | "txHash" | "link" | "refund";

/**
 * The server's sentences a payer meets, by their exact English wording (server/src/modules/payments, links):
 * CONFLICT and UNPROCESSABLE carry several meanings, and the sentence is what tells them apart. A sentence not in
 * this list (a new one, or one reworded on the server) is shown as the server wrote it, in English.
 */
const KNOWN_MESSAGES: Record<string, string> = {
  "No payment has this reference.": "pay.error.paymentNotFound",
  "This transaction is not in a block yet. Try again once it is mined.": "pay.error.txNotMined",
  "This transaction failed on chain (reverted).": "pay.error.txReverted",
  "This transaction holds no CPXTB transfer to this payment's address.": "pay.error.txNoTransfer",
  "This transaction's transfer is already credited to another payment.": "pay.error.txTaken",
  "This payment was cancelled by the business. Your transfer was received and the business can see it; contact them for a refund.":
    "pay.error.paymentCancelled",
  "Only an expired payment that received nothing can be regenerated.": "pay.error.cannotRegenerate",
  "No payment link has this address.": "pay.error.linkNotFound",
  "This payment link is switched off: it takes no payments.": "pay.error.linkOff",
  "Sold out: every unit of this link is sold or held by an open payment.": "pay.error.linkSoldOut",
  "Enter the amount you want to pay.": "pay.error.linkAmountMissing",
  "This refund link does not exist. Check the link with the merchant.": "pay.error.refundLinkNotFound",
  "This refund link has expired. Ask the merchant for a new one.": "pay.error.refundLinkExpired",
  "An address was already given through this link. It can be used once.": "pay.error.refundAddressGiven",
  "address: this is not a valid address (its upper- and lower-case letters do not match its checksum). Copy it again from your wallet.":
    "pay.error.refundChecksum",
  "address: the zero address cannot receive a refund.": "pay.error.refundZeroAddress",
  "address: this is the merchant's or the token's address, not yours. Enter the address of your own wallet.":
    "pay.error.refundOwnAddress",
};

const NOT_FOUND_BY_CONTEXT = {
  payment: "pay.error.paymentNotFound",
  txHash: "pay.error.txNotMined",
  link: "pay.error.linkNotFound",
  refund: "pay.error.refundLinkNotFound",
} as const satisfies Record<PayErrorContext, string>;

type ErrorBody = { error?: { code?: unknown; message?: unknown; details?: Record<string, unknown> } };

/** The `{ error: { code, message, details } }` of an answer, each part only when it has its type. */
export function errorBodyOf(body: unknown) {
  const error = (body as ErrorBody | undefined)?.error;
  return {
    code: typeof error?.code === "string" ? error.code : undefined,
    message: typeof error?.message === "string" ? error.message.trim() : "",
    details: error?.details,
  };
}

/**
 * A value the server put in an answer's `details` for a sentence that carries one (a limit, a status, a time), as
 * text, else undefined: the screen's `byCode` says the sentence in its words with it (issue 37), by `details.reason`.
 */
export function detailOf(details: Record<string, unknown> | undefined, key: string): string | undefined {
  const value = details?.[key];
  return typeof value === "string" || typeof value === "number" ? String(value) : undefined;
}

/**
 * How one translated screen reads a failed request (`apiErrorText`): the server's sentences it knows, its own words
 * for being signed out, needing two-factor or lacking access, and what a code means in its context.
 */
export type ErrorWords = {
  /** The server's sentences, by their exact English wording, to message ids (where one code has several meanings). */
  sentences?: Readonly<Record<string, string>>;
  /** Values for the placeholders of those messages. */
  values?: Record<string, string | number>;
  signedOut?: string;
  twoFactor?: string;
  forbidden?: string;
  /**
   * The screen's text for a code or status in its context, after the shared ones; undefined when it has none. A
   * sentence with values (a limit, a status, a time) is read here from `details` (its `reason` and `detailOf`),
   * the values formatted for the reader's locale.
   */
  byCode?: (answer: {
    code: string | undefined;
    status: number;
    details: Record<string, unknown> | undefined;
  }) => string | undefined;
};

/**
 * Why the server had no CPXTB price (server/src/chain/price.ts, payments/amounts.ts), by `details.reason`: every
 * screen that shows or uses the price (a link's USD amount, the buy page, the dashboard's USD request) says it in
 * its reader's words rather than "the server had a problem" (the answer is a 502, 503 or 504).
 */
const PRICE_REASONS: Readonly<Record<string, string>> = {
  price_stale: "pay.price.stale",
  price_unreachable: "pay.price.unreachable",
  price_feed_invalid: "pay.price.unusable",
  price_pool_empty: "pay.price.unusable",
  price_unusable: "pay.price.unusable",
};

/** The price's failure in the reader's words, or undefined when `details` names no price reason. */
export function priceFailureText(details: Record<string, unknown> | undefined): string | undefined {
  const reason = details?.reason;
  return typeof reason === "string" && Object.hasOwn(PRICE_REASONS, reason)
    ? t(PRICE_REASONS[reason]!)
    : undefined;
}

/**
 * The one problem of a request the server refused for its shape ("Invalid params: token: This invitation link is
 * malformed.", server/src/lib/error-handler.ts): the schema's own sentence, which a screen may know; else undefined.
 */
function validationSentence(message: string): string | undefined {
  const problem = /^Invalid \w+: (?:[\w.]+: )?(.+)$/.exec(message)?.[1];
  return problem && !problem.includes("; ") ? problem : undefined;
}

/**
 * A failed request in the reader's language (issue 37), the one reading every translated screen shares: no network
 * or a thrown error, then a server sentence the screen knows, a price that could not be had, too many attempts,
 * signed out, two-factor, no access, a timeout, a server fault, the screen's reading of the code; the server's own
 * (English) message only for what the screen does not know. Never a status code or a JSON body.
 */
export function apiErrorText(error: unknown, words: ErrorWords = {}): string {
  if (!isApiError(error)) {
    if (error instanceof TypeError && /fetch|network|load failed/i.test(error.message))
      return t("pay.error.network");
    return t("pay.error.generic");
  }
  const { code, message, details } = errorBodyOf(error.body);
  const sentence = validationSentence(message);
  const known = words.sentences?.[message] ?? (sentence ? words.sentences?.[sentence] : undefined);
  if (known) return t(known, words.values);
  const price = priceFailureText(details);
  if (price) return price;
  if (code === "RATE_LIMITED" || error.status === 429) return t("pay.error.rateLimited");
  if (words.signedOut && (code === "UNAUTHENTICATED" || error.status === 401)) return t(words.signedOut);
  if (words.twoFactor && code === "TWO_FACTOR_REQUIRED") return t(words.twoFactor);
  if (words.forbidden && (code === "FORBIDDEN" || error.status === 403)) return t(words.forbidden);
  if (error.status === 408) return t("pay.error.timeout");
  if (error.status >= 500) return t("pay.error.server");
  const own = words.byCode?.({ code, status: error.status, details });
  if (own) return own;
  return message || errorText(error);
}

/**
 * A failed request on a payer's screen, in the payer's language: `context` says which screen asked (default: the
 * pay page), since NOT_FOUND, GONE and VALIDATION_ERROR mean something else on each.
 */
export function payErrorText(error: unknown, context: PayErrorContext = "payment"): string {
  return apiErrorText(error, {
    sentences: KNOWN_MESSAGES,
    byCode: ({ code, status, details }) => {
      if (code === "NOT_FOUND" || status === 404) return t(NOT_FOUND_BY_CONTEXT[context]);
      if (code === "GONE" || status === 410)
        return t(context === "refund" ? "pay.error.refundLinkExpired" : "pay.error.gone");
      if (code !== "VALIDATION_ERROR") return undefined;
      if (context === "txHash") return t("pay.error.txHashInvalid");
      if (context === "link" && typeof details?.minAmount === "string")
        return t("pay.error.linkMinAmount", {
          amount: details.minAmount,
          currency: String(details.currency ?? ""),
        });
      return undefined;
    },
  });
}
