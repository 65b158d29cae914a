import type { CreateBuyOrderRequest } from "@common/buy.ts";
import { and, eq, sql } from "drizzle-orm";
import { buyOrders } from "../../db/schema.ts";
import { AppError } from "../../errors.ts";
import type { Buyer } from "./ownership.ts";
import { approveLink, type PaypalCapture, PaypalError, type PaypalOrder } from "./paypal-client.ts";
import { formatUsd } from "./quote.ts";
import {
  type BuyDeps,
  deliveryAddressOf,
  findOrder,
  insertOrder,
  isUniqueViolation,
  managedDeliveryAddress,
  type OrderRow,
  quote,
  requireReady,
} from "./service.ts";

function requirePaypal(deps: BuyDeps) {
  if (!deps.paypal)
    throw new AppError("NOT_FOUND", "Paying with PayPal is not available on this server.", {
      reason: "paypal_unavailable",
    });
  return { paypal: deps.paypal, ...requireReady(deps) };
}

/** Cents as PayPal's USD value: always two decimals ("12.50"). */
const paypalValue = (cents: bigint) => `${cents / 100n}.${(cents % 100n).toString().padStart(2, "0")}`;

/** PayPal's amount string ("25.00", "25") in cents; null when it is not a plain USD-style amount. */
function toCents(value: string | undefined): bigint | null {
  const m = value?.match(/^(\d{1,12})(?:\.(\d{1,2}))?$/);
  if (!m) return null;
  return BigInt(m[1]!) * 100n + BigInt((m[2] ?? "").padEnd(2, "0"));
}

/**
 * Creates our order (the quote locked) and PayPal's (Orders v2, intent CAPTURE, the quoted USD); the buyer then
 * approves at the returned link and comes back through `/api/buy/paypal/return`.
 */
export async function createPaypalOrder(
  deps: BuyDeps,
  input: Omit<CreateBuyOrderRequest, "method">,
  buyer: Buyer,
): Promise<{ order: OrderRow; approveUrl: string }> {
  const { paypal, chain, treasury } = requirePaypal(deps);
  const q = await quote(deps, input);
  // Bought for the managed wallet, that wallet is the order's wallet too: no browser wallet is needed at all.
  const deliverTo = await managedDeliveryAddress(deps.db, buyer, input.deliverTo);
  const order = await insertOrder(deps, chain, treasury, {
    ...q,
    method: "paypal",
    input: deliverTo ? { ...input, buyerAddress: deliverTo } : input,
    buyer,
    deliverTo,
  });
  const base = deps.config.publicUrl.replace(/\/$/, "");
  let created: PaypalOrder;
  try {
    created = await paypal.createOrder({
      referenceId: order.id,
      usd: paypalValue(q.usdCents),
      description: `CPXTB purchase ${order.id}`,
      returnUrl: `${base}/api/buy/paypal/return?order=${order.id}`,
      cancelUrl: `${base}/buy-cpxtb/orders/${order.id}`,
    });
  } catch (error) {
    deps.log.warn({ orderId: order.id, err: String(error) }, "PayPal order creation failed");
    throw error instanceof AppError
      ? error
      : new AppError("BAD_GATEWAY", "PayPal refused the order. Try again.", {
          reason: "paypal_order_refused",
        });
  }
  const approveUrl = approveLink(created);
  if (!created.id || !approveUrl) {
    throw new AppError("BAD_GATEWAY", "PayPal answered without an approval link. Try again.", {
      reason: "paypal_no_approval_link",
    });
  }
  const [updated] = await deps.db
    .update(buyOrders)
    .set({ paypalOrderId: created.id, updatedAt: deps.now() })
    .where(eq(buyOrders.id, order.id))
    .returning();
  return { order: updated!, approveUrl };
}

function firstCapture(o: PaypalOrder): { capture: PaypalCapture | null; referenceId: string | null } {
  const unit = o.purchase_units?.[0];
  return {
    capture: unit?.payments?.captures?.[0] ?? null,
    referenceId: unit?.custom_id ?? unit?.reference_id ?? null,
  };
}

/** Captures at PayPal; a capture already made (retry, race, the other path) is read back instead. */
async function captureAtPaypal(deps: BuyDeps, order: OrderRow): Promise<PaypalOrder> {
  const paypal = deps.paypal!;
  try {
    return await paypal.captureOrder(order.paypalOrderId!, order.id);
  } catch (error) {
    if (error instanceof PaypalError && error.issue === "ORDER_ALREADY_CAPTURED") {
      return paypal.getOrder(order.paypalOrderId!);
    }
    if (error instanceof PaypalError && error.issue === "ORDER_NOT_APPROVED") {
      throw new AppError("CONFLICT", "Approve the payment at PayPal first; nothing was charged yet.", {
        reason: "paypal_not_approved",
      });
    }
    if (error instanceof PaypalError && error.status === 422) {
      const issue = error.issue ?? "unprocessable";
      throw new AppError("UNPROCESSABLE", `PayPal declined the payment (${issue}).`, {
        reason: "paypal_declined",
        issue,
      });
    }
    if (error instanceof PaypalError) {
      deps.log.warn({ orderId: order.id, status: error.status, issue: error.issue }, "PayPal capture failed");
      throw new AppError("BAD_GATEWAY", "PayPal could not complete the payment. Try again in a moment.", {
        reason: "paypal_capture_failed",
      });
    }
    throw error;
  }
}

