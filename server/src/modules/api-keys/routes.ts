import {
  type ApiKeyKind,
  apiKeyIdParams,
  createApiKeyRequest,
  createdApiKeyResponse,
  listApiKeysResponse,
} from "@common/api-keys.ts";
import { MANAGER_ROLES } from "@common/team.ts";
import type { Db } from "../../db/client.ts";
import type { FastifyZod } from "../../lib/fastify-zod.ts";
import { ownerContext } from "../audit/record.ts";
import { authOf, memberOf } from "../merchants/access.ts";
import * as repo from "./repository.ts";
import * as service from "./service.ts";

/** The dashboard's management of API keys (signed in with the session cookie). */
export async function apiKeyRoutes(app: FastifyZod, { db, kind }: { db: Db; kind: ApiKeyKind }) {
  app.get(
    "/api/merchant/api-keys",
    {
      config: { merchant: { roles: MANAGER_ROLES, noBusiness: "empty" } },
      schema: { response: { 200: listApiKeysResponse } },
    },
    async (request) => {
      const rows = await repo.listActiveApiKeysOfOwner(db, authOf(request).user.id);
      return { items: rows.map(service.toApiKeyResponse), kind };
    },
  );

  app.post(
    "/api/merchant/api-keys",
    {
      config: { merchant: { roles: MANAGER_ROLES } },
      schema: { body: createApiKeyRequest, response: { 201: createdApiKeyResponse } },
    },
    async (request, reply) => {
      const created = await service.createApiKey(
        db,
        ownerContext(request, authOf(request)),
        memberOf(request),
        request.body,
        kind,
      );
      // The secret travels once: never cached by the browser or a proxy.
      return reply.status(201).header("Cache-Control", "no-store").send(created);
    },
  );

  app.delete(
    "/api/merchant/api-keys/:id",
    { config: { merchant: { roles: MANAGER_ROLES } }, schema: { params: apiKeyIdParams } },
    async (request, reply) => {
      await service.revokeApiKey(
        db,
        ownerContext(request, authOf(request)),
        memberOf(request),
        request.params.id,
      );
      return reply.status(204).send();
    },
  );
}
