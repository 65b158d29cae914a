import type { AuditAction } from "@common/audit.ts";
import type { FastifyRequest } from "fastify";
import type { DbOrTx } from "../../db/client.ts";
import { auditEvents } from "../../db/schema.ts";
import { createId } from "../../lib/ids.ts";

export type { AuditAction } from "@common/audit.ts";

/** Who did it and from where: built once per request by `auditContext`. */
export type AuditContext = { userId: string | null; ip: string | null; userAgent: string | null };

export type AuditEventInput = {
  action: AuditAction;
  /** The business the action concerns (`mer_...`); null when the user has none (then only they see it). */
  businessId: string | null;
  /** What was acted on: an API key id, an endpoint id, an address, a passkey id… */
  target?: string | null;
  /** Never secrets: names, counts, old/new values that are not secret. */
  metadata?: Record<string, unknown>;
};

export function auditContext(request: FastifyRequest, userId: string | null): AuditContext {
  const agent = request.headers["user-agent"];
  return { userId, ip: request.ip ?? null, userAgent: agent ? agent.slice(0, 300) : null };
}

/** The context of a signed-in request (its user is the actor). */
export function ownerContext(request: FastifyRequest, auth: { user: { id: string } }) {
  return auditContext(request, auth.user.id) as AuditContext & { userId: string };
}

/**
 * Appends one audit row. Call it with the transaction of the action it records, so both commit or neither does
 * (the table refuses UPDATE and DELETE; there is no other write path).
 */
export async function recordAudit(tx: DbOrTx, context: AuditContext, event: AuditEventInput): Promise<void> {
  await tx.insert(auditEvents).values({
    id: createId("aud"),
    userId: context.userId,
    businessId: event.businessId,
    action: event.action,
    target: event.target ?? null,
    ip: context.ip,
    userAgent: context.userAgent,
    metadata: event.metadata ?? {},
  });
}
