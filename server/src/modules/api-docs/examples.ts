import type { Link } from "@common/links.ts";
import { linkResponse as linkSchema, listLinksResponse } from "@common/links.ts";
import {
  listPaymentsResponse,
  type Payment,
  paymentDetailResponse,
  paymentResponse,
} from "@common/payments.ts";
import { WEBHOOK_TEST_EVENT, type WebhookEvent } from "@common/webhooks.ts";
import type * as z from "zod";
import { BASE_CPXTB_TOKEN } from "../../config.ts";
import type { PaymentRow } from "../payments/repository.ts";
import { toPaymentResponse, toTimelineEntry, toTransferResponse } from "../payments/views.ts";

// The reference page's examples are made by the server's own views from rows as the database holds them, so an
// example has every field a real answer has, formatted the same way (a test parses each with its schema).

const DECIMALS = 18;
const unit = 10n ** BigInt(DECIMALS);
const CREATED = new Date("2026-11-24T09:00:00.000Z");
const at = (seconds: number) => new Date(CREATED.getTime() + seconds * 1000);
const TX_HASH = "0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060";
const PAYER = "0x3f5CE5FBFe3E9af3971dD833D26bA9b5C936f0bE";

type Status = Payment["status"];

/** The row of a $12.50 payment for order 1042 at 0.0125 USD per CPXTB, in the state `status` leaves it. */
function paymentRow(status: Status, refunded = 0n): PaymentRow {
  const baseAmount = 1000n * unit;
  const tag = 449;
  const amountDue = baseAmount + BigInt(tag) * 10n ** BigInt(DECIMALS - 6);
  const received =
    status === "completed" || status === "paid_late" || status === "invalid"
      ? amountDue
      : status === "partial" || status === "processing"
        ? 400n * unit
        : 0n;
  const paid = status === "completed" || status === "paid_late";
  return {
    id: "pay_01kaw3m8x2q9r4t6v8y0z2b4d6",
    reference: "kq3Zt9sW1bXe4Vn7Lp2Rfa",
    merchantId: "mer_01kaw2y5h7j9k1m3n5p7r9t1v3",
    chainId: 8453,
    tokenAddress: BASE_CPXTB_TOKEN,
    tokenDecimals: DECIMALS,
    receivingAddress: "0x8ba1f109551bD432803012645Ac136ddd64DBA72",
    amountUsdCents: 1250n,
    priceE18: 125n * 10n ** 14n,
    priceSource: "pool",
    priceAt: at(-12),
    baseAmount,
    tag,
    amountDue,
    toleranceBps: 0,
    amountReceived: status === "processing" ? 0n : received,
    amountSeen: received,
    amountRequested:
      status === "partial"
        ? amountDue - received
        : status === "pending" || status === "processing"
          ? amountDue
          : 0n,
    overpaid: false,
    amountRefunded: refunded,
    description: "2 flat whites",
    orderId: "1042",
    successUrl: "https://cornercoffee.example/thanks?order=1042",
    payerEmail: "ada@example.com",
    payerLocale: "pt-BR",
    status,
    live: status === "pending" || status === "processing" || status === "partial",
    expiresAt: at(15 * 60),
    monitorUntil: at(15 * 60 + 24 * 3600),
    completedAt: paid ? at(status === "paid_late" ? 20 * 60 : 95) : null,
    completedPriceE18: null,
    completedPriceAt: null,
    regeneratedFromId: null,
    regeneratedToId: null,
    createdBy: null,
    linkId: null,
    createdAt: CREATED,
    updatedAt: paid ? at(95) : status === "pending" ? CREATED : at(15 * 60),
  } as PaymentRow;
}

/** `status` reached by the payment's events, as the payment's timeline lists them. */
const STEPS: Record<Status, Status[]> = {
  pending: [],
  processing: ["processing"],
  partial: ["partial"],
  completed: ["processing", "completed"],
  expired: ["expired"],
  paid_late: ["expired", "paid_late"],
  invalid: ["processing", "completed", "invalid"],
  cancelled: ["cancelled"],
};

export function examplePayment(server: string, status: Status = "completed", refunded = 0n): Payment {
  return toPaymentResponse(paymentRow(status, refunded), server);
}

