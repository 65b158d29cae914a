import * as z from "zod";
import { calendarDate } from "./dates.ts";

/**
 * Every action the audit log records. Others add theirs here (refunds, team) and call `recordAudit` in the
 * transaction of the action; its name, in every language, goes into the `team` catalogs (`team.auditAction.*`,
 * named in client/src/features/audit/components/audit-log.tsx).
 */
export const AUDIT_ACTIONS = [
  "auth.sign_in",
  "auth.sign_in_failed",
  "auth.sign_out",
  "two_factor.enabled",
  "two_factor.disabled",
  "two_factor.recovery_codes_regenerated",
  "two_factor.required_changed",
  "passkey.added",
  "passkey.removed",
  "api_key.created",
  "api_key.revoked",
  "webhook.created",
  "webhook.updated",
  "webhook.deleted",
  "webhook.secret_rotated",
  "merchant.wallet_changed",
  "merchant.embed_origins_changed",
  "link.created",
  "link.updated",
  "link.switched_off",
  "link.switched_on",
  "refund.recorded",
  "refund.link_created",
  "transfer.dismissed",
  "member.invited",
  "invitation.revoked",
  "member.joined",
  "member.role_changed",
  "member.removed",
  "ownership.transferred",
] as const;
export const auditAction = z.enum(AUDIT_ACTIONS);
export type AuditAction = z.infer<typeof auditAction>;

export const auditEventsQuery = z.object({
  action: auditAction.optional(),
  /** Inclusive UTC days. */
  from: calendarDate.optional(),
  to: calendarDate.optional(),
  /** Opaque: the last row's id of the previous page. */
  cursor: z
    .string()
    .regex(/^aud_[0-9a-z]{26}$/, "Unknown cursor")
    .optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
export type AuditEventsQuery = z.input<typeof auditEventsQuery>;

export const auditEventResponse = z.object({
  id: z.string(),
  action: auditAction,
  actor: z.string().nullable(),
  target: z.string().nullable(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  metadata: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
});
export type AuditEvent = z.infer<typeof auditEventResponse>;

export const auditEventsResponse = z.object({
  items: z.array(auditEventResponse),
  nextCursor: z.string().nullable(),
});
