import { apiErrorBody } from "@common/errors.ts";
import {
  managedWalletResponse,
  walletPayRequest,
  walletSendResponse,
  walletSendsQuery,
  walletSendsResponse,
  walletWithdrawRequest,
} from "@common/social.ts";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Db } from "../../db/client.ts";
import { AppError } from "../../errors.ts";
import type { FastifyZod } from "../../lib/fastify-zod.ts";
import { resolveAuth } from "../auth/session.ts";
import type { ManagedWallets } from "./service.ts";

const errors = {
  400: apiErrorBody,
  401: apiErrorBody,
  403: apiErrorBody,
  404: apiErrorBody,
  409: apiErrorBody,
  422: apiErrorBody,
  502: apiErrorBody,
  503: apiErrorBody,
};

/** The managed wallet of the signed-in social account: look, pay a payment request, withdraw. */
export async function walletRoutes(app: FastifyZod, deps: { db: Db; wallets: ManagedWallets }) {
  const requireAuth = async (request: FastifyRequest, reply: FastifyReply) => {
    const auth = await resolveAuth(deps.db, request, reply);
    if (!auth) throw new AppError("UNAUTHENTICATED", "You are not signed in.");
    return auth;
  };

  app.get(
    "/api/wallet",
    { schema: { response: { 200: managedWalletResponse, ...errors } } },
    async (request, reply) => {
      const auth = await requireAuth(request, reply);
      reply.header("Cache-Control", "no-store");
      return deps.wallets.summary(auth.user.id);
    },
  );

  app.get(
    "/api/wallet/sends",
    { schema: { querystring: walletSendsQuery, response: { 200: walletSendsResponse, ...errors } } },
    async (request, reply) => {
      const auth = await requireAuth(request, reply);
      reply.header("Cache-Control", "no-store");
      return deps.wallets.sends(auth.user.id, request.query);
    },
  );

  app.post(
    "/api/wallet/pay",
    { schema: { body: walletPayRequest, response: { 200: walletSendResponse, ...errors } } },
    async (request, reply) => {
      const auth = await requireAuth(request, reply);
      return deps.wallets.respond(await deps.wallets.pay(auth, request.body));
    },
  );

  app.post(
    "/api/wallet/withdraw",
    { schema: { body: walletWithdrawRequest, response: { 200: walletSendResponse, ...errors } } },
    async (request, reply) => {
      const auth = await requireAuth(request, reply);
      return deps.wallets.respond(await deps.wallets.withdraw(auth, request.body));
    },
  );
}
