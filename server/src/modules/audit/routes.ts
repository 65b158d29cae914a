import { type AuditAction, auditEventsQuery, auditEventsResponse } from "@common/audit.ts";
import { MANAGER_ROLES } from "@common/team.ts";
import type { Db } from "../../db/client.ts";
import type { FastifyZod } from "../../lib/fastify-zod.ts";
import { authOf } from "../merchants/access.ts";
import * as repo from "./repository.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

/** Midnight UTC of a day the schema checked (a real day, years 2000..2999: `calendarDate`). */
function utcDay(day: string): Date {
  return new Date(`${day}T00:00:00Z`);
}

/** The audit log of the business the signed-in owner or admin acts for (decision 021); staff: 403. */
export async function auditRoutes(app: FastifyZod, { db }: { db: Db }) {
  app.get(
    "/api/merchant/audit-events",
    {
      config: { merchant: { roles: MANAGER_ROLES, noBusiness: "empty" } },
      schema: { querystring: auditEventsQuery, response: { 200: auditEventsResponse } },
    },
    async (request) => {
      const auth = authOf(request);
      const { action, from, to, cursor, limit } = request.query;
      const fromDate = from ? utcDay(from) : undefined;
      const toDate = to ? new Date(utcDay(to).getTime() + DAY_MS) : undefined;
      const rows = await repo.listAuditEventsOfOwner(db, auth.user.id, {
        action,
        from: fromDate,
        to: toDate,
        cursor,
        limit: limit + 1,
      });
      const page = rows.slice(0, limit);
      return {
        items: page.map(({ event, actor }) => ({
          id: event.id,
          action: event.action as AuditAction,
          actor,
          target: event.target,
          ip: event.ip,
          userAgent: event.userAgent,
          metadata: event.metadata,
          createdAt: event.createdAt.toISOString(),
        })),
        nextCursor: rows.length > limit ? page[page.length - 1]!.event.id : null,
      };
    },
  );
}
