import { WEBHOOK_EVENTS, type WebhookEvent } from "@common/webhooks.ts";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { rowsOf } from "../../db/client.ts";
import {
  merchants,
  paymentEmails,
  payments,
  users,
  webhookDeliveries,
  webhookEndpoints,
} from "../../db/schema.ts";
import { createId } from "../../lib/ids.ts";
import { toPaymentResponse } from "../payments/views.ts";

const WEBHOOK_TYPES = new Set<string>(WEBHOOK_EVENTS);
/** The events that send payment emails (the merchant's notification, the payer's receipt). */
export const EMAIL_EVENTS = new Set<string>(["payment.completed", "payment.paid_late"]);

type OutboxEvent = {
  seq: string;
  id: string;
  paymentId: string;
  merchantId: string;
  type: string;
  createdAt: Date;
};

export type DispatchResult = { events: number; deliveries: number; emails: number };

/**
 * Stores what each undispatched outbox event must cause, in one transaction with marking it dispatched
 * (decision 016): a webhook delivery per enabled endpoint subscribed to its type (the body fixed now, from the
 * payment as it is at the event), and for a completed or late-paid payment its emails. The events are claimed
 * with FOR NO KEY UPDATE SKIP LOCKED, so two instances never store the same event's rows twice (and the unique keys
 * would refuse it anyway). Only dispatchers lock the event rows: the live publisher claims its own queue's rows
 * (decision 031), so holding an event here never hides it from the live channel; an event skipped here is another
 * dispatcher's, and the runner's poll takes any a rolled-back claim leaves.
 */
export async function dispatchEvents(
  db: Db,
  options: { limit: number; baseUrl: string },
): Promise<DispatchResult> {
  return db.transaction(async (tx) => {
    const claimed = rowsOf<{
      seq: string;
      id: string;
      paymentId: string;
      merchantId: string;
      type: string;
      createdAt: Date | string;
    }>(
      await tx.execute(sql`
        update payment_events set dispatched_at = now()
        where seq in (select seq from payment_events where dispatched_at is null order by seq
                      limit ${options.limit} for no key update skip locked)
        returning seq, id, payment_id as "paymentId", merchant_id as "merchantId", type, created_at as "createdAt"`),
    );
    const events: OutboxEvent[] = claimed
      .map((e) => ({ ...e, seq: String(e.seq), createdAt: new Date(e.createdAt) }))
      .sort((a, b) => Number(BigInt(a.seq) - BigInt(b.seq)));
    const relevant = events.filter((e) => WEBHOOK_TYPES.has(e.type) || EMAIL_EVENTS.has(e.type));
    if (relevant.length === 0) return { events: events.length, deliveries: 0, emails: 0 };

    const merchantIds = [...new Set(relevant.map((e) => e.merchantId))];
    const paymentIds = [...new Set(relevant.map((e) => e.paymentId))];
    const [endpointRows, paymentRows] = await Promise.all([
      tx
        .select({
          id: webhookEndpoints.id,
          merchantId: webhookEndpoints.merchantId,
          events: webhookEndpoints.events,
          createdAt: webhookEndpoints.createdAt,
        })
        .from(webhookEndpoints)
        .where(and(inArray(webhookEndpoints.merchantId, merchantIds), eq(webhookEndpoints.enabled, true))),
      tx
        .select({
          payment: payments,
          ownerEmail: users.email,
          notify: users.notifyPaymentEmails,
          contactEmail: merchants.contactEmail,
        })
        .from(payments)
        .innerJoin(merchants, eq(merchants.id, payments.merchantId))
        .innerJoin(users, eq(users.id, merchants.ownerId))
        .where(inArray(payments.id, paymentIds)),
    ]);
    const byPayment = new Map(paymentRows.map((row) => [row.payment.id, row]));

    const deliveries: (typeof webhookDeliveries.$inferInsert)[] = [];
    const emails: (typeof paymentEmails.$inferInsert)[] = [];
    const now = new Date();
    for (const event of relevant) {
      const row = byPayment.get(event.paymentId);
      if (!row) continue;
      if (WEBHOOK_TYPES.has(event.type)) {
        // An endpoint hears what happens from its creation on: an event still in the outbox when it was added
        // (a dispatcher that was stopped, or behind) happened before it and is not its to receive.
        const subscribed = endpointRows.filter(
          (e) =>
            e.merchantId === event.merchantId &&
            e.events.includes(event.type as WebhookEvent) &&
            e.createdAt.getTime() <= event.createdAt.getTime(),
        );
        if (subscribed.length > 0) {
          const body = JSON.stringify({
            type: event.type,
            timestamp: event.createdAt.toISOString(),
            data: toPaymentResponse(row.payment, options.baseUrl),
          });
          for (const endpoint of subscribed) {
            deliveries.push({
              id: createId("whd"),
              messageId: createId("msg"),
              endpointId: endpoint.id,
              merchantId: event.merchantId,
              eventId: event.id,
              eventType: event.type,
              body,
              nextAttemptAt: now,
            });
          }
        }
      }
      // The owner's preference covers both emails (decision 016): a shop that turns them off sends its own.
      if (EMAIL_EVENTS.has(event.type) && row.notify) {
        const base = { eventId: event.id, paymentId: event.paymentId, nextAttemptAt: now };
        emails.push({
          ...base,
          id: createId("pem"),
          kind: "merchant",
          recipient: row.ownerEmail ?? row.contactEmail,
        });
        if (row.payment.payerEmail)
          emails.push({ ...base, id: createId("pem"), kind: "payer", recipient: row.payment.payerEmail });
      }
    }
    if (deliveries.length > 0) await tx.insert(webhookDeliveries).values(deliveries).onConflictDoNothing();
    if (emails.length > 0) await tx.insert(paymentEmails).values(emails).onConflictDoNothing();
    return { events: events.length, deliveries: deliveries.length, emails: emails.length };
  });
}
