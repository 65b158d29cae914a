import {
  createMerchantRequest,
  merchantResponse,
  updateMerchantRequest,
  walletChallengeRequest,
  walletChallengeResponse,
} from "@common/merchant.ts";
import { ALL_ROLES, MANAGER_ROLES } from "@common/team.ts";
import type { Db } from "../../db/client.ts";
import type { FastifyZod } from "../../lib/fastify-zod.ts";
import { ownerContext } from "../audit/record.ts";
import { authOf, memberOf } from "./access.ts";
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
    {
      // Before a business exists (registering one) as well as for a new wallet of one (updating it).
      config: { merchant: "account" },
      schema: { body: walletChallengeRequest, response: { 200: walletChallengeResponse } },
    },
    async (request) => {
      const auth = authOf(request);
      return service.createWalletChallenge(db, auth.user, request.body.address);
    },
  );

  app.post(
    "/api/merchant",
    {
      config: { merchant: "account" },
      schema: { body: createMerchantRequest, response: { 201: merchantResponse } },
    },
    async (request, reply) => {
      const auth = authOf(request);
      const merchant = await service.registerMerchant(db, auth.user.id, request.body);
      return reply.status(201).send(service.toMerchantResponse(merchant));
    },
  );

  app.get(
    "/api/merchant",
    { config: { merchant: { roles: ALL_ROLES } }, schema: { response: { 200: merchantResponse } } },
    async (request) => service.toMerchantResponse(memberOf(request)),
  );

  app.patch(
    "/api/merchant",
    {
      config: { merchant: { roles: MANAGER_ROLES } },
      schema: { body: updateMerchantRequest, response: { 200: merchantResponse } },
    },
    async (request) => {
      const merchant = await service.updateMerchant(
        db,
        ownerContext(request, authOf(request)),
        memberOf(request),
        request.body,
      );
      onMerchantChanged();
      return service.toMerchantResponse(merchant);
    },
  );
}
