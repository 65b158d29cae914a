import type { MemberRole } from "@common/merchant.ts";
import { ALL_ROLES } from "@common/team.ts";
import { and, eq, gt, isNull, type SQL, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.ts";
import { businessMembers, merchants, users, walletChallenges } from "../../db/schema.ts";

export type MerchantRow = typeof merchants.$inferSelect;

/**
 * Whose business a query acts for (decision 021): a user id (any role), a user with the roles allowed, or a
 * merchant id already authenticated otherwise (an API key belongs to one business).
 */
export type MerchantScope =
  | string
  | { userId: string; roles: readonly MemberRole[] }
  | { merchantId: string };

/** The merchant owned by `ownerId`: every merchant read goes through the owner. */
export async function findMerchantByOwner(db: DbOrTx, ownerId: string): Promise<MerchantRow | undefined> {
  const [row] = await db.select().from(merchants).where(eq(merchants.ownerId, ownerId));
  return row;
}

/**
 * The id of the business `user` (an SQL expression) acts for, if they are a member of it with one of `roles`:
 * their active business (`users.active_merchant_id`), else the one they own. A scalar subquery to put inside the
 * query that reads the data (membership and role are checked by that query, never afterwards; a removed member's
 * next query finds nothing). A scalar subquery rather than a join: PostgreSQL then runs it once and reads the
 * merchant's rows through their `(merchant_id, ...)` indexes in order; through a join it walked every merchant's
 * payments in id order, or sorted the merchant's rows for each page.
 */
export function memberMerchantId(user: SQL, roles: readonly MemberRole[] = ALL_ROLES): SQL<string> {
  const allowed = sql.join(
    roles.map((role) => sql`${role}`),
    sql`, `,
  );
  return sql<string>`(select bm.merchant_id from business_members bm
    where bm.user_id = ${user} and bm.role in (${allowed})
      and bm.merchant_id = coalesce(
        (select u.active_merchant_id from users u where u.id = ${user}),
        (select o.merchant_id from business_members o where o.user_id = ${user} and o.role = 'owner')))`;
}

/** The merchant id a scope stands for, as SQL to put in the query's `where`. */
export function merchantIdOf(scope: MerchantScope): SQL<string> {
  if (typeof scope === "string") return memberMerchantId(sql`${scope}`);
  if ("merchantId" in scope) return sql<string>`${scope.merchantId}`;
  return memberMerchantId(sql`${scope.userId}`, scope.roles);
}

export type Membership = {
  activeMerchantId: string | null;
  merchant: MerchantRow | null;
  role: MemberRole | null;
  hasSecondFactor: boolean;
  businessCount: number;
};

/** The business `userId` acts for and their role in it (one query), or `merchant: null`. */
export async function findMembership(db: DbOrTx, userId: string): Promise<Membership | undefined> {
  const [row] = await db
    .select({
      activeMerchantId: users.activeMerchantId,
      merchant: merchants,
      role: businessMembers.role,
      hasSecondFactor: sql<boolean>`(exists (select 1 from user_totp t where t.user_id = ${users.id}
        and t.confirmed_at is not null) or exists (select 1 from passkeys p where p.user_id = ${users.id}))`,
      businessCount: sql<number>`(select count(*)::int from business_members c where c.user_id = ${users.id})`,
    })
    .from(users)
    .leftJoin(
      businessMembers,
      and(
        eq(businessMembers.userId, users.id),
        eq(
          businessMembers.merchantId,
          sql`coalesce(${users.activeMerchantId}, (select o.merchant_id from business_members o
            where o.user_id = ${users.id} and o.role = 'owner'))`,
        ),
      ),
    )
    .leftJoin(merchants, eq(merchants.id, businessMembers.merchantId))
    .where(eq(users.id, userId));
  return row;
}

export async function findMerchantById(db: DbOrTx, id: string): Promise<MerchantRow | undefined> {
  const [row] = await db.select().from(merchants).where(eq(merchants.id, id));
  return row;
}

export async function insertMerchant(
  db: DbOrTx,
  values: typeof merchants.$inferInsert,
): Promise<MerchantRow> {
  const [row] = await db.insert(merchants).values(values).returning();
  return row!;
}

export async function updateMerchantOfOwner(
  db: DbOrTx,
  scope: MerchantScope,
  values: Partial<Omit<typeof merchants.$inferInsert, "id" | "ownerId">>,
): Promise<MerchantRow | undefined> {
  const [row] = await db
    .update(merchants)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(merchants.id, merchantIdOf(scope)))
    .returning();
  return row;
}

export async function listMerchantAddresses(db: DbOrTx): Promise<{ id: string; walletAddress: string }[]> {
  return db.select({ id: merchants.id, walletAddress: merchants.walletAddress }).from(merchants);
}

export async function insertWalletChallenge(db: DbOrTx, values: typeof walletChallenges.$inferInsert) {
  await db.insert(walletChallenges).values(values);
}

/** Marks the user's unexpired, unused challenge as used and returns it: true for exactly one caller. */
export async function consumeWalletChallenge(db: DbOrTx, userId: string, nonce: string, now: Date) {
  const [row] = await db
    .update(walletChallenges)
    .set({ usedAt: now })
    .where(
      and(
        eq(walletChallenges.nonce, nonce),
        eq(walletChallenges.userId, userId),
        isNull(walletChallenges.usedAt),
        gt(walletChallenges.expiresAt, now),
      ),
    )
    .returning();
  return row;
}

/** Which business the user's requests act for (null: the one they own). */
export async function setActiveMerchant(db: DbOrTx, userId: string, merchantId: string | null) {
  await db.update(users).set({ activeMerchantId: merchantId }).where(eq(users.id, userId));
}

export async function isMemberOf(db: DbOrTx, userId: string, merchantId: string): Promise<boolean> {
  const [row] = await db
    .select({ role: businessMembers.role })
    .from(businessMembers)
    .where(and(eq(businessMembers.userId, userId), eq(businessMembers.merchantId, merchantId)));
  return row !== undefined;
}
