import * as z from "zod";
import "./zod-messages.ts";
import { LOCALES } from "./locales.ts";
import { pageTheme } from "./merchant.ts";
import { EXPIRY_MINUTES, PAYMENT_REFERENCE_PATTERN, PAYMENT_STATUSES } from "./payment-values.ts";
import { paymentRefundsDetail, publicRefundResponse, refundStatus } from "./refunds.ts";

export {
  EXPIRY_MINUTES,
  MONITORING_WINDOW_HOURS,
  PAYMENT_REFERENCE_PATTERN,
  PAYMENT_STATUSES,
  type PaymentStatus,
  qrQueryKey,
  SERVER_NOW_KEY,
} from "./payment-values.ts";
export const paymentStatus = z.enum(PAYMENT_STATUSES);

export const usdAmount = z
  .string()
  .trim()
  .regex(/^\d{1,9}(\.\d{1,2})?$/, "Enter a USD amount like 12.50, with at most 2 decimals.")
  .refine((v) => Number(v) >= 0.01, "The amount must be at least 0.01.");
export const tokenAmount = z
  .string()
  .trim()
  .regex(/^\d{1,15}(\.\d{1,3})?$/, "Enter a CPXTB amount like 100.5, with at most 3 decimals.")
  .refine((v) => /[1-9]/.test(v), "The amount must be more than 0.");

export const createPaymentRequest = z
  .object({
    currency: z
      .enum(["USD", "CPXTB"])
      .describe("What `amount` is in: USD is converted at the current rate, then locked."),
    amount: z
      .string()
      .describe("A decimal string: USD with at most 2 decimals (`12.50`), CPXTB with at most 3 (`100.5`)."),
    description: z.string().trim().max(500).nullish().describe("Shown to the payer."),
    orderId: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .nullish()
      .describe("Your own reference for the order; the payer sees it on the pay page and the receipt."),
    expiresInMinutes: z
      .number()
      .int()
      .min(EXPIRY_MINUTES.min)
      .max(EXPIRY_MINUTES.max)
      .default(EXPIRY_MINUTES.default),
    successUrl: z
      .string()
      .trim()
      .max(2048)
      .nullish()
      .describe("https URL the payer is sent back to once paid."),
    payerEmail: z.email().max(254).nullish().describe("The payer's address for a receipt."),
    payerLanguage: z
      .enum(LOCALES)
      .nullish()
      .describe(
        "The payer's language, when you know it: the pay page opens in it (the payer can still switch) and the receipt email is written in it. Without it, the page opens in your business's language if you set one, else in the payer's browser's.",
      ),
  })
  .superRefine((v, ctx) => {
    const check = (v.currency === "USD" ? usdAmount : tokenAmount).safeParse(v.amount);
    if (!check.success)
      ctx.addIssue({ code: "custom", path: ["amount"], message: check.error.issues[0]!.message });
  });
export type CreatePaymentRequest = z.input<typeof createPaymentRequest>;

/** Amounts are decimal strings: `...Base` in token base units, the others in whole tokens / USD. */
const amounts = {
  amountDue: z.string(),
  amountDueBase: z.string(),
  amountReceived: z.string(),
  amountReceivedBase: z.string(),
  /**
   * What the payer is asked to send now (the QR code and `paymentUri` carry it): the amount due, or for a partial
   * payment its reserved remaining amount, matched from any wallet; 0 once covered.
   */
  amountToPay: z.string(),
  amountToPayBase: z.string(),
  amountUsd: z.string().nullable(),
  /**
   * The USD value of what was received: the USD amount asked once exactly covered, otherwise the received tokens
   * at the payment's rate (locked, or for a CPXTB amount the rate when its tokens arrived); null while nothing
   * arrived or no rate is known.
   */
  amountReceivedUsd: z.string().nullable(),
  overpaid: z.boolean(),
  overpaidBase: z.string(),
  /** Refunds beside the status (decision 018): none, partially_refunded or refunded, and their sum. */
  refundStatus,
  amountRefunded: z.string(),
  amountRefundedBase: z.string(),
};

