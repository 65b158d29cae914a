import type { Payment, PublicPayment, Transfer } from "@common/payments.ts";
import {
  REFUNDABLE_PAYMENT_STATUSES,
  type Refund,
  type RefundLink,
  type RefundStatus,
} from "@common/refunds.ts";
import type { TokenInfo } from "../../chain/token.ts";
import { formatCents, formatTokens, paymentUri } from "./amounts.ts";
import type { RefundLinkRow, RefundRow } from "./refund-repository.ts";
import type { PaymentRow, TimelineRow, TransferRow } from "./repository.ts";

/** What may still be refunded: received minus refunded, when the status allows a refund at all. */
export function refundableOf(p: PaymentRow): bigint {
  if (!(REFUNDABLE_PAYMENT_STATUSES as readonly string[]).includes(p.status)) return 0n;
  const left = p.amountReceived - p.amountRefunded;
  return left > 0n ? left : 0n;
}

/** Refunded in full once the refunds reach what was received (decision 018). */
export function refundStatusOf(p: Pick<PaymentRow, "amountRefunded" | "amountReceived">): RefundStatus {
  if (p.amountRefunded <= 0n) return "none";
  return p.amountRefunded >= p.amountReceived ? "refunded" : "partially_refunded";
}

/**
 * The USD value of what was received: the amount asked in USD once it is exactly covered, otherwise the tokens
 * received at the payment's rate (locked at creation, or for an amount asked in CPXTB the rate when its tokens
 * arrived), rounded half up to the cent as the reports do. Null while nothing arrived or no rate is known: never
 * a guessed value.
 */
export function receivedUsdCents(
  p: Pick<
    PaymentRow,
    | "amountReceived"
    | "amountDue"
    | "amountUsdCents"
    | "overpaid"
    | "priceE18"
    | "completedPriceE18"
    | "tokenDecimals"
  >,
): bigint | null {
  if (p.amountReceived <= 0n) return null;
  if (p.amountUsdCents !== null && p.amountReceived >= p.amountDue && !p.overpaid) return p.amountUsdCents;
  const rate = p.priceE18 ?? p.completedPriceE18;
  if (rate === null) return null;
  const scale = 10n ** BigInt(p.tokenDecimals + 16);
  return (p.amountReceived * rate * 2n + scale) / (2n * scale);
}

function amountsOf(p: PaymentRow) {
  const d = p.tokenDecimals;
  const receivedUsd = receivedUsdCents(p);
  const excess = p.amountReceived > p.amountDue ? p.amountReceived - p.amountDue : 0n;
  return {
    amountDue: formatTokens(p.amountDue, d),
    amountDueBase: p.amountDue.toString(),
    amountReceived: formatTokens(p.amountReceived, d),
    amountReceivedBase: p.amountReceived.toString(),
    amountToPay: formatTokens(p.amountRequested, d),
    amountToPayBase: p.amountRequested.toString(),
    amountUsd: p.amountUsdCents === null ? null : formatCents(p.amountUsdCents),
    amountReceivedUsd: receivedUsd === null ? null : formatCents(receivedUsd),
    overpaid: p.overpaid,
    overpaidBase: excess.toString(),
    refundStatus: refundStatusOf(p),
    amountRefunded: formatTokens(p.amountRefunded, d),
    amountRefundedBase: p.amountRefunded.toString(),
  };
}

/** The QR code and wallet link ask for what the payer must send now: a partial payment's reserved remainder. */
export function uriOf(p: PaymentRow) {
  return paymentUri({
    token: p.tokenAddress,
    chainId: p.chainId,
    to: p.receivingAddress,
    amount: p.amountRequested > 0n ? p.amountRequested : p.amountDue,
  });
}

