import { createHash } from "node:crypto";
import type { CreatePaymentRequest } from "@common/payments.ts";
import { AppError } from "../../errors.ts";
import { createId } from "../../lib/ids.ts";
import * as keys from "../api-keys/repository.ts";
import type { ApiKeyAuth } from "../api-keys/service.ts";
import type { PaymentRow } from "../payments/repository.ts";
import * as payments from "../payments/service.ts";

/** How long a retry waits for the first request with its key to finish before answering 409. */
const IN_PROGRESS_WAIT_MS = 10_000;
/** A key whose first request never recorded a payment (its process died) is free again after this. */
const ABANDONED_AFTER_MS = 60_000;
const POLL_MS = 25;

/** SHA-256 of the validated body as canonical JSON (sorted keys, absent = null): the same request, the same hash. */
export function hashRequestBody(body: Record<string, unknown>): string {
  const canonical = Object.keys(body)
    .filter((k) => body[k] !== undefined && body[k] !== null)
    .sort()
    .map((k) => [k, body[k]]);
  return createHash("sha256").update(JSON.stringify(canonical)).digest("hex");
}

/**
 * Creates a payment, once per Idempotency-Key and merchant: the unique index on (merchant, key) lets exactly one
 * of several concurrent requests claim the key; the others wait for its payment (decision 015).
 */
export async function createPaymentIdempotently(
  deps: payments.PaymentsDeps,
  auth: ApiKeyAuth,
  body: CreatePaymentRequest,
  idempotencyKey: string | undefined,
): Promise<{ payment: PaymentRow; replayed: boolean }> {
  const { db } = deps;
  const merchant = { id: auth.merchantId };
  if (idempotencyKey === undefined) {
    return { payment: await payments.createPayment(deps, merchant, body), replayed: false };
  }
  const requestHash = hashRequestBody(body);
  const deadline = Date.now() + IN_PROGRESS_WAIT_MS;
  for (;;) {
    const claimed = await keys.claimIdempotencyKey(db, {
      id: createId("idk"),
      merchantId: auth.merchantId,
      key: idempotencyKey,
      requestHash,
    });
    if (claimed) {
      let payment: PaymentRow;
      try {
        payment = await payments.createPayment(deps, merchant, body);
      } catch (error) {
        // Nothing was created: a retry with this key may try again.
        await keys.releaseIdempotencyKey(db, claimed.id);
        throw error;
      }
      await keys.recordIdempotentPayment(db, claimed.id, payment.id);
      return { payment, replayed: false };
    }
    const existing = await keys.findIdempotencyKey(db, auth.merchantId, idempotencyKey);
    if (!existing) continue; // released by a failed first request: claim it now
    if (existing.requestHash !== requestHash) {
      throw new AppError(
        "CONFLICT",
        "This Idempotency-Key was already used with a different request body. Use a new key for a new payment.",
      );
    }
    if (existing.paymentId) {
      return {
        payment: await payments.getPaymentOfOwner(db, { merchantId: auth.merchantId }, existing.paymentId),
        replayed: true,
      };
    }
    if (Date.now() - existing.createdAt.getTime() > ABANDONED_AFTER_MS) {
      await keys.releaseIdempotencyKey(db, existing.id);
      continue;
    }
    if (Date.now() > deadline) {
      throw new AppError(
        "CONFLICT",
        "A request with this Idempotency-Key is still being processed. Retry in a few seconds.",
      );
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
