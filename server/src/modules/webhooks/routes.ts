import { MANAGER_ROLES } from "@common/team.ts";
import {
  createWebhookEndpointRequest,
  updateWebhookEndpointRequest,
  webhookDelivery,
  webhookDeliveryList,
  webhookDeliveryParams,
  webhookEndpoint,
  webhookEndpointList,
  webhookEndpointParams,
  webhookEndpointWithSecret,
} from "@common/webhooks.ts";
import * as z from "zod";
import type { FastifyZod } from "../../lib/fastify-zod.ts";
import { ownerContext } from "../audit/record.ts";
import { authOf, memberOf } from "../merchants/access.ts";
import * as service from "./service.ts";

const okResponse = z.object({ ok: z.literal(true) });

/** The signed-in merchant's webhook endpoints and their delivery logs (decision 016). */
export async function webhookRoutes(app: FastifyZod, { deps }: { deps: service.WebhooksDeps }) {
  app.addHook("onSend", async (_request, reply) => {
    reply.header("cache-control", "no-store");
  });
  // Webhooks are business settings: owners and admins (decision 021), checked by the access hook for each route.
  const config = { merchant: { roles: MANAGER_ROLES } };

  app.get(
    "/api/merchant/webhooks",
    { config, schema: { response: { 200: webhookEndpointList } } },
    async (request) => {
      const auth = authOf(request);
      return service.listEndpoints(deps, auth.user.id);
    },
  );

  app.post(
    "/api/merchant/webhooks",
    { config, schema: { body: createWebhookEndpointRequest, response: { 201: webhookEndpointWithSecret } } },
    async (request, reply) => {
      const auth = authOf(request);
      return reply
        .status(201)
        .send(
          await service.createEndpoint(deps, ownerContext(request, auth), memberOf(request), request.body),
        );
    },
  );

  app.patch(
    "/api/merchant/webhooks/:id",
    {
      config,
      schema: {
        params: webhookEndpointParams,
        body: updateWebhookEndpointRequest,
        response: { 200: webhookEndpoint },
      },
    },
    async (request) => {
      const auth = authOf(request);
      return service.updateEndpoint(deps, ownerContext(request, auth), request.params.id, request.body);
    },
  );

  app.delete(
    "/api/merchant/webhooks/:id",
    { config, schema: { params: webhookEndpointParams, response: { 200: okResponse } } },
    async (request) => {
      const auth = authOf(request);
      await service.deleteEndpoint(deps, ownerContext(request, auth), request.params.id);
      return { ok: true as const };
    },
  );

  app.post(
    "/api/merchant/webhooks/:id/rotate-secret",
    { config, schema: { params: webhookEndpointParams, response: { 200: webhookEndpointWithSecret } } },
    async (request) => {
      const auth = authOf(request);
      return service.rotateSecret(deps, ownerContext(request, auth), request.params.id);
    },
  );

  app.post(
    "/api/merchant/webhooks/:id/test",
    { config, schema: { params: webhookEndpointParams, response: { 201: webhookDelivery } } },
    async (request, reply) => {
      const auth = authOf(request);
      return reply.status(201).send(await service.sendTestEvent(deps, auth.user.id, request.params.id));
    },
  );

  app.get(
    "/api/merchant/webhooks/:id/deliveries",
    { config, schema: { params: webhookEndpointParams, response: { 200: webhookDeliveryList } } },
    async (request) => {
      const auth = authOf(request);
      return service.listDeliveries(deps, auth.user.id, request.params.id);
    },
  );

  app.post(
    "/api/merchant/webhook-deliveries/:id/replay",
    { config, schema: { params: webhookDeliveryParams, response: { 200: webhookDelivery } } },
    async (request) => {
      const auth = authOf(request);
      return service.replayDelivery(deps, auth.user.id, request.params.id);
    },
  );
}
