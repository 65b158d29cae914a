import { and, desc, eq, gte, isNull, lt, or, type SQL, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.ts";
import { auditEvents, merchants, users } from "../../db/schema.ts";

export type AuditFilter = {
  action?: string | undefined;
  from?: Date | undefined;
  /** Exclusive. */
  to?: Date | undefined;
  cursor?: string | undefined;
  limit: number;
};

/**
 * The audit events a business owner may see: their business's, plus their own that belong to no business (a
 * sign-in before registering one). The scope is part of the `where`, never a filter afterwards.
 */
export async function listAuditEventsOfOwner(db: DbOrTx, ownerId: string, filter: AuditFilter) {
  const ownBusiness = db.select({ id: merchants.id }).from(merchants).where(eq(merchants.ownerId, ownerId));
  const conditions: SQL[] = [
    or(
      sql`${auditEvents.businessId} in ${ownBusiness}`,
      and(eq(auditEvents.userId, ownerId), isNull(auditEvents.businessId)),
    )!,
  ];
  if (filter.action) conditions.push(eq(auditEvents.action, filter.action));
  if (filter.from) conditions.push(gte(auditEvents.createdAt, filter.from));
  if (filter.to) conditions.push(lt(auditEvents.createdAt, filter.to));
  if (filter.cursor) conditions.push(lt(auditEvents.id, filter.cursor));
  return db
    .select({ event: auditEvents, actor: users.username })
    .from(auditEvents)
    .leftJoin(users, eq(users.id, auditEvents.userId))
    .where(and(...conditions))
    .orderBy(desc(auditEvents.id))
    .limit(filter.limit);
}
