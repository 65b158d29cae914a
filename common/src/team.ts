import * as z from "zod";
import "./zod-messages.ts";
import { type MemberRole, memberRole } from "./merchant.ts";

/** What each role may do (decision 021). The server checks it inside its queries; the client only hides. */
export const MANAGER_ROLES = ["owner", "admin"] as const;
export const ALL_ROLES = ["owner", "admin", "staff"] as const;
export const OWNER_ONLY = ["owner"] as const;

/** The roles an invitation can give: ownership is only ever transferred. */
export const invitableRole = z.enum(["admin", "staff"]);
export type InvitableRole = z.infer<typeof invitableRole>;

/**
 * Who may invite (and whose invitation may still be accepted) for each role an invitation gives: checked when the
 * invitation is sent and again, under a lock on the inviter's membership, when it is accepted.
 */
export const INVITER_ROLES = {
  admin: MANAGER_ROLES,
  staff: MANAGER_ROLES,
} as const satisfies Record<InvitableRole, readonly MemberRole[]>;

export function mayInvite(inviterRole: MemberRole | null | undefined, role: InvitableRole): boolean {
  return inviterRole != null && (INVITER_ROLES[role] as readonly MemberRole[]).includes(inviterRole);
}

export const INVITATION_TTL_DAYS = 7;

export const memberResponse = z.object({
  userId: z.string(),
  username: z.string(),
  email: z.string().nullable(),
  role: memberRole,
  joinedAt: z.string(),
  /** Whether the member can sign in with a second factor (the business may require it). */
  twoFactor: z.boolean(),
});
export type Member = z.infer<typeof memberResponse>;

export const invitationResponse = z.object({
  id: z.string(),
  email: z.string(),
  role: invitableRole,
  createdAt: z.string(),
  expiresAt: z.string(),
  invitedBy: z.string().nullable(),
});
export type Invitation = z.infer<typeof invitationResponse>;

export const teamResponse = z.object({
  businessName: z.string(),
  role: memberRole,
  members: z.array(memberResponse),
  invitations: z.array(invitationResponse),
});
export type Team = z.infer<typeof teamResponse>;

export const inviteMemberRequest = z.object({
  email: z.email("Enter a valid email address.").max(254),
  role: invitableRole,
});
export type InviteMemberRequest = z.infer<typeof inviteMemberRequest>;

export const changeRoleRequest = z.object({ role: invitableRole });
export const transferOwnershipRequest = z.object({ userId: z.string().min(1).max(64) });
export const memberParams = z.object({ userId: z.string().min(1).max(64) });
export const invitationParams = z.object({ id: z.string().min(1).max(64) });

/** Invitation tokens are 256-bit base64url. */
export const invitationTokenParams = z.object({
  token: z.string().regex(/^[A-Za-z0-9_-]{43}$/, "This invitation link is malformed."),
});

/** What the invitation page shows before accepting: never whether the email has an account. */
export const invitationPreviewResponse = z.object({
  businessName: z.string(),
  role: invitableRole,
  email: z.string(),
  expiresAt: z.string(),
});
export type InvitationPreview = z.infer<typeof invitationPreviewResponse>;

export const acceptInvitationResponse = z.object({
  merchantId: z.string(),
  businessName: z.string(),
  role: memberRole,
});

export const businessSummary = z.object({
  merchantId: z.string(),
  name: z.string(),
  role: memberRole,
  active: z.boolean(),
});
export const businessesResponse = z.object({ items: z.array(businessSummary) });
export type BusinessSummary = z.infer<typeof businessSummary>;

export const switchBusinessRequest = z.object({ merchantId: z.string().min(1).max(64).nullable() });
