import type { MemberRole } from "@common/merchant.ts";
import { INVITER_ROLES, type InvitableRole, MANAGER_ROLES } from "@common/team.ts";
import { and, asc, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import { type DbOrTx, rowsOf } from "../../db/client.ts";
import { businessInvitations, businessMembers, merchants, users } from "../../db/schema.ts";
import { merchantIdOf } from "../merchants/repository.ts";

export type InvitationRow = typeof businessInvitations.$inferSelect;

/** The business an owner or admin manages: role checked inside every query below (decision 021). */
export const managedMerchantId = (userId: string) => merchantIdOf({ userId, roles: MANAGER_ROLES });

/** The language stored with the account whose verified email is `email` (null: no such account, or none stored). */
export async function findLocaleOfEmail(db: DbOrTx, email: string): Promise<string | null> {
  const [row] = await db
    .select({ locale: users.locale })
    .from(users)
    .where(sql`lower(${users.email}) = lower(${email})`);
  return row?.locale ?? null;
}

export async function listMembers(db: DbOrTx, managerId: string) {
  return db
    .select({
      userId: businessMembers.userId,
      role: businessMembers.role,
      joinedAt: businessMembers.createdAt,
      username: users.username,
      email: users.email,
      twoFactor: sql<boolean>`(exists (select 1 from user_totp t where t.user_id = ${users.id}
        and t.confirmed_at is not null) or exists (select 1 from passkeys p where p.user_id = ${users.id}))`,
    })
    .from(businessMembers)
    .innerJoin(users, eq(users.id, businessMembers.userId))
    .where(eq(businessMembers.merchantId, managedMerchantId(managerId)))
    .orderBy(
      sql`case ${businessMembers.role} when 'owner' then 0 when 'admin' then 1 else 2 end`,
      asc(businessMembers.createdAt),
    );
}

export async function listPendingInvitations(db: DbOrTx, managerId: string, now: Date) {
  return db
    .select({ invitation: businessInvitations, invitedBy: users.username })
    .from(businessInvitations)
    .leftJoin(users, eq(users.id, businessInvitations.invitedBy))
    .where(
      and(
        eq(businessInvitations.merchantId, managedMerchantId(managerId)),
        isNull(businessInvitations.acceptedAt),
        isNull(businessInvitations.revokedAt),
        gt(businessInvitations.expiresAt, now),
      ),
    )
    .orderBy(asc(businessInvitations.createdAt));
}

/** Inserts an invitation for the business the manager acts for; undefined when they no longer manage it. */
export async function insertInvitation(
  tx: DbOrTx,
  managerId: string,
  values: Omit<typeof businessInvitations.$inferInsert, "merchantId">,
): Promise<InvitationRow | undefined> {
  const rows = await tx.execute(sql`
    insert into business_invitations (id, merchant_id, email, role, token_hash, invited_by, expires_at, created_at)
    select ${values.id}, m.id, ${values.email}, ${values.role}, ${values.tokenHash}, ${values.invitedBy ?? null},
      ${values.expiresAt.toISOString()}::timestamptz, ${(values.createdAt ?? new Date()).toISOString()}::timestamptz
    from merchants m where m.id = ${merchantIdOf({ userId: managerId, roles: INVITER_ROLES[values.role] })}
    returning id`);
  if (rowsOf<{ id: string }>(rows).length === 0) return undefined;
  const [row] = await tx.select().from(businessInvitations).where(eq(businessInvitations.id, values.id));
  return row;
}

export async function revokeInvitation(tx: DbOrTx, managerId: string, id: string, now: Date) {
  const [row] = await tx
    .update(businessInvitations)
    .set({ revokedAt: now })
    .where(
      and(
        eq(businessInvitations.id, id),
        eq(businessInvitations.merchantId, managedMerchantId(managerId)),
        isNull(businessInvitations.acceptedAt),
        isNull(businessInvitations.revokedAt),
      ),
    )
    .returning();
  return row;
}

/** The invitation, its business's name and the inviter's role in that business today (null: no longer a member). */
export async function findInvitationByTokenHash(db: DbOrTx, tokenHash: string) {
  const [row] = await db
    .select({
      invitation: businessInvitations,
      businessName: merchants.name,
      inviterRole: sql<MemberRole | null>`(select r.role from business_members r
        where r.merchant_id = ${businessInvitations.merchantId} and r.user_id = ${businessInvitations.invitedBy})`,
    })
    .from(businessInvitations)
    .innerJoin(merchants, eq(merchants.id, businessInvitations.merchantId))
    .where(eq(businessInvitations.tokenHash, tokenHash));
  return row;
}

/**
 * The inviter's role in the business, read with their membership row locked (`for share`) until the accepting
 * transaction ends: a concurrent removal, demotion or ownership transfer (each updates or deletes that row, then
 * revokes the inviter's invitations) waits for the accept, or the accept waits for it and reads the new role.
 * Locked before the invitation row, in the same order as those actions take them, so the two cannot deadlock.
 * Sending an invitation takes the same lock, so one cannot be written behind a removal's withdrawal either.
 */
export async function lockInviterRole(
  tx: DbOrTx,
  merchantId: string,
  inviterId: string | null,
): Promise<MemberRole | null> {
  if (!inviterId) return null;
  const rows = await tx.execute(sql`select role from business_members
    where merchant_id = ${merchantId} and user_id = ${inviterId} for share`);
  return rowsOf<{ role: MemberRole }>(rows)[0]?.role ?? null;
}

/**
 * Withdraws the pending invitations `inviterId` sent for the business for `roles`: run in the transaction that
 * removes or demotes them or moves the ownership away from them, so nothing they sent can bring anyone in afterwards.
 */
export async function revokeInvitationsSentBy(
  tx: DbOrTx,
  merchantId: string,
  inviterId: string,
  roles: readonly InvitableRole[],
  now: Date,
) {
  if (roles.length === 0) return [];
  return tx
    .update(businessInvitations)
    .set({ revokedAt: now })
    .where(
      and(
        eq(businessInvitations.merchantId, merchantId),
        eq(businessInvitations.invitedBy, inviterId),
        inArray(businessInvitations.role, [...roles]),
        isNull(businessInvitations.acceptedAt),
        isNull(businessInvitations.revokedAt),
      ),
    )
    .returning({
      id: businessInvitations.id,
      email: businessInvitations.email,
      role: businessInvitations.role,
    });
}

/** Spends the invitation: true for exactly one caller, and only while it is unused, unrevoked and unexpired. */
export async function consumeInvitation(tx: DbOrTx, tokenHash: string, userId: string, now: Date) {
  const [row] = await tx
    .update(businessInvitations)
    .set({ acceptedAt: now, acceptedBy: userId })
    .where(
      and(
        eq(businessInvitations.tokenHash, tokenHash),
        isNull(businessInvitations.acceptedAt),
        isNull(businessInvitations.revokedAt),
        gt(businessInvitations.expiresAt, now),
      ),
    )
    .returning();
  return row;
}

export async function insertMember(tx: DbOrTx, merchantId: string, userId: string, role: MemberRole) {
  const rows = await tx
    .insert(businessMembers)
    .values({ merchantId, userId, role })
    .onConflictDoNothing()
    .returning({ userId: businessMembers.userId });
  return rows.length > 0;
}

/** `userId`'s membership of the business `managerId` manages, unless it is the owner's (changed only by a transfer). */
const otherThanOwnerIn = (managerId: string, userId: string) =>
  and(
    eq(businessMembers.merchantId, managedMerchantId(managerId)),
    eq(businessMembers.userId, userId),
    sql`${businessMembers.role} <> 'owner'`,
  );

/** Changes a non-owner member's role in the business the manager manages; the owner's row is never touched. */
export async function updateMemberRole(
  tx: DbOrTx,
  managerId: string,
  userId: string,
  role: "admin" | "staff",
) {
  const [row] = await tx
    .update(businessMembers)
    .set({ role })
    .where(otherThanOwnerIn(managerId, userId))
    .returning();
  return row;
}

export async function deleteMember(tx: DbOrTx, managerId: string, userId: string) {
  const [row] = await tx.delete(businessMembers).where(otherThanOwnerIn(managerId, userId)).returning();
  return row;
}

export async function findMember(db: DbOrTx, merchantId: string, userId: string) {
  const [row] = await db
    .select()
    .from(businessMembers)
    .where(and(eq(businessMembers.merchantId, merchantId), eq(businessMembers.userId, userId)));
  return row;
}

/**
 * Hands the business to another member in one transaction: the owner (checked in the query: only the owner's own
 * row matches) becomes admin, the new owner's row and `merchants.owner_id` follow.
 */
export async function transferOwnership(tx: DbOrTx, ownerId: string, merchantId: string, newOwnerId: string) {
  const demoted = await tx
    .update(businessMembers)
    .set({ role: "admin" })
    .where(
      and(
        eq(businessMembers.merchantId, merchantId),
        eq(businessMembers.userId, ownerId),
        eq(businessMembers.role, "owner"),
      ),
    )
    .returning();
  if (demoted.length === 0) return false;
  const promoted = await tx
    .update(businessMembers)
    .set({ role: "owner" })
    .where(and(eq(businessMembers.merchantId, merchantId), eq(businessMembers.userId, newOwnerId)))
    .returning();
  if (promoted.length === 0) return false;
  await tx
    .update(merchants)
    .set({ ownerId: newOwnerId, updatedAt: new Date() })
    .where(and(eq(merchants.id, merchantId), eq(merchants.ownerId, ownerId)));
  return true;
}

export async function listBusinessesOfUser(db: DbOrTx, userId: string) {
  return db
    .select({
      merchantId: businessMembers.merchantId,
      role: businessMembers.role,
      name: merchants.name,
      active: sql<boolean>`${businessMembers.merchantId} = coalesce(
        (select u.active_merchant_id from users u where u.id = ${userId}),
        (select o.merchant_id from business_members o where o.user_id = ${userId} and o.role = 'owner'))`,
    })
    .from(businessMembers)
    .innerJoin(merchants, eq(merchants.id, businessMembers.merchantId))
    .where(eq(businessMembers.userId, userId))
    .orderBy(asc(merchants.name));
}
