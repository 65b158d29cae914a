import * as z from "zod";
import "./zod-messages.ts";
import { REFUND_LINK_STATES, REFUND_STATUSES } from "./refund-values.ts";

export {
  REFUND_LINK_DAYS,
  REFUND_LINK_STATES,
  REFUND_STATUSES,
  REFUNDABLE_PAYMENT_STATUSES,
  type RefundStatus,
} from "./refund-values.ts";
/** Refunds are a summary beside a payment's status, never a status (decision 018). */
export const refundStatus = z.enum(REFUND_STATUSES);

const txHash = z
  .string()
  .trim()
  .regex(/^0x[0-9a-fA-F]{64}$/, "Enter a transaction hash: 0x and 64 hex digits.");
/** An EVM address; its checksum (EIP-55) is checked by the server when it has mixed case. */
export const evmAddress = z
  .string()
  .trim()
  .regex(/^0x[0-9a-fA-F]{40}$/, "Enter a wallet address: 0x and 40 hex digits.");
/** A positive token amount in base units (integer decimal string). */
const baseAmount = z
  .string()
  .trim()
  .regex(/^[1-9]\d{0,77}$/, "The amount must be a positive whole number of base units.");

/** `POST /api/merchant/payments/:id/refunds`: the merchant's wallet sent it; the server checks it on chain. */
export const recordRefundRequest = z.object({
  txHash,
  /** Where the refund went: an address that paid this payment, or one the payer gave through a refund link. */
  toAddress: evmAddress,
  /** The refund's amount in token base units (the transfer must carry exactly this). */
  amountBase: baseAmount,
});
export type RecordRefundRequest = z.infer<typeof recordRefundRequest>;

export const refundResponse = z.object({
  id: z.string(),
  txHash: z.string(),
  blockNumber: z.string(),
  blockTime: z.string().nullable(),
  from: z.string(),
  to: z.string(),
  amount: z.string(),
  amountBase: z.string(),
  createdAt: z.string(),
});
export type Refund = z.infer<typeof refundResponse>;

/** What the payer's page shows of a refund. */
export const publicRefundResponse = refundResponse.pick({
  txHash: true,
  amount: true,
  amountBase: true,
  createdAt: true,
});

export const refundLinkResponse = z.object({
  id: z.string(),
  state: z.enum(REFUND_LINK_STATES),
  /** The address the payer gave (checksummed), once submitted. */
  address: z.string().nullable(),
  expiresAt: z.string(),
  submittedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type RefundLink = z.infer<typeof refundLinkResponse>;

/** The link itself is shown once, at creation: only its hash is stored. */
export const createdRefundLinkResponse = z.object({ link: refundLinkResponse, url: z.string() });

/** An address a refund of this payment may go to, and why. */
export const refundAddress = z.object({
  address: z.string(),
  source: z.enum(["payer", "refund_link"]),
});

/** The refunds part of the merchant's payment detail. */
export const paymentRefundsDetail = {
  refunds: z.array(refundResponse),
  refundLinks: z.array(refundLinkResponse),
  refundAddresses: z.array(refundAddress),
};

export const refundTokenParams = z.object({
  token: z.string().regex(/^[A-Za-z0-9_-]{43}$/, "unknown refund link"),
});

/** `GET /api/refund-links/:token`: what the payer sees before giving an address. */
export const publicRefundLinkResponse = z.object({
  state: z.enum(REFUND_LINK_STATES),
  merchant: z.object({ name: z.string(), logoUrl: z.string().nullable() }),
  description: z.string().nullable(),
  token: z.object({ symbol: z.string() }),
  amountReceived: z.string(),
  amountRefunded: z.string(),
  expiresAt: z.string(),
  address: z.string().nullable(),
  networkChainId: z.number().int(),
});
export type PublicRefundLink = z.infer<typeof publicRefundLinkResponse>;

export const submitRefundAddressRequest = z.object({ address: evmAddress });
