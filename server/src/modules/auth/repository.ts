import { and, eq, gt, isNull, ne, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.ts";
import { emailTokens, sessions, users } from "../../db/schema.ts";

export type UserRow = typeof users.$inferSelect;
export type SessionRow = typeof sessions.$inferSelect;
export type EmailTokenRow = typeof emailTokens.$inferSelect;

export async function findUserById(db: DbOrTx, id: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row;
}

/** By username, or by verified email when the login contains '@'; both case-insensitive. */
export async function findUserByLogin(db: DbOrTx, login: string): Promise<UserRow | undefined> {
  const column = login.includes("@") ? users.email : users.username;
  const [row] = await db.select().from(users).where(sql`lower(${column}) = lower(${login})`);
  return row;
}

export async function findUserByVerifiedEmail(db: DbOrTx, email: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(sql`lower(${users.email}) = lower(${email})`);
  return row;
}

export async function insertUser(db: DbOrTx, values: typeof users.$inferInsert): Promise<UserRow> {
  const [row] = await db.insert(users).values(values).returning();
  return row!;
}

export async function updateUser(
  db: DbOrTx,
  id: string,
  values: Partial<Omit<typeof users.$inferInsert, "id">>,
): Promise<UserRow | undefined> {
  const [row] = await db
    .update(users)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(users.id, id))
    .returning();
  return row;
}

export async function insertSession(db: DbOrTx, values: typeof sessions.$inferInsert): Promise<SessionRow> {
  const [row] = await db.insert(sessions).values(values).returning();
  return row!;
}

export async function findLiveSessionByTokenHash(
  db: DbOrTx,
  tokenHash: string,
  now: Date,
): Promise<{ session: SessionRow; user: UserRow } | undefined> {
  const [row] = await db
    .select({ session: sessions, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, tokenHash), gt(sessions.expiresAt, now)));
  return row;
}

export async function extendSession(db: DbOrTx, id: string, lastSeenAt: Date, expiresAt: Date) {
  await db.update(sessions).set({ lastSeenAt, expiresAt }).where(eq(sessions.id, id));
}

export async function listLiveSessions(db: DbOrTx, userId: string, now: Date): Promise<SessionRow[]> {
  return db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, now)))
    .orderBy(sql`${sessions.lastSeenAt} desc`);
}

export async function deleteSession(db: DbOrTx, userId: string, sessionId: string): Promise<boolean> {
  const deleted = await db
    .delete(sessions)
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId)))
    .returning({ id: sessions.id });
  return deleted.length > 0;
}

/** Ends every session of the user, or every one but `exceptSessionId`. */
export async function deleteUserSessions(
  db: DbOrTx,
  userId: string,
  exceptSessionId?: string,
): Promise<number> {
  const where = exceptSessionId
    ? and(eq(sessions.userId, userId), ne(sessions.id, exceptSessionId))
    : eq(sessions.userId, userId);
  const deleted = await db.delete(sessions).where(where).returning({ id: sessions.id });
  return deleted.length;
}

export async function insertEmailToken(db: DbOrTx, values: typeof emailTokens.$inferInsert) {
  await db.insert(emailTokens).values(values);
}

export async function findEmailToken(
  db: DbOrTx,
  purpose: EmailTokenRow["purpose"],
  tokenHash: string,
): Promise<EmailTokenRow | undefined> {
  const [row] = await db
    .select()
    .from(emailTokens)
    .where(and(eq(emailTokens.tokenHash, tokenHash), eq(emailTokens.purpose, purpose)));
  return row;
}

/** Marks the token used unless it already was: true for exactly one caller, even under concurrency. */
/** Spends every unused token of one purpose a user holds (a new password voids the reset links still out). */
export async function consumeUserEmailTokens(
  db: DbOrTx,
  userId: string,
  purpose: EmailTokenRow["purpose"],
  now: Date,
): Promise<void> {
  await db
    .update(emailTokens)
    .set({ usedAt: now })
    .where(and(eq(emailTokens.userId, userId), eq(emailTokens.purpose, purpose), isNull(emailTokens.usedAt)));
}

export async function consumeEmailToken(db: DbOrTx, id: string, now: Date): Promise<boolean> {
  const updated = await db
    .update(emailTokens)
    .set({ usedAt: now })
    .where(and(eq(emailTokens.id, id), isNull(emailTokens.usedAt), gt(emailTokens.expiresAt, now)))
    .returning({ id: emailTokens.id });
  return updated.length > 0;
}
