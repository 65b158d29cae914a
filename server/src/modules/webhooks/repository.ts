import { and, desc, eq, inArray, isNull, lte, or } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.ts";
import { merchants, webhookDeliveries, webhookEndpoints } from "../../db/schema.ts";

export type EndpointRow = typeof webhookEndpoints.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;

/** The owner's merchant, as a subquery: every read and write below is scoped by it inside the query. */
const merchantOf = (db: DbOrTx, ownerId: string) =>
  db.select({ id: merchants.id }).from(merchants).where(eq(merchants.ownerId, ownerId));

export async function listEndpointsOfOwner(db: DbOrTx, ownerId: string): Promise<EndpointRow[]> {
  return db
    .select()
    .from(webhookEndpoints)
    .where(inArray(webhookEndpoints.merchantId, merchantOf(db, ownerId)))
    .orderBy(desc(webhookEndpoints.createdAt))
    .limit(100);
}

export async function countEndpointsOfMerchant(db: DbOrTx, merchantId: string): Promise<number> {
  const rows = await db
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.merchantId, merchantId));
  return rows.length;
}

export async function findEndpointOfOwner(db: DbOrTx, ownerId: string, id: string) {
  const [row] = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), inArray(webhookEndpoints.merchantId, merchantOf(db, ownerId))));
  return row;
}

export async function insertEndpoint(db: DbOrTx, values: typeof webhookEndpoints.$inferInsert) {
  const [row] = await db.insert(webhookEndpoints).values(values).returning();
  return row!;
}

export async function updateEndpointOfOwner(
  db: DbOrTx,
  ownerId: string,
  id: string,
  values: Partial<Omit<typeof webhookEndpoints.$inferInsert, "id" | "merchantId">>,
) {
  const [row] = await db
    .update(webhookEndpoints)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(webhookEndpoints.id, id), inArray(webhookEndpoints.merchantId, merchantOf(db, ownerId))))
    .returning();
  return row;
}

export async function deleteEndpointOfOwner(db: DbOrTx, ownerId: string, id: string) {
  const rows = await db
    .delete(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), inArray(webhookEndpoints.merchantId, merchantOf(db, ownerId))))
    .returning({ id: webhookEndpoints.id });
  return rows.length > 0;
}

export async function listDeliveriesOfOwner(db: DbOrTx, ownerId: string, endpointId: string, limit: number) {
  return db
    .select()
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.endpointId, endpointId),
        inArray(webhookDeliveries.merchantId, merchantOf(db, ownerId)),
      ),
    )
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(limit);
}

export async function insertDelivery(db: DbOrTx, values: typeof webhookDeliveries.$inferInsert) {
  const [row] = await db.insert(webhookDeliveries).values(values).returning();
  return row!;
}

/** Makes a delivery due now again (manual replay): same `webhook-id`, the attempts go on counting. */
export async function replayDeliveryOfOwner(db: DbOrTx, ownerId: string, id: string, now: Date) {
  const [row] = await db
    .update(webhookDeliveries)
    .set({ status: "pending", nextAttemptAt: now, lockedUntil: null })
    .where(
      and(
        eq(webhookDeliveries.id, id),
        inArray(webhookDeliveries.merchantId, merchantOf(db, ownerId)),
        // Not while an attempt is in flight (its lease still runs): that would send it twice at once.
        or(isNull(webhookDeliveries.lockedUntil), lte(webhookDeliveries.lockedUntil, now)),
      ),
    )
    .returning();
  return row;
}

export async function findDeliveryOfOwner(db: DbOrTx, ownerId: string, id: string) {
  const [row] = await db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.id, id), inArray(webhookDeliveries.merchantId, merchantOf(db, ownerId))));
  return row;
}
