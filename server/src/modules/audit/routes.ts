import { type AuditAction, auditEventsQuery, auditEventsResponse } from "@common/audit.ts";
import { MANAGER_ROLES } from "@common/team.ts";
import type { Db } from "../../db/client.ts";
import { AppError } from "../../errors.ts";
import type { FastifyZod } from "../../lib/fastify-zod.ts";
import { authOf } from "../merchants/access.ts";
import * as repo from "./repository.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

/** Midnight UTC of a YYYY-MM-DD day that exists (2025-02-31 is refused, not read as March 3). */
function utcDay(day: string): Date {
  const date = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== day) {
    throw new AppError("VALIDATION_ERROR", "That date does not exist.", { field: "date" });
  }
  return date;
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
