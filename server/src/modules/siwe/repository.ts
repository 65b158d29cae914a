import { and, asc, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.ts";
import { users, userWallets } from "../../db/schema.ts";

export type UserWalletRow = typeof userWallets.$inferSelect;

export async function findWalletByAddress(db: DbOrTx, address: string): Promise<UserWalletRow | undefined> {
  const [row] = await db
    .select()
    .from(userWallets)
    .where(sql`lower(${userWallets.address}) = lower(${address})`);
  return row;
}

export async function listUserWallets(db: DbOrTx, userId: string): Promise<UserWalletRow[]> {
  return db
    .select()
    .from(userWallets)
    .where(eq(userWallets.userId, userId))
    .orderBy(asc(userWallets.createdAt), asc(userWallets.id));
}

export async function insertUserWallet(db: DbOrTx, values: typeof userWallets.$inferInsert) {
  const [row] = await db.insert(userWallets).values(values).returning();
  return row!;
}

export async function deleteUserWallet(db: DbOrTx, userId: string, address: string): Promise<boolean> {
  const deleted = await db
    .delete(userWallets)
    .where(and(eq(userWallets.userId, userId), sql`lower(${userWallets.address}) = lower(${address})`))
    .returning({ id: userWallets.id });
  return deleted.length > 0;
}

/** Usernames starting with `prefix` (case-insensitive), to pick a free `wallet_…` name without a round of conflicts. */
export async function findUsernamesWithPrefix(db: DbOrTx, prefix: string): Promise<string[]> {
  const rows = await db
    .select({ username: users.username })
    .from(users)
    .where(sql`lower(${users.username}) like ${`${prefix.toLowerCase()}%`}`);
  return rows.map((r) => r.username);
}
