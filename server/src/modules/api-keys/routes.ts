import {
  apiKeyIdParams,
  createApiKeyRequest,
  createdApiKeyResponse,
  listApiKeysResponse,
} from "@common/api-keys.ts";
import { MANAGER_ROLES } from "@common/team.ts";
import type { Db } from "../../db/client.ts";
import type { FastifyZod } from "../../lib/fastify-zod.ts";
import { ownerContext } from "../audit/record.ts";
import { requireAuth } from "../merchants/require-auth.ts";
import { findMerchantOfMember } from "../merchants/service.ts";
import * as repo from "./repository.ts";
import * as service from "./service.ts";

/** The dashboard's management of API keys (signed in with the session cookie). */
export async function apiKeyRoutes(app: FastifyZod, { db }: { db: Db }) {
  app.get(
    "/api/merchant/api-keys",
    { schema: { response: { 200: listApiKeysResponse } } },
    async (request, reply) => {
      const auth = await requireAuth(db, request, reply);
      await findMerchantOfMember(db, auth.user.id, MANAGER_ROLES);
      const rows = await repo.listActiveApiKeysOfOwner(db, auth.user.id);
      return { items: rows.map(service.toApiKeyResponse) };
    },
  );

  app.post(
    "/api/merchant/api-keys",
    { schema: { body: createApiKeyRequest, response: { 201: createdApiKeyResponse } } },
    async (request, reply) => {
      const auth = await requireAuth(db, request, reply);
      const created = await service.createApiKey(db, ownerContext(request, auth), request.body);
      // The secret travels once: never cached by the browser or a proxy.
      return reply.status(201).header("Cache-Control", "no-store").send(created);
    },
  );

  app.delete("/api/merchant/api-keys/:id", { schema: { params: apiKeyIdParams } }, async (request, reply) => {
    const auth = await requireAuth(db, request, reply);
    await service.revokeApiKey(db, ownerContext(request, auth), request.params.id);
    return reply.status(204).send();
  });
}
