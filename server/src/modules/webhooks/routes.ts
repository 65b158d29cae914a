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
import { requireAuth } from "../merchants/require-auth.ts";
import * as service from "./service.ts";

const okResponse = z.object({ ok: z.literal(true) });

/** The signed-in merchant's webhook endpoints and their delivery logs (decision 016). */
export async function webhookRoutes(app: FastifyZod, { deps }: { deps: service.WebhooksDeps }) {
  const { db } = deps;
  app.addHook("onSend", async (_request, reply) => {
    reply.header("cache-control", "no-store");
  });

  app.get(
    "/api/merchant/webhooks",
    { schema: { response: { 200: webhookEndpointList } } },
    async (request, reply) => {
      const auth = await requireAuth(db, request, reply);
      return service.listEndpoints(deps, auth.user.id);
    },
  );

  app.post(
    "/api/merchant/webhooks",
    { schema: { body: createWebhookEndpointRequest, response: { 201: webhookEndpointWithSecret } } },
    async (request, reply) => {
      const auth = await requireAuth(db, request, reply);
      return reply
        .status(201)
        .send(await service.createEndpoint(deps, ownerContext(request, auth), request.body));
    },
  );

  app.patch(
    "/api/merchant/webhooks/:id",
    {
      schema: {
        params: webhookEndpointParams,
        body: updateWebhookEndpointRequest,
        response: { 200: webhookEndpoint },
      },
    },
    async (request, reply) => {
      const auth = await requireAuth(db, request, reply);
      return service.updateEndpoint(deps, ownerContext(request, auth), request.params.id, request.body);
    },
  );

  app.delete(
    "/api/merchant/webhooks/:id",
    { schema: { params: webhookEndpointParams, response: { 200: okResponse } } },
    async (request, reply) => {
      const auth = await requireAuth(db, request, reply);
      await service.deleteEndpoint(deps, ownerContext(request, auth), request.params.id);
      return { ok: true as const };
    },
  );

  app.post(
    "/api/merchant/webhooks/:id/rotate-secret",
    { schema: { params: webhookEndpointParams, response: { 200: webhookEndpointWithSecret } } },
    async (request, reply) => {
      const auth = await requireAuth(db, request, reply);
      return service.rotateSecret(deps, ownerContext(request, auth), request.params.id);
    },
  );

  app.post(
    "/api/merchant/webhooks/:id/test",
    { schema: { params: webhookEndpointParams, response: { 201: webhookDelivery } } },
    async (request, reply) => {
      const auth = await requireAuth(db, request, reply);
      return reply.status(201).send(await service.sendTestEvent(deps, auth.user.id, request.params.id));
    },
  );

  app.get(
    "/api/merchant/webhooks/:id/deliveries",
    { schema: { params: webhookEndpointParams, response: { 200: webhookDeliveryList } } },
    async (request, reply) => {
      const auth = await requireAuth(db, request, reply);
      return service.listDeliveries(deps, auth.user.id, request.params.id);
    },
  );

  app.post(
    "/api/merchant/webhook-deliveries/:id/replay",
    { schema: { params: webhookDeliveryParams, response: { 200: webhookDelivery } } },
    async (request, reply) => {
      const auth = await requireAuth(db, request, reply);
      return service.replayDelivery(deps, auth.user.id, request.params.id);
    },
  );
}
