import * as z from "zod";
import { calendarDate } from "./dates.ts";

/**
 * Every action the audit log records. Others add theirs here (refunds, team) and call `recordAudit` in the
 * transaction of the action.
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

export const AUDIT_ACTION_LABELS: Record<AuditAction, string> = {
  "auth.sign_in": "Signed in",
  "auth.sign_in_failed": "Failed sign-in",
  "auth.sign_out": "Signed out",
  "two_factor.enabled": "Two-factor sign-in turned on",
  "two_factor.disabled": "Two-factor sign-in turned off",
  "two_factor.recovery_codes_regenerated": "Recovery codes regenerated",
  "two_factor.required_changed": "Two-factor requirement changed",
  "passkey.added": "Passkey added",
  "passkey.removed": "Passkey removed",
  "api_key.created": "API key created",
  "api_key.revoked": "API key revoked",
  "webhook.created": "Webhook endpoint created",
  "webhook.updated": "Webhook endpoint changed",
  "webhook.deleted": "Webhook endpoint deleted",
  "webhook.secret_rotated": "Webhook secret rotated",
  "merchant.wallet_changed": "Receiving address changed",
  "merchant.embed_origins_changed": "Pay button origins changed",
  "link.created": "Payment link created",
  "link.updated": "Payment link changed",
  "link.switched_off": "Payment link switched off",
  "link.switched_on": "Payment link switched on",
  "refund.recorded": "Refund recorded",
  "refund.link_created": "Refund link created",
  "transfer.dismissed": "Transfer dismissed as not a payment",
  "member.invited": "Member invited",
  "invitation.revoked": "Invitation revoked",
  "member.joined": "Invitation accepted",
  "member.role_changed": "Member role changed",
  "member.removed": "Member removed",
  "ownership.transferred": "Ownership transferred",
};

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
