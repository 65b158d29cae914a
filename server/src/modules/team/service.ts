import { type Locale, matchLocale } from "@common/locales.ts";
import type { MemberRole } from "@common/merchant.ts";
import {
  INVITATION_TTL_DAYS,
  type Invitation,
  type InviteMemberRequest,
  invitableRole,
  MANAGER_ROLES,
  mayInvite,
  type Team,
} from "@common/team.ts";
import type { Config } from "../../config.ts";
import type { Db, DbOrTx } from "../../db/client.ts";
import { AppError } from "../../errors.ts";
import { createId, createToken } from "../../lib/ids.ts";
import type { Mailer } from "../../lib/mailer.ts";
import { type AuditContext, recordAudit } from "../audit/record.ts";
import { isUniqueViolation } from "../auth/service.ts";
import { hashToken } from "../auth/session.ts";
import type { SessionCache } from "../auth/session-cache.ts";
import { setActiveMerchant } from "../merchants/repository.ts";
import { type MemberMerchant, requireMerchant } from "../merchants/service.ts";
import { invitationEmail } from "./invitation-email.ts";
import * as repo from "./repository.ts";

export type TeamDeps = { db: Db; config: Config; mailer: Mailer; sessions: SessionCache; now?: () => Date };
export type Actor = AuditContext & { userId: string };

const DAY_MS = 24 * 60 * 60 * 1000;
const now = (deps: TeamDeps) => deps.now?.() ?? new Date();

function toInvitation(row: repo.InvitationRow, invitedBy: string | null): Invitation {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    invitedBy,
  };
}

/**
 * The team page. The routes' access check (merchants/access.ts) let the actor through already; the business and
 * the actor's role are read here again because an action just answered (a transfer) may have changed them.
 */
export async function getTeam(deps: TeamDeps, userId: string): Promise<Team> {
  const merchant = await requireMerchant(deps.db, userId, MANAGER_ROLES);
  const [members, invitations] = await Promise.all([
    repo.listMembers(deps.db, userId),
    repo.listPendingInvitations(deps.db, userId, now(deps)),
  ]);
  return {
    businessName: merchant.name,
    role: merchant.role,
    members: members.map((m) => ({
      userId: m.userId,
      username: m.username,
      email: m.email,
      role: m.role,
      joinedAt: m.joinedAt.toISOString(),
      twoFactor: m.twoFactor,
    })),
    invitations: invitations.map((i) => toInvitation(i.invitation, i.invitedBy)),
  };
}

/**
 * Invites by email: a 256-bit token in the link, only its SHA-256 stored, 7 days, single use. The answer is the
 * same whether or not the address has an account (only the email's language depends on it, and the inviter never
 * reads the email). `inviterLanguage`: the inviter's own (their account's, else their browser's).
 */
export async function inviteMember(
  deps: TeamDeps,
  actor: Actor,
  merchant: MemberMerchant,
  input: InviteMemberRequest,
  inviterLanguage: Locale,
) {
  const token = createToken(32);
  const at = now(deps);
  const email = input.email.trim().toLowerCase();
  const row = await deps.db.transaction(async (tx) => {
    // The inviter's membership row is held until the invitation is written: a removal or demotion racing this
    // either waits and then withdraws the new invitation, or has already happened and nothing is written.
    if (!mayInvite(await repo.lockInviterRole(tx, merchant.id, actor.userId), input.role))
      throw new AppError("FORBIDDEN", "You no longer manage this business.");
    const inserted = await repo.insertInvitation(tx, actor.userId, {
      id: createId("inv"),
      email,
      role: input.role,
      tokenHash: hashToken(token),
      invitedBy: actor.userId,
      expiresAt: new Date(at.getTime() + INVITATION_TTL_DAYS * DAY_MS),
      createdAt: at,
    });
    if (!inserted) throw new AppError("FORBIDDEN", "You no longer manage this business.");
    await recordAudit(tx, actor, {
      action: "member.invited",
      businessId: inserted.merchantId,
      target: inserted.id,
      metadata: { email, role: input.role },
    });
    return inserted;
  });
  const link = `${deps.config.publicUrl}/invitations/${token}`;
  // The invitee's language when the address is an account's; else the inviter's, since whoever invites a colleague
  // most likely shares a language with them, where English would be a guess (issue 37).
  const language = matchLocale(await repo.findLocaleOfEmail(deps.db, email)) ?? inviterLanguage;
  try {
    await deps.mailer.send(
      invitationEmail(email, language, { business: merchant.name, role: input.role, link }),
    );
  } catch {
    // The link exists only in this message: without it the invitation cannot be used, so say so.
    throw new AppError(
      "BAD_GATEWAY",
      "The invitation was saved but its email could not be sent. Revoke it and invite again in a moment.",
    );
  }
  return toInvitation(row, null);
}