export const publicPaymentResponse = z.object({
  reference: z.string(),
  status: paymentStatus,
  merchant: z.object({
    name: z.string(),
    logoUrl: z.string().nullable(),
    /** The merchant's own site (https), linked from the pay page once the payment is paid. */
    website: z.string().nullable(),
    /** The pay page's accent colour (#rrggbb) and theme, as the merchant set them. */
    brandColor: z.string().nullable(),
    pageTheme,
    /** The language the merchant's pay pages open in, when the payer has not chosen one (null: the browser's). */
    payLanguage: z.enum(LOCALES).nullable(),
  }),
  /**
   * The payer's language, when known: the one the business gave with the request, or the one the payer read the
   * link's page in. The page opens in it before the business's `payLanguage`, unless the payer chose one.
   */
  payerLanguage: z.enum(LOCALES).nullable(),
  ...amounts,
  token: z.object({ address: z.string(), symbol: z.string(), decimals: z.number().int() }),
  chainId: z.number().int(),
  receivingAddress: z.string(),
  paymentUri: z.string(),
  description: z.string().nullable(),
  /** The merchant's own order reference, shown to the payer and on the receipt. */
  orderId: z.string().nullable(),
  expiresAt: z.string(),
  monitorUntil: z.string(),
  confirmationsRequired: z.number().int(),
  /** Confirmations of the newest credited transfer (0 when none). */
  confirmations: z.number().int(),
  txHashes: z.array(z.string()),
  successUrl: z.string().nullable(),
  regeneratedTo: z.string().nullable(),
  completedAt: z.string().nullable(),
  /** Refunds the merchant sent back, verified on chain, oldest first. */
  refunds: z.array(publicRefundResponse),
});
export type PublicPayment = z.infer<typeof publicPaymentResponse>;

export const timelineEntry = z.object({
  from: paymentStatus.nullable(),
  to: paymentStatus,
  cause: z.string(),
  blockNumber: z.string().nullable(),
  at: z.string(),
});

export const transferResponse = z.object({
  id: z.string(),
  txHash: z.string(),
  logIndex: z.number().int(),
  blockNumber: z.string(),
  from: z.string(),
  to: z.string(),
  value: z.string(),
  valueBase: z.string(),
  paymentId: z.string().nullable(),
  creditedBy: z.enum(["amount", "tx_hash", "merchant"]).nullable(),
  orphaned: z.boolean(),
  blockTime: z.string().nullable(),
});
export type Transfer = z.infer<typeof transferResponse>;

