import {
  type CreateWebhookEndpointRequest,
  type UpdateWebhookEndpointRequest,
  WEBHOOK_TEST_EVENT,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEndpointWithSecret,
} from "@common/webhooks.ts";
import type { Db } from "../../db/client.ts";
import { AppError } from "../../errors.ts";
import { createId } from "../../lib/ids.ts";
import { type AuditContext, recordAudit } from "../audit/record.ts";
import type { MemberMerchant } from "../merchants/service.ts";

/** The signed-in owner acting, with where they act from (for the audit log). */
type Actor = AuditContext & { userId: string };

import * as repo from "./repository.ts";
import { generateSecret } from "./signing.ts";
import { parseTargetUrl, resolveTarget, type TargetPolicy, UnsafeTargetError } from "./ssrf.ts";

/** After a rotation, the previous secret signs too for this long (receivers switch over meanwhile). */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;
export const MAX_ENDPOINTS = 20;
const DELIVERY_PAGE = 50;

export type WebhooksDeps = {
  db: Db;
  allowPrivate: TargetPolicy;
  /** Wakes the delivery runner (a test event or a replay is sent at once). */
  wake: () => void;
};

export function toEndpointResponse(row: repo.EndpointRow, now = new Date()): WebhookEndpoint {
  const overlap =
    row.previousSecretExpiresAt && row.previousSecretExpiresAt > now ? row.previousSecretExpiresAt : null;
  return {
    id: row.id,
    url: row.url,
    events: row.events as WebhookEndpoint["events"],
    enabled: row.enabled,
    disabledReason: row.disabledReason,
    previousSecretExpiresAt: overlap?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function toDeliveryResponse(row: repo.DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    messageId: row.messageId,
    eventType: row.eventType,
    eventId: row.eventId,
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: row.status === "pending" ? (row.nextAttemptAt?.toISOString() ?? null) : null,
    lastAttemptAt: row.lastAttemptAt?.toISOString() ?? null,
    lastStatusCode: row.lastStatusCode,
    lastError: row.lastError,
    lastResponse: row.lastResponse,
    payload: row.body,
    deliveredAt: row.deliveredAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The URL's form, then (after DNS) every address it resolves to: a clear 400 for anything refused. */
async function checkTarget(url: string, allowPrivate: TargetPolicy) {
  try {
    parseTargetUrl(url, allowPrivate);
    await resolveTarget(url, allowPrivate);
  } catch (error) {
    if (error instanceof UnsafeTargetError)
      throw new AppError("VALIDATION_ERROR", error.message, { field: "url", ...error.details });
    throw error;
  }
}

export async function listEndpoints(deps: WebhooksDeps, ownerId: string) {
  const rows = await repo.listEndpointsOfOwner(deps.db, ownerId);
  return { items: rows.map((row) => toEndpointResponse(row)), localTargets: deps.allowPrivate !== false };
}

export async function createEndpoint(
  deps: WebhooksDeps,
  actor: Actor,
  /** The business as the route's access check found it (owner or admin). */
  merchant: MemberMerchant,
  input: CreateWebhookEndpointRequest & { events: WebhookEndpoint["events"] },
): Promise<WebhookEndpointWithSecret> {
  await checkTarget(input.url, deps.allowPrivate);
  if ((await repo.countEndpointsOfMerchant(deps.db, merchant.id)) >= MAX_ENDPOINTS)
    throw new AppError("CONFLICT", `A business can have at most ${MAX_ENDPOINTS} webhook endpoints.`);
  const secret = generateSecret();
  const row = await deps.db.transaction(async (tx) => {
    const inserted = await repo.insertEndpoint(tx, {
      id: createId("whe"),
      merchantId: merchant.id,
      url: new URL(input.url).toString(),
      events: input.events,
      secret,
    });
    await recordAudit(tx, actor, {
      action: "webhook.created",
      businessId: merchant.id,
      target: inserted.id,
      metadata: { url: inserted.url, events: inserted.events },
    });
    return inserted;
  });
  return { ...toEndpointResponse(row), secret };
}

async function requireEndpoint(deps: WebhooksDeps, ownerId: string, id: string) {
  const row = await repo.findEndpointOfOwner(deps.db, ownerId, id);
  if (!row) throw new AppError("NOT_FOUND", "No webhook endpoint has this id.");
  return row;
}

export async function updateEndpoint(
  deps: WebhooksDeps,
  actor: Actor,
  id: string,
  input: UpdateWebhookEndpointRequest & { events?: WebhookEndpoint["events"] },
) {
  const row = await deps.db.transaction(async (tx) => {
    const updated = await repo.updateEndpointOfOwner(tx, actor.userId, id, {
      ...(input.events ? { events: input.events } : {}),
      ...(input.enabled !== undefined ? { enabled: input.enabled, disabledReason: null } : {}),
    });
    if (!updated) throw new AppError("NOT_FOUND", "No webhook endpoint has this id.");
    await recordAudit(tx, actor, {
      action: "webhook.updated",
      businessId: updated.merchantId,
      target: updated.id,
      metadata: {
        ...(input.events ? { events: input.events } : {}),
        ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
      },
    });
    return updated;
  });
  // Deliveries held while it was disabled go out now.
  if (input.enabled) deps.wake();
  return toEndpointResponse(row);
}

/** A new secret, shown once; the previous one keeps signing for ROTATION_OVERLAP_MS. */
export async function rotateSecret(
  deps: WebhooksDeps,
  actor: Actor,
  id: string,
  now = new Date(),
): Promise<WebhookEndpointWithSecret> {
  const current = await requireEndpoint(deps, actor.userId, id);
  const secret = generateSecret();
  const row = await deps.db.transaction(async (tx) => {
    const updated = await repo.updateEndpointOfOwner(tx, actor.userId, id, {
      secret,
      previousSecret: current.secret,
      previousSecretExpiresAt: new Date(now.getTime() + ROTATION_OVERLAP_MS),
    });
    if (!updated) throw new AppError("NOT_FOUND", "No webhook endpoint has this id.");
    await recordAudit(tx, actor, {
      action: "webhook.secret_rotated",
      businessId: updated.merchantId,
      target: id,
    });
    return updated;
  });
  return { ...toEndpointResponse(row, now), secret };
}

export async function deleteEndpoint(deps: WebhooksDeps, actor: Actor, id: string) {
  const current = await requireEndpoint(deps, actor.userId, id);
  await deps.db.transaction(async (tx) => {
    if (!(await repo.deleteEndpointOfOwner(tx, actor.userId, id)))
      throw new AppError("NOT_FOUND", "No webhook endpoint has this id.");
    await recordAudit(tx, actor, {
      action: "webhook.deleted",
      businessId: current.merchantId,
      target: id,
      metadata: { url: current.url },
    });
  });
}

export async function listDeliveries(deps: WebhooksDeps, ownerId: string, endpointId: string) {
  await requireEndpoint(deps, ownerId, endpointId);
  const rows = await repo.listDeliveriesOfOwner(deps.db, ownerId, endpointId, DELIVERY_PAGE);
  return { items: rows.map(toDeliveryResponse) };
}

export async function replayDelivery(deps: WebhooksDeps, ownerId: string, id: string) {
  const row = await repo.replayDeliveryOfOwner(deps.db, ownerId, id, new Date());
  if (!row) {
    if (await repo.findDeliveryOfOwner(deps.db, ownerId, id))
      throw new AppError("CONFLICT", "This delivery is being sent right now; try again in a moment.");
    throw new AppError("NOT_FOUND", "No webhook delivery has this id.");
  }
  deps.wake();
  return toDeliveryResponse(row);
}

/** A `webhook.test` event, signed and sent like any other (its delivery shows in the log). */
export async function sendTestEvent(deps: WebhooksDeps, ownerId: string, endpointId: string) {
  const endpoint = await requireEndpoint(deps, ownerId, endpointId);
  if (!endpoint.enabled)
    throw new AppError("CONFLICT", "Enable the endpoint before sending it a test event.", {
      reason: "endpoint_disabled",
    });
  const now = new Date();
  const body = JSON.stringify({
    type: WEBHOOK_TEST_EVENT,
    timestamp: now.toISOString(),
    data: { endpointId: endpoint.id, message: "A test event from CPXTB Pay." },
  });
  const row = await repo.insertDelivery(deps.db, {
    id: createId("whd"),
    messageId: createId("msg"),
    endpointId: endpoint.id,
    merchantId: endpoint.merchantId,
    eventId: null,
    eventType: WEBHOOK_TEST_EVENT,
    body,
    nextAttemptAt: now,
  });
  deps.wake();
  return toDeliveryResponse(row);
}