export async function revokeInvitation(deps: TeamDeps, actor: Actor, id: string) {
  await deps.db.transaction(async (tx) => {
    const row = await repo.revokeInvitation(tx, actor.userId, id, now(deps));
    if (!row) throw new AppError("NOT_FOUND", "No pending invitation has this id.");
    await recordAudit(tx, actor, {
      action: "invitation.revoked",
      businessId: row.merchantId,
      target: row.id,
      metadata: { email: row.email, role: row.role },
    });
  });
}

/** Why an invitation can no longer be used, in words (410), or 404 when the token is unknown. */
function unusable(found: Awaited<ReturnType<typeof repo.findInvitationByTokenHash>>, at: Date): AppError {
  if (!found)
    return new AppError("NOT_FOUND", "This invitation link is not valid. Ask for a new invitation.");
  const { invitation } = found;
  if (invitation.acceptedAt)
    return new AppError("GONE", "This invitation was already used. Ask for a new one.");
  if (invitation.revokedAt) return new AppError("GONE", "This invitation was withdrawn. Ask for a new one.");
  if (invitation.expiresAt.getTime() <= at.getTime())
    return new AppError("GONE", "This invitation has expired (they last 7 days). Ask for a new one.");
  return new AppError("CONFLICT", "This invitation cannot be used now. Try again.");
}

/** Sent by someone who may no longer invite for this role (removed, demoted): withdrawn, as their actions revoke. */
const inviterGone = () =>
  new AppError(
    "GONE",
    "This invitation was withdrawn: the person who sent it can no longer invite to this business. Ask its owner for a new one.",
  );

export async function previewInvitation(deps: TeamDeps, token: string) {
  const found = await repo.findInvitationByTokenHash(deps.db, hashToken(token));
  const at = now(deps);
  if (
    !found ||
    found.invitation.acceptedAt ||
    found.invitation.revokedAt ||
    found.invitation.expiresAt.getTime() <= at.getTime()
  )
    throw unusable(found, at);
  if (!mayInvite(found.inviterRole, found.invitation.role)) throw inviterGone();
  return {
    businessName: found.businessName,
    role: found.invitation.role,
    email: found.invitation.email,
    expiresAt: found.invitation.expiresAt.toISOString(),
  };
}

/**
 * Accepts with the signed-in account, all in one transaction: the inviter's membership row is locked and their
 * role checked (an invitation counts only while its sender may still invite for that role: a removed or demoted
 * admin's invitations bring nobody in, even one racing the removal), then one conditional update spends the
 * invitation (reuse, revocation and expiry refused by the same statement), the membership is inserted and becomes
 * the business the user acts for, and the audit row is written.
 */
export async function acceptInvitation(deps: TeamDeps, actor: Actor, token: string) {
  const tokenHash = hashToken(token);
  const at = now(deps);
  return deps.db.transaction(async (tx) => {
    const found = await repo.findInvitationByTokenHash(tx, tokenHash);
    if (!found) throw unusable(found, at);
    const inviterRole = await repo.lockInviterRole(
      tx,
      found.invitation.merchantId,
      found.invitation.invitedBy,
    );
    const invitation = await repo.consumeInvitation(tx, tokenHash, actor.userId, at);
    if (!invitation) throw unusable(await repo.findInvitationByTokenHash(tx, tokenHash), at);
    if (!mayInvite(inviterRole, invitation.role)) throw inviterGone();
    if (!(await repo.insertMember(tx, invitation.merchantId, actor.userId, invitation.role)))
      throw new AppError("CONFLICT", "You are already a member of this business.");
    await setActiveMerchant(tx, actor.userId, invitation.merchantId);
    await recordAudit(tx, actor, {
      action: "member.joined",
      businessId: invitation.merchantId,
      target: actor.userId,
      metadata: { invitationId: invitation.id, role: invitation.role, email: invitation.email },
    });
    return { merchantId: invitation.merchantId, businessName: found.businessName, role: invitation.role };
  });
}

/**
 * Withdraws, in the caller's transaction, the pending invitations `inviterId` sent that their new role (null:
 * removed, or no longer the owner) may not send, with one audit row each.
 */
