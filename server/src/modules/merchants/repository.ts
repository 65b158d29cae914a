import { and, eq, gt, isNull, type SQL, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.ts";
import { merchants, walletChallenges } from "../../db/schema.ts";

export type MerchantRow = typeof merchants.$inferSelect;

/** The merchant owned by `ownerId`: every merchant read goes through the owner. */
export async function findMerchantByOwner(db: DbOrTx, ownerId: string): Promise<MerchantRow | undefined> {
  const [row] = await db.select().from(merchants).where(eq(merchants.ownerId, ownerId));
  return row;
}

/**
 * The id of the merchant owned by `ownerId`, as a scalar subquery to put inside a query (the owner is checked by
 * the query that reads the data, never afterwards). A scalar subquery rather than a join: PostgreSQL then runs it
 * once and reads the merchant's rows through their `(merchant_id, ...)` indexes in order; through a join to
 * `merchants` it walked every merchant's payments in id order, or sorted the merchant's rows for each page.
 */
export function merchantIdOfOwner(ownerId: string): SQL<string> {
  return sql<string>`(select ${merchants.id} from ${merchants} where ${merchants.ownerId} = ${ownerId})`;
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
  ownerId: string,
  values: Partial<Omit<typeof merchants.$inferInsert, "id" | "ownerId">>,
): Promise<MerchantRow | undefined> {
  const [row] = await db
    .update(merchants)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(merchants.ownerId, ownerId))
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
