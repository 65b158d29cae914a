import { MANAGER_ROLES } from "@common/team.ts";
import { and, desc, eq, gte, isNull, lt, or, type SQL } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.ts";
import { auditEvents, users } from "../../db/schema.ts";
import { merchantIdOf } from "../merchants/repository.ts";

export type AuditFilter = {
  action?: string | undefined;
  from?: Date | undefined;
  /** Exclusive. */
  to?: Date | undefined;
  cursor?: string | undefined;
  limit: number;
};

/**
 * The audit events an owner or admin may see: the business's they act for (role checked in the query), plus
 * their own that belong to no business (a sign-in before registering one). The scope is part of the `where`,
 * never a filter afterwards.
 */
export async function listAuditEventsOfOwner(db: DbOrTx, ownerId: string, filter: AuditFilter) {
  const conditions: SQL[] = [
    or(
      eq(auditEvents.businessId, merchantIdOf({ userId: ownerId, roles: MANAGER_ROLES })),
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