async function revokeSentBy(
  tx: DbOrTx,
  actor: Actor,
  at: Date,
  merchantId: string,
  inviterId: string,
  newRole: MemberRole | null,
) {
  const roles = invitableRole.options.filter((role) => !mayInvite(newRole, role));
  const revoked = await repo.revokeInvitationsSentBy(tx, merchantId, inviterId, roles, at);
  for (const row of revoked) {
    await recordAudit(tx, actor, {
      action: "invitation.revoked",
      businessId: merchantId,
      target: row.id,
      metadata: { email: row.email, role: row.role, reason: "inviter_lost_role", inviter: inviterId },
    });
  }
}

export async function changeRole(deps: TeamDeps, actor: Actor, userId: string, role: "admin" | "staff") {
  if (userId === actor.userId) throw new AppError("CONFLICT", "You cannot change your own role.");
  await deps.db.transaction(async (tx) => {
    const row = await repo.updateMemberRole(tx, actor.userId, userId, role);
    if (!row)
      throw new AppError(
        "NOT_FOUND",
        "No member of your business with this id (the owner's role is changed only by transferring ownership).",
      );
    // Invitations they sent count only while they may still send them: withdrawn with the role they needed.
    await revokeSentBy(tx, actor, now(deps), row.merchantId, userId, role);
    await recordAudit(tx, actor, {
      action: "member.role_changed",
      businessId: row.merchantId,
      target: userId,
      metadata: { role },
    });
  });
  await deps.sessions.changed(userId, { ended: true });
}

export async function removeMember(deps: TeamDeps, actor: Actor, userId: string) {
  await deps.db.transaction(async (tx) => {
    const row = await repo.deleteMember(tx, actor.userId, userId);
    if (!row)
      throw new AppError(
        "NOT_FOUND",
        "No member of your business with this id (the owner cannot be removed).",
      );
    await revokeSentBy(tx, actor, now(deps), row.merchantId, userId, null);
    await recordAudit(tx, actor, {
      action: "member.removed",
      businessId: row.merchantId,
      target: userId,
      metadata: { role: row.role },
    });
  });
  // Their live dashboard feed is re-checked now (on every instance) and ends.
  await deps.sessions.changed(userId, { ended: true });
}

export async function transferOwnership(
  deps: TeamDeps,
  actor: Actor,
  merchant: MemberMerchant,
  newOwnerId: string,
) {
  if (newOwnerId === actor.userId) throw new AppError("CONFLICT", "You already own this business.");
  try {
    await deps.db.transaction(async (tx) => {
      const target = await repo.findMember(tx, merchant.id, newOwnerId);
      if (!target) throw new AppError("NOT_FOUND", "No member of your business with this id.");
      if (!(await repo.transferOwnership(tx, actor.userId, merchant.id, newOwnerId)))
        throw new AppError("FORBIDDEN", "Only the owner can transfer ownership.");
      // The former owner stays on as admin of this business (it is no longer "the one they own"); what they sent
      // as the owner is withdrawn with the ownership (the new owner decides who joins from now on).
      await setActiveMerchant(tx, actor.userId, merchant.id);
      await revokeSentBy(tx, actor, now(deps), merchant.id, actor.userId, null);
      await recordAudit(tx, actor, {
        action: "ownership.transferred",
        businessId: merchant.id,
        target: newOwnerId,
        metadata: { from: actor.userId, to: newOwnerId, previousRole: target.role },
      });
    });
  } catch (error) {
    if (
      isUniqueViolation(error, "business_members_owns_one_key") ||
      isUniqueViolation(error, "merchants_owner_id_key")
    )
      throw new AppError(
        "CONFLICT",
        "That member already owns another business; a person can own one business.",
      );
    throw error;
  }
  await deps.sessions.changed(actor.userId, { ended: true });
}

export async function listBusinesses(deps: TeamDeps, userId: string) {
  const rows = await repo.listBusinessesOfUser(deps.db, userId);
  return {
    items: rows.map((r) => ({
      merchantId: r.merchantId,
      name: r.name,
      role: r.role as MemberRole,
      active: r.active === true,
    })),
  };
}

/** Which business the user's requests act for: one they are a member of, or null for the one they own. */
export async function switchBusiness(deps: TeamDeps, userId: string, merchantId: string | null) {
  if (merchantId) {
    const member = await repo.findMember(deps.db, merchantId, userId);
    if (!member) throw new AppError("NOT_FOUND", "You are not a member of that business.");
  }
  await setActiveMerchant(deps.db, userId, merchantId);
  await deps.sessions.changed(userId, { ended: true });
  return listBusinesses(deps, userId);
}
