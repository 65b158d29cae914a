import { okResponse, userResponse } from "@common/auth.ts";
import { OWNER_ONLY } from "@common/team.ts";
import {
  addFactorRequest,
  confirmTotpRequest,
  passkeyAssertionRequest,
  passkeyIdParams,
  passkeyRegistrationRequest,
  reauthRequest,
  recoveryCodesResponse,
  requireTwoFactorRequest,
  requireTwoFactorResponse,
  secondFactorRequest,
  totpEnrolmentResponse,
  twoFactorRequiredResponse,
  twoFactorStatusResponse,
  webauthnOptionsResponse,
} from "@common/two-factor.ts";
import type { FastifyReply } from "fastify";
import * as z from "zod";
import { AppError, errorBody } from "../../errors.ts";
import type { FastifyZod } from "../../lib/fastify-zod.ts";
import { SignInChallenge, toUserResponse } from "../auth/service.ts";
import { authOf, memberOf } from "../merchants/access.ts";
import { requireAuth } from "../merchants/require-auth.ts";
import * as service from "./service.ts";
import { readPending, secondFactorsOf } from "./sign-in.ts";

const AUTH_LIMIT = { rateLimit: "auth" as const };

/** The same 429 as /api/login: the challenge overlay opens on it and retries once solved. */
function challengeReply(reply: FastifyReply, result: SignInChallenge) {
  return reply.status(429).send({
    ...errorBody(
      "RATE_LIMITED",
      "Many failed sign-ins for this account. Please solve the security check to continue.",
    ),
    challenge: result.challenge,
  });
}

const noStore = (reply: FastifyReply) => reply.header("Cache-Control", "no-store");

export async function twoFactorRoutes(app: FastifyZod, deps: service.TwoFactorDeps) {
  const { db } = deps;

  // ---- The second step of a sign-in ----

  app.get(
    "/api/login/second-factor",
    { config: AUTH_LIMIT, schema: { response: { 200: twoFactorRequiredResponse } } },
    async (request) => {
      const found = await readPending(deps.state, request);
      if (!found) throw new AppError("UNAUTHENTICATED", "There is no sign-in waiting for a code.");
      return {
        twoFactorRequired: true as const,
        methods: await secondFactorsOf(db, found.pending.userId),
        expiresAt: new Date(found.pending.expiresAt).toISOString(),
      };
    },
  );

  app.post(
    "/api/login/second-factor",
    { config: AUTH_LIMIT, schema: { body: secondFactorRequest, response: { 200: userResponse } } },
    async (request, reply) => {
      const result = await service.completeWithCode(deps, request, reply, request.body.code);
      if (result instanceof SignInChallenge) return challengeReply(reply as FastifyReply, result);
      return toUserResponse(result);
    },
  );

  app.post(
    "/api/passkeys/sign-in/options",
    { config: AUTH_LIMIT, schema: { response: { 200: webauthnOptionsResponse } } },
    async (request, reply) => {
      noStore(reply as FastifyReply);
      return { ...(await service.passkeySignInOptions(deps, request)) };
    },
  );

  app.post(
    "/api/passkeys/sign-in",
    { config: AUTH_LIMIT, schema: { body: passkeyAssertionRequest, response: { 200: userResponse } } },
    async (request, reply) => {
      const result = await service.signInWithPasskey(deps, request, reply, request.body.credential);
      if (result instanceof SignInChallenge) return challengeReply(reply as FastifyReply, result);
      return toUserResponse(result);
    },
  );

  // ---- Managing one's own second factors ----

  app.get(
    "/api/user/two-factor",
    {
      schema: {
        response: { 200: twoFactorStatusResponse.extend({ requireTwoFactor: z.boolean().nullable() }) },
      },
    },
    async (request, reply) => service.status(deps, await requireAuth(db, request, reply)),
  );

  app.post(
    "/api/user/two-factor/totp",
    {
      config: AUTH_LIMIT,
      schema: { body: addFactorRequest.optional(), response: { 200: totpEnrolmentResponse } },
    },
    async (request, reply) => {
      const auth = await requireAuth(db, request, reply);
      noStore(reply as FastifyReply);
      return service.startTotpEnrolment(deps, request, reply, auth, request.body ?? {});
    },
  );

  app.post(
    "/api/user/two-factor/totp/confirm",
    { config: AUTH_LIMIT, schema: { body: confirmTotpRequest, response: { 200: recoveryCodesResponse } } },
    async (request, reply) => {
      const auth = await requireAuth(db, request, reply);
      noStore(reply as FastifyReply);
      return { recoveryCodes: await service.confirmTotp(deps, request, auth, request.body.code) };
    },
  );

  app.post(
    "/api/user/two-factor/totp/disable",
    { config: AUTH_LIMIT, schema: { body: reauthRequest, response: { 200: okResponse } } },
    async (request, reply) => {
      const auth = await requireAuth(db, request, reply);
      await service.disableTotp(deps, request, reply, auth, request.body.code);
      return { ok: true as const };
    },
  );

  app.post(
    "/api/user/two-factor/recovery-codes",
    { config: AUTH_LIMIT, schema: { body: reauthRequest, response: { 200: recoveryCodesResponse } } },
    async (request, reply) => {
      const auth = await requireAuth(db, request, reply);
      noStore(reply as FastifyReply);
      return {
        recoveryCodes: await service.regenerateRecoveryCodes(deps, request, reply, auth, request.body.code),
      };
    },
  );

  app.post(
    "/api/user/passkeys/options",
    {
      config: AUTH_LIMIT,
      schema: { body: addFactorRequest.optional(), response: { 200: webauthnOptionsResponse } },
    },
    async (request, reply) => {
      const auth = await requireAuth(db, request, reply);
      noStore(reply as FastifyReply);
      return {
        ...(await service.passkeyRegistrationOptions(deps, request, reply, auth, request.body ?? {})),
      };
    },
  );

  app.post(
    "/api/user/passkeys",
    {
      schema: {
        body: passkeyRegistrationRequest,
        response: { 201: z.object({ id: z.string(), recoveryCodes: z.array(z.string()).nullable() }) },
      },
    },
    async (request, reply) => {
      const auth = await requireAuth(db, request, reply);
      const created = await service.registerPasskey(deps, request, auth, request.body);
      return reply.status(201).header("Cache-Control", "no-store").send(created);
    },
  );

  app.post(
    "/api/user/passkeys/:id/remove",
    {
      config: AUTH_LIMIT,
      schema: { params: passkeyIdParams, body: reauthRequest, response: { 200: okResponse } },
    },
    async (request, reply) => {
      const auth = await requireAuth(db, request, reply);
      await service.removePasskey(deps, request, reply, auth, request.params.id, request.body.code);
      return { ok: true as const };
    },
  );

  app.put(
    "/api/merchant/require-two-factor",
    {
      // The owner's setting (decision 019): for the business they act for, as its owner.
      config: { merchant: { roles: OWNER_ONLY } },
      schema: { body: requireTwoFactorRequest, response: { 200: requireTwoFactorResponse } },
    },
    async (request) =>
      service.setRequireTwoFactor(
        deps,
        request,
        authOf(request),
        memberOf(request),
        request.body.requireTwoFactor,
      ),
  );
}