export function examplePaymentDetail(server: string): z.infer<typeof paymentDetailResponse> {
  const row = paymentRow("completed");
  let from: Status = "pending";
  const timeline = [
    toTimelineEntry({
      fromStatus: null,
      toStatus: "pending",
      cause: "created",
      blockNumber: null,
      createdAt: CREATED,
    } as never),
    ...STEPS.completed.map((to, i) => {
      const entry = toTimelineEntry({
        fromStatus: from,
        toStatus: to,
        cause: to === "processing" ? `transfer ${TX_HASH} (log 0) seen` : "block 24170514: confirmations",
        blockNumber: 24170512n + BigInt(i * 2),
        createdAt: at(90 + i * 5),
      } as never);
      from = to;
      return entry;
    }),
  ];
  const transfer = toTransferResponse(
    {
      id: "trf_01kaw3pbg0c2e4g6j8m0p2r4t6",
      txHash: TX_HASH,
      logIndex: 0,
      blockNumber: 24170512n,
      fromAddress: PAYER,
      toAddress: row.receivingAddress,
      value: row.amountDue,
      paymentId: row.id,
      creditedBy: "amount",
      orphanedAt: null,
      blockTime: at(88),
    } as never,
    DECIMALS,
  );
  return {
    ...toPaymentResponse(row, server),
    timeline,
    transfers: [transfer],
    refunds: [],
    refundLinks: [],
    refundAddresses: [],
    refundableBase: row.amountReceived.toString(),
  };
}

export function exampleLink(server: string): Link {
  return {
    id: "lnk_01kaw1c3e5g7j9m1p3r5t7v9x1",
    slug: "flat-white",
    url: `${server}/l/flat-white`,
    title: "Flat white",
    description: "Double shot, whole milk.",
    imageUrl: null,
    pricing: "fixed",
    currency: "USD",
    amount: "4.50",
    minAmount: null,
    quantityLimit: null,
    active: true,
    stats: { requests: 31, paid: 28, paidTotal: "10080.012572", paidUsd: "126.00", remaining: null },
    createdAt: "2026-11-02T08:15:00.000Z",
    updatedAt: "2026-11-02T08:15:00.000Z",
  };
}

/** The error each status answers with on /api/v1, as the error handler words it. */
export const ERROR_EXAMPLES: Record<string, { code: string; message: string }> = {
  400: {
    code: "VALIDATION_ERROR",
    message: "Invalid body: amount: Enter a USD amount like 12.50, with at most 2 decimals.",
  },
  401: { code: "UNAUTHENTICATED", message: "The API key is not valid or has been revoked." },
  403: { code: "FORBIDDEN", message: "This API key does not have the payments:write permission." },
  404: { code: "NOT_FOUND", message: "No such payment." },
  409: {
    code: "CONFLICT",
    message:
      "This Idempotency-Key was already used with a different request body. Use a new key for a new payment.",
  },
  413: { code: "PAYLOAD_TOO_LARGE", message: "Request body is too large" },
  415: {
    code: "UNSUPPORTED_MEDIA_TYPE",
    message: "Send the request body as JSON (Content-Type: application/json).",
  },
  429: { code: "RATE_LIMITED", message: "Too many requests with this API key. Retry after 12 seconds." },
  503: {
    code: "SERVICE_UNAVAILABLE",
    message: "The CPXTB price is stale (last updated 7 min ago); quotes are paused until it updates.",
  },
};

/** An example body for a response schema of /api/v1 (null for a schema without one: a test keeps none missing). */
export function exampleFor(schema: unknown, status: string, server: string): unknown {
  if (Number(status) >= 400) {
    const error = ERROR_EXAMPLES[status];
    return error ? { error } : null;
  }
  if (schema === paymentResponse) return examplePayment(server);
  if (schema === paymentDetailResponse) return examplePaymentDetail(server);
  if (schema === listPaymentsResponse)
    return {
      items: [examplePayment(server), examplePayment(server, "pending")],
      nextCursor: "pay_01kaw3m8x2q9r4t6v8y0z2b4d6",
    };
  if (schema === linkSchema) return exampleLink(server);
  if (schema === listLinksResponse) return { items: [exampleLink(server)] };
  return null;
}

/** The status each event leaves the payment in (what `data.status` says in its delivery). */
export const EVENT_STATUS: Record<WebhookEvent, Status> = {
  "payment.created": "pending",
  "payment.processing": "processing",
  "payment.partial": "partial",
  "payment.completed": "completed",
  "payment.expired": "expired",
  "payment.paid_late": "paid_late",
  "payment.invalid": "invalid",
  "payment.cancelled": "cancelled",
  "payment.refunded": "completed",
};

/** A delivery's body for `event`, as notifications/dispatch.ts builds it. */
export function exampleWebhookBody(server: string, event: WebhookEvent | typeof WEBHOOK_TEST_EVENT) {
  if (event === WEBHOOK_TEST_EVENT)
    return {
      type: event,
      timestamp: CREATED.toISOString(),
      data: { endpointId: "whe_01kaw0a2c4e6g8j0m2p4r6t8v0", message: "A test event from CPXTB Pay." },
    };
  const refunded = event === "payment.refunded" ? 400n * unit : 0n;
  return {
    type: event,
    timestamp: at(event === "payment.created" ? 0 : 95).toISOString(),
    data: examplePayment(server, EVENT_STATUS[event], refunded),
  };
}