export const paymentResponse = z.object({
  id: z.string(),
  reference: z.string(),
  status: paymentStatus,
  ...amounts,
  chainId: z.number().int(),
  tokenAddress: z.string(),
  receivingAddress: z.string(),
  paymentUri: z.string(),
  paymentUrl: z.string(),
  price: z.object({ usdPerToken: z.string(), source: z.string(), at: z.string() }).nullable(),
  tag: z.number().int(),
  toleranceBps: z.number().int(),
  description: z.string().nullable(),
  orderId: z.string().nullable(),
  successUrl: z.string().nullable(),
  payerEmail: z.string().nullable(),
  /** The payer's language, as the request gave it or as the payer read the link's page (null: none known). */
  payerLanguage: z.enum(LOCALES).nullable(),
  expiresAt: z.string(),
  monitorUntil: z.string(),
  completedAt: z.string().nullable(),
  regeneratedFrom: z.string().nullable(),
  regeneratedTo: z.string().nullable(),
  /** The payment link (`lnk_...`) this request was made from, or null. */
  linkId: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Payment = z.infer<typeof paymentResponse>;

export const paymentDetailResponse = paymentResponse.extend({
  timeline: z.array(timelineEntry),
  transfers: z.array(transferResponse),
  ...paymentRefundsDetail,
  /** What may still be refunded now: received minus refunded, when the status allows a refund; else "0". */
  refundableBase: z.string(),
});

export const listPaymentsQuery = z.object({
  status: paymentStatus.optional(),
  /**
   * Part of the description, the order id or the reference (case-insensitive). No control characters: the
   * search text joins its fields with one (the server's `paymentSearchText`).
   */
  q: z
    .string()
    .trim()
    .max(100)
    .regex(/^[^\p{Cc}]*$/u, "must not contain control characters")
    .optional(),
  orderId: z.string().trim().max(100).optional(),
  /** Only the payments made from this payment link. */
  linkId: z
    .string()
    .regex(/^lnk_[0-9a-z]{26}$/, "unknown link")
    .optional()
    .describe("Only the payments made from this payment link (`lnk_...`)."),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  /** The `nextCursor` of the previous page. */
  cursor: z
    .string()
    .regex(/^pay_[0-9a-z]{26}$/)
    .optional(),
});
export const listPaymentsResponse = z.object({
  items: z.array(paymentResponse),
  nextCursor: z.string().nullable(),
});

export const referenceParams = z.object({
  reference: z.string().regex(PAYMENT_REFERENCE_PATTERN, "unknown reference"),
});
export const paymentIdParams = z.object({ id: z.string().regex(/^pay_[0-9a-z]{26}$/, "unknown payment") });
export const transferIdParams = z.object({ id: z.string().regex(/^trf_[0-9a-z]{26}$/, "unknown transfer") });

export const submitTxRequest = z.object({
  txHash: z
    .string()
    .trim()
    .regex(/^0x[0-9a-fA-F]{64}$/, "Enter a transaction hash: 0x and 64 hex digits."),
});
export const assignTransferRequest = z.object({ paymentId: paymentIdParams.shape.id });
/** A payment the inbox proposes for an unmatched transfer: partly paid ones first, then the nearest amounts. */
export const inboxSuggestion = z.object({
  id: z.string(),
  reference: z.string(),
  status: paymentStatus,
  amountDue: z.string(),
  /** What the payment still asks for (a partial payment's remainder). */
  amountToPay: z.string(),
  description: z.string().nullable(),
  orderId: z.string().nullable(),
});
export type InboxSuggestion = z.infer<typeof inboxSuggestion>;
export const inboxItem = transferResponse.extend({ suggestions: z.array(inboxSuggestion) });
export type InboxItem = z.infer<typeof inboxItem>;
export const inboxResponse = z.object({ items: z.array(inboxItem) });

/** Live channel messages (client -> server). */
export const subscribePaymentMessage = z.object({
  type: z.literal("subscribePayment"),
  reference: z.string().max(64),
});
export const unsubscribePaymentMessage = z.object({
  type: z.literal("unsubscribePayment"),
  reference: z.string().max(64),
});
export const subscribeMerchantMessage = z.object({ type: z.literal("subscribeMerchant") });
/** Server -> client: `paymentUpdate` carries the public view (pay page) or the merchant view (dashboard). */
export type PaymentUpdateMessage =
  | { type: "paymentUpdate"; eventId: string; event: string; payment: PublicPayment }
  | { type: "merchantPaymentUpdate"; eventId: string; event: string; payment: Payment }
  /** To the pay pages of an address: a transfer to it matched no payment (its amount only, never its sender). */
  | { type: "unmatchedTransfer"; reference: string; amount: string };

/** GET /api/merchant/pos/today?since=: the signed-in member's paid sales since `since` (the counter's day start). */
export const posSalesQuery = z.object({ since: z.iso.datetime({ offset: true }) });
export const posSalesResponse = z.object({
  /** Paid payments (completed or paid late) the member created since then. */
  count: z.number().int(),
  /** Their USD amounts, for those asked in USD ("12.50"). */
  usd: z.string(),
  /** What they received, in CPXTB (decimal string). */
  cpxtb: z.string(),
});
export type PosSales = z.infer<typeof posSalesResponse>;