async function readAtPaypal(deps: BuyDeps, order: OrderRow): Promise<PaypalOrder> {
  try {
    return await deps.paypal!.getOrder(order.paypalOrderId!);
  } catch (error) {
    if (!(error instanceof PaypalError)) throw error;
    deps.log.warn(
      { orderId: order.id, status: error.status, issue: error.issue },
      "PayPal order read failed",
    );
    throw new AppError(
      "BAD_GATEWAY",
      "PayPal could not be asked about this payment. Try again in a moment.",
      {
        reason: "paypal_read_failed",
      },
    );
  }
}

/**
 * After the buyer approved: captures, then delivers only when PayPal says COMPLETED for exactly the quoted USD
 * of this order. One capture id pays one order (unique column); the order moves from `quoted` once, and the
 * treasury queue holds one send per order, so retries and races deliver once.
 */
export async function capturePaypalOrder(deps: BuyDeps, orderId: string): Promise<OrderRow> {
  requirePaypal(deps);
  const found = await findOrder(deps.db, orderId);
  if (!found) throw new AppError("NOT_FOUND", "No such order.", { reason: "order_not_found" });
  const { order } = found;
  if (order.method !== "paypal") throw new AppError("BAD_REQUEST", "This order is not paid with PayPal.");
  if (order.status !== "quoted") return order;
  if (!order.paypalOrderId)
    throw new AppError("CONFLICT", "This order has no PayPal payment to complete.", {
      reason: "paypal_no_payment",
    });
  let result: PaypalOrder;
  if (deps.now() > order.expiresAt) {
    // Not captured after expiry; but a capture made in time (e.g. PENDING then) is still honoured.
    const current = await readAtPaypal(deps, order);
    if (!firstCapture(current).capture) {
      const [expired] = await deps.db
        .update(buyOrders)
        .set({
          status: "expired",
          problem:
            "The quote expired before the payment was completed: nothing was charged. Start a new order.",
          problemDetails: { reason: "paypal_expired" },
          updatedAt: deps.now(),
        })
        .where(and(eq(buyOrders.id, order.id), eq(buyOrders.status, "quoted")))
        .returning();
      deps.notify(order.id);
      return expired ?? (await findOrder(deps.db, order.id))!.order;
    }
    result = current;
  } else {
    result = await captureAtPaypal(deps, order);
  }
  const { capture, referenceId } = firstCapture(result);
  if (result.id !== order.paypalOrderId || (referenceId !== null && referenceId !== order.id)) {
    deps.log.warn({ orderId: order.id, paypalOrderId: result.id }, "PayPal capture is for another order");
    throw new AppError("UNPROCESSABLE", "PayPal's answer is for another order; nothing is sent.", {
      reason: "paypal_other_order",
    });
  }
  if (result.status !== "COMPLETED" || capture?.status !== "COMPLETED" || !capture.id) {
    const status = capture?.status ?? result.status ?? "unknown";
    throw new AppError(
      "CONFLICT",
      `PayPal has not completed this payment yet (${status}); the tokens are sent once it is.`,
      { reason: "paypal_not_completed", status },
    );
  }
  const cents = toCents(capture.amount?.value);
  const currency = capture.amount?.currency_code;
  const matches = currency === "USD" && cents === order.usdCents;
  const now = deps.now();
  let updated: OrderRow | undefined;
  try {
    await deps.db.transaction(async (tx) => {
      [updated] = await tx
        .update(buyOrders)
        .set(
          matches
            ? { status: "paid", paypalCaptureId: capture.id!, paidAt: now, updatedAt: now }
            : {
                status: "failed",
                paypalCaptureId: capture.id!,
                paidAt: now,
                problem: `PayPal captured ${capture.amount?.value ?? "?"} ${currency ?? "?"}, not the ${formatUsd(order.usdCents)} USD quoted: no CPXTB is sent; the payment is listed for refund.`,
                problemDetails: {
                  reason: "paypal_amount",
                  // An unknown amount or currency stays out: the page says the English sentence then.
                  ...(capture.amount?.value ? { captured: capture.amount.value } : {}),
                  ...(currency ? { currency } : {}),
                  quotedUsd: formatUsd(order.usdCents),
                },
                refundDue: true,
                updatedAt: now,
              },
        )
        .where(
          and(
            eq(buyOrders.id, order.id),
            eq(buyOrders.status, "quoted"),
            sql`${buyOrders.paypalCaptureId} is null`,
          ),
        )
        .returning();
      if (updated?.status === "paid") {
        await deps.treasury!.enqueue(tx, {
          kind: "order",
          refId: order.id,
          to: deliveryAddressOf(order),
          amount: order.tokenAmount,
        });
      }
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      deps.log.warn(
        { orderId: order.id, captureId: capture.id },
        "PayPal capture already paid another order",
      );
      throw new AppError("CONFLICT", "This PayPal payment already paid another order.", {
        reason: "paypal_capture_taken",
      });
    }
    throw error;
  }
  if (!updated) return (await findOrder(deps.db, order.id))!.order;
  deps.log.info(
    { orderId: order.id, to: updated.status, captureId: capture.id },
    matches ? "buy order paid with PayPal" : "PayPal capture does not match the quote: listed for refund",
  );
  deps.notify(order.id);
  return updated;
}
