import { and, desc, eq, gte, inArray, lt, ne, sql } from "drizzle-orm";
import { type DbOrTx, rowsOf } from "../../db/client.ts";
import { chainTransfers, managedWallets, payments, walletSends, walletSigners } from "../../db/schema.ts";

export type ManagedWalletRow = typeof managedWallets.$inferSelect;
export type WalletSendRow = typeof walletSends.$inferSelect;

export async function findManagedWallet(db: DbOrTx, userId: string): Promise<ManagedWalletRow | undefined> {
  const [row] = await db.select().from(managedWallets).where(eq(managedWallets.userId, userId));
  return row;
}

/** Reserves the next derivation index for the user (the address is filled in by the caller in the same tx). */
export async function insertManagedWallet(
  db: DbOrTx,
  userId: string,
  addressOf: (index: number) => string,
): Promise<ManagedWalletRow> {
  const result = await db.execute(
    sql`select nextval(pg_get_serial_sequence('managed_wallets', 'address_index'))::text as index`,
  );
  const addressIndex = Number(rowsOf<{ index: string }>(result)[0]!.index);
  const [row] = await db
    .insert(managedWallets)
    .values({ userId, addressIndex, address: addressOf(addressIndex) })
    .onConflictDoNothing({ target: managedWallets.userId })
    .returning();
  return row ?? (await findManagedWallet(db, userId))!;
}

export async function findSendByKey(db: DbOrTx, userId: string, idempotencyKey: string) {
  const [row] = await db
    .select()
    .from(walletSends)
    .where(and(eq(walletSends.userId, userId), eq(walletSends.idempotencyKey, idempotencyKey)));
  return row;
}

export async function findSendForUpdate(db: DbOrTx, id: string): Promise<WalletSendRow> {
  const [row] = await db.select().from(walletSends).where(eq(walletSends.id, id)).for("update");
  return row!;
}

export async function insertSend(db: DbOrTx, values: typeof walletSends.$inferInsert) {
  const [row] = await db
    .insert(walletSends)
    .values(values)
    .onConflictDoNothing({ target: [walletSends.userId, walletSends.idempotencyKey] })
    .returning();
  return row;
}

export async function updateSend(db: DbOrTx, id: string, values: Partial<typeof walletSends.$inferInsert>) {
  const [row] = await db
    .update(walletSends)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(walletSends.id, id))
    .returning();
  return row!;
}

/** A broadcast send's final state, once: null when it already left `broadcast` (another reader settled it). */
export async function finishSend(
  db: DbOrTx,
  id: string,
  status: "confirmed" | "failed",
  error: string | null,
): Promise<WalletSendRow | undefined> {
  const [row] = await db
    .update(walletSends)
    .set({ status, error, updatedAt: new Date() })
    .where(and(eq(walletSends.id, id), eq(walletSends.status, "broadcast")))
    .returning();
  return row;
}

/** Token base units sent (or on their way) by the user's managed wallet since `since`. */
export async function sumSentSince(db: DbOrTx, userId: string, since: Date): Promise<bigint> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${walletSends.amountBase}), 0)::text` })
    .from(walletSends)
    .where(
      and(
        eq(walletSends.userId, userId),
        inArray(walletSends.kind, ["pay", "withdraw"]),
        ne(walletSends.status, "failed"),
        gte(walletSends.createdAt, since),
      ),
    );
  return BigInt(row?.total ?? "0");
}

/** Locks the signer's nonce row for this transaction (created at 0 on first use). */
export async function lockSigner(db: DbOrTx, address: string): Promise<number> {
  await db.insert(walletSigners).values({ address }).onConflictDoNothing();
  const [row] = await db
    .select({ nextNonce: walletSigners.nextNonce })
    .from(walletSigners)
    .where(eq(walletSigners.address, address))
    .for("update");
  return row!.nextNonce;
}

export async function setSignerNonce(db: DbOrTx, address: string, nextNonce: number) {
  await db
    .update(walletSigners)
    .set({ nextNonce, updatedAt: new Date() })
    .where(eq(walletSigners.address, address));
}

/**
 * Locks the payment for this transaction (every managed-wallet payment of it is decided under this lock, on
 * every instance) and returns what it still asks for.
 */
export async function lockPaymentForSend(db: DbOrTx, reference: string) {
  const [row] = await db
    .select({
      id: payments.id,
      status: payments.status,
      amountDue: payments.amountDue,
      amountSeen: payments.amountSeen,
    })
    .from(payments)
    .where(eq(payments.reference, reference))
    .for("update");
  return row;
}

/**
 * The managed-wallet payments of a payment that are on their way and not yet credited to it: reserved, signed or
 * broadcast, and no live transfer of their transaction is credited to the payment. Oldest first.
 */
export async function inFlightPaymentSends(db: DbOrTx, paymentId: string, reference: string) {
  return db
    .select()
    .from(walletSends)
    .where(
      and(
        eq(walletSends.paymentReference, reference),
        eq(walletSends.kind, "pay"),
        ne(walletSends.status, "failed"),
        sql`(${walletSends.txHash} is null or not exists (
          select 1 from ${chainTransfers}
          where ${chainTransfers.paymentId} = ${paymentId}
            and ${chainTransfers.txHash} = ${walletSends.txHash}
            and ${chainTransfers.orphanedAt} is null))`,
      ),
    )
    .orderBy(walletSends.createdAt);
}

/**
 * The user's own payments and withdrawals (never gas top-ups), newest first: `limit + 1` rows from before `cursor`
 * (an id: ids are time-sortable), so the caller knows whether there is a next page.
 */
export async function listSends(db: DbOrTx, userId: string, page: { cursor?: string; limit: number }) {
  return db
    .select()
    .from(walletSends)
    .where(
      and(
        eq(walletSends.userId, userId),
        inArray(walletSends.kind, ["pay", "withdraw"]),
        page.cursor ? lt(walletSends.id, page.cursor) : undefined,
      ),
    )
    .orderBy(desc(walletSends.id))
    .limit(page.limit + 1);
}
