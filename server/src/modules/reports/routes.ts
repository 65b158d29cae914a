import { Readable } from "node:stream";
import { reportRangeQuery, reportSummaryResponse } from "@common/reports.ts";
import { ALL_ROLES } from "@common/team.ts";
import type { Db } from "../../db/client.ts";
import type { FastifyZod } from "../../lib/fastify-zod.ts";
import { authOf } from "../merchants/access.ts";
import * as service from "./service.ts";

export async function reportRoutes(app: FastifyZod, { db, tokenSymbol }: { db: Db; tokenSymbol: string }) {
  app.get(
    "/api/merchant/reports/summary",
    {
      config: { merchant: { roles: ALL_ROLES } },
      schema: { querystring: reportRangeQuery, response: { 200: reportSummaryResponse } },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      return service.getSummary(db, authOf(request).user.id, request.query, tokenSymbol);
    },
  );

  app.get(
    "/api/merchant/reports/payments.csv",
    { config: { merchant: { roles: ALL_ROLES } }, schema: { querystring: reportRangeQuery } },
    async (request, reply) => {
      const chunks = service.csvChunks(db, authOf(request).user.id, request.query);
      // The header line comes once the zone is accepted: a refusal (an unknown zone) is still a 400 in the error shape.
      const first = await chunks.next();
      // One page ahead of the socket at most (Readable.from's default is 16 objects: 16 pages of a year formatted
      // before the client has read one, and formatted for nothing when it leaves).
      const body = Readable.from(
        (async function* () {
          if (!first.done) yield first.value;
          yield* chunks;
        })(),
        { highWaterMark: 1 },
      );
      return reply
        .header("content-type", "text/csv; charset=utf-8")
        .header("content-disposition", `attachment; filename="${service.csvFileName(request.query)}"`)
        .header("cache-control", "no-store")
        .send(body);
    },
  );
}