export function toPaymentResponse(p: PaymentRow, baseUrl: string): Payment {
  return {
    id: p.id,
    reference: p.reference,
    status: p.status,
    ...amountsOf(p),
    chainId: p.chainId,
    tokenAddress: p.tokenAddress,
    receivingAddress: p.receivingAddress,
    paymentUri: uriOf(p),
    paymentUrl: `${baseUrl}/pay/${p.reference}`,
    price:
      p.priceE18 !== null && p.priceSource && p.priceAt
        ? { usdPerToken: formatTokens(p.priceE18, 18), source: p.priceSource, at: p.priceAt.toISOString() }
        : null,
    tag: p.tag,
    toleranceBps: p.toleranceBps,
    description: p.description,
    orderId: p.orderId,
    successUrl: p.successUrl,
    payerEmail: p.payerEmail,
    payerLanguage: p.payerLocale,
    expiresAt: p.expiresAt.toISOString(),
    monitorUntil: p.monitorUntil.toISOString(),
    completedAt: p.completedAt?.toISOString() ?? null,
    regeneratedFrom: p.regeneratedFromId,
    regeneratedTo: p.regeneratedToId,
    linkId: p.linkId,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}

export function toPublicPayment(input: {
  payment: PaymentRow;
  merchant: PublicPayment["merchant"];
  token: Pick<TokenInfo, "symbol">;
  confirmationsRequired: number;
  head: bigint | null;
  transfers: TransferRow[];
  refunds: RefundRow[];
  regeneratedToReference: string | null;
}): PublicPayment {
  const p = input.payment;
  const live = input.transfers.filter((t) => t.orphanedAt === null);
  const newest = live.reduce<bigint | null>(
    (max, t) => (max === null || t.blockNumber > max ? t.blockNumber : max),
    null,
  );
  const confirmations =
    newest === null || input.head === null || input.head < newest ? 0 : Number(input.head - newest + 1n);
  return {
    reference: p.reference,
    status: p.status,
    merchant: input.merchant,
    payerLanguage: p.payerLocale,
    ...amountsOf(p),
    token: { address: p.tokenAddress, symbol: input.token.symbol, decimals: p.tokenDecimals },
    chainId: p.chainId,
    receivingAddress: p.receivingAddress,
    paymentUri: uriOf(p),
    description: p.description,
    orderId: p.orderId,
    expiresAt: p.expiresAt.toISOString(),
    monitorUntil: p.monitorUntil.toISOString(),
    confirmationsRequired: input.confirmationsRequired,
    confirmations,
    txHashes: [...new Set(live.map((t) => t.txHash))],
    successUrl: p.status === "completed" || p.status === "paid_late" ? p.successUrl : null,
    regeneratedTo: input.regeneratedToReference,
    completedAt: p.completedAt?.toISOString() ?? null,
    refunds: input.refunds.map((r) => {
      const { txHash, amount, amountBase, createdAt } = toRefundResponse(r, p.tokenDecimals);
      return { txHash, amount, amountBase, createdAt };
    }),
  };
}

export function toRefundResponse(r: RefundRow, decimals: number): Refund {
  return {
    id: r.id,
    txHash: r.txHash,
    blockNumber: r.blockNumber.toString(),
    blockTime: r.blockTime?.toISOString() ?? null,
    from: r.fromAddress,
    to: r.toAddress,
    amount: formatTokens(r.amount, decimals),
    amountBase: r.amount.toString(),
    createdAt: r.createdAt.toISOString(),
  };
}

export function refundLinkState(r: RefundLinkRow, now: Date): RefundLink["state"] {
  if (r.submittedAt) return "submitted";
  return r.expiresAt.getTime() <= now.getTime() ? "expired" : "waiting";
}

export function toRefundLinkResponse(r: RefundLinkRow, now: Date): RefundLink {
  return {
    id: r.id,
    state: refundLinkState(r, now),
    address: r.address,
    expiresAt: r.expiresAt.toISOString(),
    submittedAt: r.submittedAt?.toISOString() ?? null,
    createdAt: r.createdAt.toISOString(),
  };
}

export function toTransferResponse(t: TransferRow, decimals: number): Transfer {
  return {
    id: t.id,
    txHash: t.txHash,
    logIndex: t.logIndex,
    blockNumber: t.blockNumber.toString(),
    from: t.fromAddress,
    to: t.toAddress,
    value: formatTokens(t.value, decimals),
    valueBase: t.value.toString(),
    paymentId: t.paymentId,
    creditedBy: t.creditedBy,
    orphaned: t.orphanedAt !== null,
    blockTime: t.blockTime?.toISOString() ?? null,
  };
}

export function toTimelineEntry(row: TimelineRow) {
  return {
    from: row.fromStatus as Payment["status"] | null,
    to: row.toStatus as Payment["status"],
    cause: row.cause,
    blockNumber: row.blockNumber?.toString() ?? null,
    at: row.createdAt.toISOString(),
  };
}
