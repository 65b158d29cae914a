import { and, asc, eq } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.ts";
import { socialAccounts } from "../../db/schema.ts";

export type SocialAccountRow = typeof socialAccounts.$inferSelect;

export async function findSocialAccount(
  db: DbOrTx,
  provider: SocialAccountRow["provider"],
  subject: string,
): Promise<SocialAccountRow | undefined> {
  const [row] = await db
    .select()
    .from(socialAccounts)
    .where(and(eq(socialAccounts.provider, provider), eq(socialAccounts.subject, subject)));
  return row;
}

export async function listSocialAccounts(db: DbOrTx, userId: string): Promise<SocialAccountRow[]> {
  return db
    .select()
    .from(socialAccounts)
    .where(eq(socialAccounts.userId, userId))
    .orderBy(asc(socialAccounts.createdAt), asc(socialAccounts.id));
}

export async function insertSocialAccount(db: DbOrTx, values: typeof socialAccounts.$inferInsert) {
  const [row] = await db.insert(socialAccounts).values(values).returning();
  return row!;
}

export async function touchSocialAccount(
  db: DbOrTx,
  id: string,
  profile: { name: string | null; email: string | null; emailVerified: boolean },
) {
  await db
    .update(socialAccounts)
    .set({ ...profile, lastSignInAt: new Date() })
    .where(eq(socialAccounts.id, id));
}

export async function deleteSocialAccount(
  db: DbOrTx,
  userId: string,
  provider: SocialAccountRow["provider"],
) {
  const rows = await db
    .delete(socialAccounts)
    .where(and(eq(socialAccounts.userId, userId), eq(socialAccounts.provider, provider)))
    .returning({ id: socialAccounts.id });
  return rows.length > 0;
}
