import { apiErrorBody } from "@common/errors.ts";
import {
  linkedWalletsResponse,
  siweNonceResponse,
  siweSignedMessage,
  walletAddressParams,
} from "@common/siwe.ts";
import { signInResponse } from "@common/two-factor.ts";
import type { FastifyReply, FastifyRequest } from "fastify";
import { AppError } from "../../errors.ts";
import type { FastifyZod } from "../../lib/fastify-zod.ts";
import { toUserResponse } from "../auth/service.ts";
import { resolveAuth } from "../auth/session.ts";
import * as repo from "./repository.ts";
import * as service from "./service.ts";

const errors = { 400: apiErrorBody, 401: apiErrorBody, 409: apiErrorBody, 502: apiErrorBody };

/** Sign-In with Ethereum (EIP-4361) and the wallets linked to an account. */
export async function siweRoutes(app: FastifyZod, deps: service.SiweDeps) {
  const { db } = deps;
  const requireAuth = async (request: FastifyRequest, reply: FastifyReply) => {
    const auth = await resolveAuth(db, request, reply);
    if (!auth) throw new AppError("UNAUTHENTICATED", "You are not signed in.");
    return auth;
  };

  app.get(
    "/api/siwe/nonce",
    { schema: { response: { 200: siweNonceResponse } }, config: { rateLimit: "auth" } },
    async (_request, reply) => {
      reply.header("Cache-Control", "no-store");
      return service.issueNonce(deps);
    },
  );

  app.post(
    "/api/siwe/verify",
    {
      schema: { body: siweSignedMessage, response: { 200: signInResponse, ...errors } },
      config: { rateLimit: "auth" },
    },
    async (request, reply) => {
      const result = await service.signIn(deps, request, reply, request.body);
      return "twoFactorRequired" in result ? result : toUserResponse(result);
    },
  );

  app.get(
    "/api/user/wallets",
    { schema: { response: { 200: linkedWalletsResponse, 401: apiErrorBody } } },
    async (request, reply) => {
      const auth = await requireAuth(request, reply);
      const rows = await repo.listUserWallets(db, auth.user.id);
      return { wallets: rows.map(service.toLinkedWallet) };
    },
  );

  app.post(
    "/api/user/wallets",
    {
      schema: { body: siweSignedMessage, response: { 200: linkedWalletsResponse, ...errors } },
      config: { rateLimit: "auth" },
    },
    async (request, reply) => {
      const auth = await requireAuth(request, reply);
      const rows = await service.linkWallet(deps, request, auth, request.body);
      return { wallets: rows.map(service.toLinkedWallet) };
    },
  );

  app.delete(
    "/api/user/wallets/:address",
    {
      schema: {
        params: walletAddressParams,
        response: { 200: linkedWalletsResponse, 401: apiErrorBody, 404: apiErrorBody, 409: apiErrorBody },
      },
    },
    async (request, reply) => {
      const auth = await requireAuth(request, reply);
      const rows = await service.unlinkWallet(deps, auth, request.params.address);
      return { wallets: rows.map(service.toLinkedWallet) };
    },
  );
}
