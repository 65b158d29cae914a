import { MANAGER_ROLES } from "@common/team.ts";
import { and, desc, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.ts";
import { apiIdempotencyKeys, apiKeys, merchants } from "../../db/schema.ts";
import { merchantIdOf } from "../merchants/repository.ts";

/** Keys are for owners and admins only (decision 021): the role is part of every query below. */
const keyManager = (userId: string) => merchantIdOf({ userId, roles: MANAGER_ROLES });

export type ApiKeyRow = typeof apiKeys.$inferSelect;
export type IdempotencyRow = typeof apiIdempotencyKeys.$inferSelect;

export async function insertApiKey(db: DbOrTx, values: typeof apiKeys.$inferInsert): Promise<ApiKeyRow> {
  const [row] = await db.insert(apiKeys).values(values).returning();
  return row!;
}

export async function listActiveApiKeysOfOwner(db: DbOrTx, ownerId: string): Promise<ApiKeyRow[]> {
  const rows = await db
    .select({ key: apiKeys })
    .from(apiKeys)
    .where(and(eq(apiKeys.merchantId, keyManager(ownerId)), isNull(apiKeys.revokedAt)))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
  return rows.map((r) => r.key);
}

export async function countActiveApiKeys(db: DbOrTx, merchantId: string): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(apiKeys)
    .where(and(eq(apiKeys.merchantId, merchantId), isNull(apiKeys.revokedAt)));
  return row?.count ?? 0;
}

export async function revokeApiKeyOfOwner(db: DbOrTx, ownerId: string, id: string, now: Date) {
  const rows = await db
    .update(apiKeys)
    .set({ revokedAt: now })
    .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt), eq(apiKeys.merchantId, keyManager(ownerId))))
    .returning({ id: apiKeys.id });
  return rows.length > 0;
}

/** An unrevoked key by its secret's hash, with the owner of its merchant (the payments queries' scope). */
export async function findActiveApiKeyByHash(db: DbOrTx, secretHash: string) {
  const [row] = await db
    .select({ key: apiKeys, ownerId: merchants.ownerId })
    .from(apiKeys)
    .innerJoin(merchants, eq(merchants.id, apiKeys.merchantId))
    .where(and(eq(apiKeys.secretHash, secretHash), isNull(apiKeys.revokedAt)));
  return row;
}

/** Records a use unless one was recorded since `staleBefore`: concurrent requests write once. */
export async function touchApiKey(db: DbOrTx, id: string, now: Date, staleBefore: Date) {
  await db
    .update(apiKeys)
    .set({ lastUsedAt: now })
    .where(and(eq(apiKeys.id, id), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, staleBefore))));
}

/** Takes the key for this request; undefined when a row for (merchant, key) exists already. */
export async function claimIdempotencyKey(
  db: DbOrTx,
  values: typeof apiIdempotencyKeys.$inferInsert,
): Promise<IdempotencyRow | undefined> {
  const [row] = await db.insert(apiIdempotencyKeys).values(values).onConflictDoNothing().returning();
  return row;
}

export async function findIdempotencyKey(db: DbOrTx, merchantId: string, key: string) {
  const [row] = await db
    .select()
    .from(apiIdempotencyKeys)
    .where(and(eq(apiIdempotencyKeys.merchantId, merchantId), eq(apiIdempotencyKeys.key, key)));
  return row;
}

export async function recordIdempotentPayment(db: DbOrTx, id: string, paymentId: string) {
  await db.update(apiIdempotencyKeys).set({ paymentId }).where(eq(apiIdempotencyKeys.id, id));
}

/** Frees a key whose request failed (or was abandoned): only while it has no payment. */
export async function releaseIdempotencyKey(db: DbOrTx, id: string) {
  await db
    .delete(apiIdempotencyKeys)
    .where(and(eq(apiIdempotencyKeys.id, id), isNull(apiIdempotencyKeys.paymentId)));
}
