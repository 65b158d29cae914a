import { and, count, eq, isNull, lt, or } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.ts";
import { merchants, passkeys, recoveryCodes, userTotp } from "../../db/schema.ts";

export type TotpRow = typeof userTotp.$inferSelect;
export type PasskeyRow = typeof passkeys.$inferSelect;

export async function findTotp(db: DbOrTx, userId: string): Promise<TotpRow | undefined> {
  const [row] = await db.select().from(userTotp).where(eq(userTotp.userId, userId));
  return row;
}

/** A new (unconfirmed) secret replaces an unconfirmed one; a confirmed one is never overwritten here. */
export async function upsertPendingTotp(db: DbOrTx, userId: string, secretEncrypted: string) {
  const [row] = await db
    .insert(userTotp)
    .values({ userId, secretEncrypted })
    .onConflictDoUpdate({
      target: userTotp.userId,
      set: { secretEncrypted, createdAt: new Date(), lastUsedStep: null },
      setWhere: isNull(userTotp.confirmedAt),
    })
    .returning();
  return row;
}

/**
 * Records `step` as used (and confirms the secret) unless that step or a later one was already used: true for
 * exactly one of two concurrent requests with the same code.
 */
export async function spendTotpStep(db: DbOrTx, userId: string, step: number, confirm: boolean) {
  const rows = await db
    .update(userTotp)
    .set({ lastUsedStep: step, ...(confirm ? { confirmedAt: new Date() } : {}) })
    .where(
      and(
        eq(userTotp.userId, userId),
        or(isNull(userTotp.lastUsedStep), lt(userTotp.lastUsedStep, step)),
        confirm ? isNull(userTotp.confirmedAt) : undefined,
      ),
    )
    .returning({ userId: userTotp.userId });
  return rows.length > 0;
}

export async function deleteTotp(db: DbOrTx, userId: string) {
  await db.delete(userTotp).where(eq(userTotp.userId, userId));
}

export async function replaceRecoveryCodes(
  db: DbOrTx,
  userId: string,
  rows: { id: string; codeHash: string }[],
) {
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  if (rows.length) await db.insert(recoveryCodes).values(rows.map((r) => ({ ...r, userId })));
}

export async function deleteRecoveryCodes(db: DbOrTx, userId: string) {
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
}

/** Spends the code once: true for exactly one caller. */
export async function spendRecoveryCode(db: DbOrTx, userId: string, codeHash: string) {
  const rows = await db
    .update(recoveryCodes)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(recoveryCodes.userId, userId),
        eq(recoveryCodes.codeHash, codeHash),
        isNull(recoveryCodes.usedAt),
      ),
    )
    .returning({ id: recoveryCodes.id });
  return rows.length > 0;
}

export async function countUnusedRecoveryCodes(db: DbOrTx, userId: string) {
  const [row] = await db
    .select({ n: count() })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  return row?.n ?? 0;
}

export async function listPasskeys(db: DbOrTx, userId: string): Promise<PasskeyRow[]> {
  return db.select().from(passkeys).where(eq(passkeys.userId, userId)).orderBy(passkeys.createdAt);
}

export async function findPasskeyByCredentialId(db: DbOrTx, credentialId: string) {
  const [row] = await db.select().from(passkeys).where(eq(passkeys.credentialId, credentialId));
  return row;
}

export async function insertPasskey(db: DbOrTx, values: typeof passkeys.$inferInsert) {
  const [row] = await db.insert(passkeys).values(values).returning();
  return row!;
}

export async function touchPasskey(db: DbOrTx, id: string, counter: number) {
  await db.update(passkeys).set({ counter, lastUsedAt: new Date() }).where(eq(passkeys.id, id));
}

export async function deletePasskeyOfUser(db: DbOrTx, userId: string, id: string) {
  const rows = await db
    .delete(passkeys)
    .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
    .returning({ id: passkeys.id });
  return rows.length > 0;
}

/** The business the user owns (its id for audit rows, and whether it requires two-factor sign-in). */
export async function findOwnedBusiness(db: DbOrTx, userId: string) {
  const [row] = await db
    .select({ id: merchants.id, requireTwoFactor: merchants.requireTwoFactor })
    .from(merchants)
    .where(eq(merchants.ownerId, userId));
  return row;
}

/** Sets the requirement on `merchantId` while `ownerId` still owns it (checked by the update itself). */
export async function setRequireTwoFactor(db: DbOrTx, ownerId: string, merchantId: string, value: boolean) {
  const [row] = await db
    .update(merchants)
    .set({ requireTwoFactor: value, updatedAt: new Date() })
    .where(and(eq(merchants.id, merchantId), eq(merchants.ownerId, ownerId)))
    .returning({ id: merchants.id, requireTwoFactor: merchants.requireTwoFactor });
  return row;
}
