import * as z from "zod";
import "./zod-messages.ts";

/** The payment events a webhook endpoint can subscribe to (decision 016). */
export const WEBHOOK_EVENTS = [
  "payment.created",
  "payment.processing",
  "payment.partial",
  "payment.completed",
  "payment.expired",
  "payment.paid_late",
  "payment.invalid",
  "payment.cancelled",
  "payment.refunded",
] as const;
export const webhookEvent = z.enum(WEBHOOK_EVENTS);
export type WebhookEvent = z.infer<typeof webhookEvent>;
/** The type of the event "Send test event" sends (not subscribable; every endpoint accepts it). */
export const WEBHOOK_TEST_EVENT = "webhook.test";

export const WEBHOOK_EVENT_LABELS: Record<WebhookEvent, string> = {
  "payment.created": "Payment created",
  "payment.processing": "Payment seen (processing)",
  "payment.partial": "Partly paid",
  "payment.completed": "Payment completed",
  "payment.expired": "Payment expired",
  "payment.paid_late": "Paid after expiry",
  "payment.invalid": "Payment invalid",
  "payment.cancelled": "Payment cancelled by the business",
  "payment.refunded": "Refund sent (in part or in full)",
};

export const WEBHOOK_URL_MAX = 2048;

/**
 * Whether an endpoint URL points at this machine by name (`localhost`) or loopback address (`127.x.x.x`, `[::1]`):
 * accepted on a development install only, labelled "development only".
 */
export function isLoopbackUrl(url: string | URL): boolean {
  let host: string;
  try {
    host = (typeof url === "string" ? new URL(url) : url).hostname.toLowerCase();
  } catch {
    return false;
  }
  return host === "localhost" || /^127(\.\d{1,3}){3}$/.test(host) || host === "[::1]";
}

const eventList = z
  .array(webhookEvent)
  .min(1, "Choose at least one event.")
  .max(WEBHOOK_EVENTS.length)
  .transform((events) => [...new Set(events)]);

export const createWebhookEndpointRequest = z.object({
  url: z.string().trim().min(1, "Enter the URL.").max(WEBHOOK_URL_MAX),
  /** Every payment event when left out: the merchant narrows it afterwards (or here). */
  events: eventList.default([...WEBHOOK_EVENTS]),
});
export type CreateWebhookEndpointRequest = z.input<typeof createWebhookEndpointRequest>;

export const updateWebhookEndpointRequest = z
  .object({ events: eventList.optional(), enabled: z.boolean().optional() })
  .refine((v) => v.events !== undefined || v.enabled !== undefined, "Nothing to change.");
export type UpdateWebhookEndpointRequest = z.input<typeof updateWebhookEndpointRequest>;

export const webhookEndpoint = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(webhookEvent),
  enabled: z.boolean(),
  /** Why the server turned it off (it answered 410 Gone); null otherwise. */
  disabledReason: z.string().nullable(),
  /** Until when the previous secret still signs too (after a rotation); null when only one secret signs. */
  previousSecretExpiresAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type WebhookEndpoint = z.infer<typeof webhookEndpoint>;

/** The answer to creating an endpoint or rotating its secret: the only time the secret is shown. */
export const webhookEndpointWithSecret = webhookEndpoint.extend({ secret: z.string() });
export type WebhookEndpointWithSecret = z.infer<typeof webhookEndpointWithSecret>;

export const webhookEndpointList = z.object({
  items: z.array(webhookEndpoint),
  /**
   * A development install: endpoints on this machine (`http://127.0.0.1`, `http://localhost`) are accepted,
   * "development only". False on a deployment, where only public https addresses are.
   */
  localTargets: z.boolean(),
});

export const webhookDelivery = z.object({
  id: z.string(),
  /** The `webhook-id` header: the same for every attempt of this delivery. */
  messageId: z.string(),
  eventType: z.string(),
  eventId: z.string().nullable(),
  status: z.enum(["pending", "delivered", "failed"]),
  attempts: z.number().int(),
  nextAttemptAt: z.string().nullable(),
  lastAttemptAt: z.string().nullable(),
  lastStatusCode: z.number().int().nullable(),
  lastError: z.string().nullable(),
  /** The start of the endpoint's last answer (at most 1 KB). */
  lastResponse: z.string().nullable(),
  /** The JSON body that was sent (the same bytes every attempt signs). */
  payload: z.string(),
  deliveredAt: z.string().nullable(),
  createdAt: z.string(),
});
export type WebhookDelivery = z.infer<typeof webhookDelivery>;
export const webhookDeliveryList = z.object({ items: z.array(webhookDelivery) });

export const webhookEndpointParams = z.object({
  id: z.string().regex(/^whe_[0-9a-z]{26}$/, "unknown webhook endpoint"),
});
export const webhookDeliveryParams = z.object({
  id: z.string().regex(/^whd_[0-9a-z]{26}$/, "unknown webhook delivery"),
});
