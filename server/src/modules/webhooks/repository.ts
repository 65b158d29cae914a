import { MANAGER_ROLES } from "@common/team.ts";
import { and, desc, eq, isNull, lte, or } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.ts";
import { webhookDeliveries, webhookEndpoints } from "../../db/schema.ts";
import { merchantIdOf } from "../merchants/repository.ts";

/** Webhooks are for owners and admins only (decision 021): the business `userId` manages, inside every query below. */
const managedMerchantId = (userId: string) => merchantIdOf({ userId, roles: MANAGER_ROLES });

export type EndpointRow = typeof webhookEndpoints.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;

// Every read and write below is scoped by the member's business and role inside the query.

export async function listEndpointsOfOwner(db: DbOrTx, ownerId: string): Promise<EndpointRow[]> {
  return db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.merchantId, managedMerchantId(ownerId)))
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
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.merchantId, managedMerchantId(ownerId))));
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
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.merchantId, managedMerchantId(ownerId))))
    .returning();
  return row;
}

export async function deleteEndpointOfOwner(db: DbOrTx, ownerId: string, id: string) {
  const rows = await db
    .delete(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.merchantId, managedMerchantId(ownerId))))
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
        eq(webhookDeliveries.merchantId, managedMerchantId(ownerId)),
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
        eq(webhookDeliveries.merchantId, managedMerchantId(ownerId)),
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
    .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.merchantId, managedMerchantId(ownerId))));
  return row;
}
