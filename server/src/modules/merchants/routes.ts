import {
  createMerchantRequest,
  merchantResponse,
  updateMerchantRequest,
  walletChallengeRequest,
  walletChallengeResponse,
} from "@common/merchant.ts";
import type { Db } from "../../db/client.ts";
import type { FastifyZod } from "../../lib/fastify-zod.ts";
import { ownerContext } from "../audit/record.ts";
import { requireAuth } from "./require-auth.ts";
import * as service from "./service.ts";

export async function merchantRoutes(
  app: FastifyZod,
  {
    db,
    onMerchantChanged,
  }: {
    db: Db /** Pay pages show the merchant: their cached views must go. */;
    onMerchantChanged: () => void;
  },
) {
  app.post(
    "/api/merchant/wallet-challenge",
    { schema: { body: walletChallengeRequest, response: { 200: walletChallengeResponse } } },
    async (request, reply) => {
      const auth = await requireAuth(db, request, reply);
      return service.createWalletChallenge(db, auth.user, request.body.address);
    },
  );

  app.post(
    "/api/merchant",
    { schema: { body: createMerchantRequest, response: { 201: merchantResponse } } },
    async (request, reply) => {
      const auth = await requireAuth(db, request, reply);
      const merchant = await service.registerMerchant(db, auth.user.id, request.body);
      return reply.status(201).send(service.toMerchantResponse(merchant));
    },
  );

  app.get("/api/merchant", { schema: { response: { 200: merchantResponse } } }, async (request, reply) => {
    const auth = await requireAuth(db, request, reply);
    return service.toMerchantResponse(await service.requireMerchant(db, auth.user.id));
  });

  app.patch(
    "/api/merchant",
    { schema: { body: updateMerchantRequest, response: { 200: merchantResponse } } },
    async (request, reply) => {
      const auth = await requireAuth(db, request, reply);
      const merchant = await service.updateMerchant(db, ownerContext(request, auth), request.body);
      onMerchantChanged();
      return service.toMerchantResponse(merchant);
    },
  );
}
