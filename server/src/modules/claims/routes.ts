import { claimRequest, claimResponse, claimStatusQuery } from "@common/claims.ts";
import type { FastifyZod } from "../../lib/fastify-zod.ts";
import { requireAuth } from "../merchants/require-auth.ts";
import * as service from "./service.ts";

/** "Claim Test CPXTB Tokens": signed in, in the `claim` rate-limit group (its excess asks the security challenge). */
export async function claimRoutes(app: FastifyZod, { deps }: { deps: service.ClaimsDeps }) {
  app.get(
    "/api/claims/status",
    { schema: { querystring: claimStatusQuery, response: { 200: claimResponse } } },
    async (request, reply) => {
      const auth = await requireAuth(deps.db, request, reply);
      return service.claimStatus(deps, { ...request.query, userId: auth.user.id, ip: request.ip });
    },
  );
  app.post(
    "/api/claims",
    { config: { rateLimit: "claim" }, schema: { body: claimRequest, response: { 201: claimResponse } } },
    async (request, reply) => {
      const auth = await requireAuth(deps.db, request, reply);
      const status = await service.claim(deps, { ...request.body, userId: auth.user.id, ip: request.ip });
      return reply.status(201).send(status);
    },
  );
}
