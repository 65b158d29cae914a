import {
  changeEmailRequest,
  changePasswordRequest,
  changeUsernameRequest,
  forgotPasswordRequest,
  loginRequest,
  okResponse,
  preferencesRequest,
  registerRequest,
  resetPasswordRequest,
  resetTokenCheckRequest,
  resetTokenCheckResponse,
  sessionsResponse,
  userResponse,
} from "@common/auth.ts";
import { signInResponse } from "@common/two-factor.ts";
import type { FastifyReply, FastifyRequest } from "fastify";
import * as z from "zod";
import { AppError, errorBody } from "../../errors.ts";
import type { FastifyZod } from "../../lib/fastify-zod.ts";
import { auditContext, recordAudit } from "../audit/record.ts";
import { findOwnedBusiness } from "../two-factor/repository.ts";
import * as repo from "./repository.ts";
import * as service from "./service.ts";
import { type Auth, resolveAuth } from "./session.ts";

/** Sign-in, registration and the reset flow are what attackers hammer: the stricter "auth" rate-limit group. */
const AUTH_LIMIT = { rateLimit: "auth" as const };

const FORGOT_PASSWORD_MESSAGE =
  "If an account has that verified email address, we sent it a link to reset the password. The link works for one hour.";

export async function authRoutes(app: FastifyZod, deps: service.AuthDeps) {
  const { db } = deps;
  const requireAuth = async (request: FastifyRequest, reply: FastifyReply): Promise<Auth> => {
    const auth = await resolveAuth(db, request, reply);
    if (!auth) throw new AppError("UNAUTHENTICATED", "You are not signed in.");
    return auth;
  };
  const user = { 200: userResponse };

  // The most frequent request of all (every page load asks it): a visitor's 401 is answered here rather than
  // thrown through the error handler, which costs more than the rest of the request.
  app.get("/api/user", { schema: { response: user } }, async (request, reply) => {
    const auth = await resolveAuth(db, request, reply);
    // Untyped reply: the error shape is the one the error handler sends, serialised by plain JSON.stringify (a
    // zod response schema for it would cost a quarter of the throughput).
    if (!auth)
      return (reply as FastifyReply).status(401).send(errorBody("UNAUTHENTICATED", "You are not signed in."));
    return service.toUserResponse(auth.user);
  });

  app.post(
    "/api/register",
    { config: AUTH_LIMIT, schema: { body: registerRequest, response: { 201: userResponse } } },
    async (request, reply) => {
      const created = await service.register(deps, request, reply, request.body);
      return reply.status(201).send(service.toUserResponse(created));
    },
  );

  app.post(
    "/api/login",
    { config: AUTH_LIMIT, schema: { body: loginRequest, response: { 200: signInResponse } } },
    async (request, reply) => {
      const result = await service.login(deps, request, reply, request.body);
      if (result instanceof service.SignInChallenge) {
        // The challenge overlay opens on any 429 carrying a challenge and retries the sign-in once solved.
        return (reply as FastifyReply).status(429).send({
          ...errorBody(
            "RATE_LIMITED",
            "Many failed sign-ins for this account. Please solve the security check to continue.",
          ),
          challenge: result.challenge,
        });
      }
      return "twoFactorRequired" in result ? result : service.toUserResponse(result);
    },
  );

  app.post("/api/logout", { schema: { response: { 200: okResponse } } }, async (request, reply) => {
    await service.logout(deps, request, reply, await resolveAuth(db, request, reply));
    return { ok: true as const };
  });

  app.post(
    "/api/forgot-password",
    { config: AUTH_LIMIT, schema: { body: forgotPasswordRequest, response: { 200: okResponse } } },
    async (request) => {
      await service.requestPasswordReset(deps, request, request.body.email);
      return { ok: true as const, message: FORGOT_PASSWORD_MESSAGE };
    },
  );

  app.post(
    "/api/reset-password/check",
    {
      config: AUTH_LIMIT,
      schema: { body: resetTokenCheckRequest, response: { 200: resetTokenCheckResponse } },
    },
    async (request) => service.checkResetToken(deps, request.body.token),
  );

  app.post(
    "/api/reset-password",
    { config: AUTH_LIMIT, schema: { body: resetPasswordRequest, response: { 200: signInResponse } } },
    async (request, reply) => {
      const result = await service.resetPassword(deps, request, reply, request.body);
      return "twoFactorRequired" in result ? result : service.toUserResponse(result);
    },
  );

  // Opened from the email, so a GET that ends on the profile page with the outcome.
  app.get(
    "/api/verify-email",
    { schema: { querystring: z.object({ token: z.string().max(200).default("") }) } },
    async (request, reply) => {
      const outcome = request.query.token ? await service.verifyEmail(deps, request.query.token) : "invalid";
      return reply.redirect(`/profile?email=${outcome}`, 303);
    },
  );

  app.patch(
    "/api/user/username",
    { schema: { body: changeUsernameRequest, response: user } },
    async (request, reply) =>
      service.toUserResponse(
        await service.changeUsername(deps, await requireAuth(request, reply), request.body.username),
      ),
  );

  app.post(
    "/api/user/email",
    { schema: { body: changeEmailRequest, response: user } },
    async (request, reply) => {
      const auth = await requireAuth(request, reply);
      return service.toUserResponse(await service.changeEmail(deps, request, auth, request.body.email));
    },
  );

  app.post(
    "/api/user/password",
    { schema: { body: changePasswordRequest, response: { 200: okResponse } } },
    async (request, reply) => {
      await service.changePassword(deps, await requireAuth(request, reply), request.body);
      return { ok: true as const, message: "Password changed. Your other sessions were signed out." };
    },
  );

  app.patch(
    "/api/user/preferences",
    { schema: { body: preferencesRequest, response: user } },
    async (request, reply) => {
      const auth = await requireAuth(request, reply);
      const updated = await repo.updateUser(db, auth.user.id, request.body);
      await deps.sessions.changed(auth.user.id, { ended: false });
      return service.toUserResponse(updated!);
    },
  );

  app.get(
    "/api/user/sessions",
    { schema: { response: { 200: sessionsResponse } } },
    async (request, reply) => {
      const auth = await requireAuth(request, reply);
      const rows = await repo.listLiveSessions(db, auth.user.id, new Date());
      return {
        sessions: rows.map((s) => ({
          id: s.id,
          device: s.userAgent ?? "Unknown device",
          ip: s.ip,
          createdAt: s.createdAt.toISOString(),
          lastSeenAt: s.lastSeenAt.toISOString(),
          current: s.id === auth.session.id,
        })),
      };
    },
  );

  app.delete(
    "/api/user/sessions/:id",
    { schema: { params: z.object({ id: z.string().max(64) }), response: { 200: okResponse } } },
    async (request, reply) => {
      const auth = await requireAuth(request, reply);
      if (!(await repo.deleteSession(db, auth.user.id, request.params.id))) {
        throw new AppError("NOT_FOUND", "No such session.");
      }
      await deps.sessions.changed(auth.user.id, { ended: true });
      if (request.params.id === auth.session.id) await service.logout(deps, request, reply, null);
      return { ok: true as const };
    },
  );

  // Sign out everywhere, this device included.
  app.delete("/api/user/sessions", { schema: { response: { 200: okResponse } } }, async (request, reply) => {
    const auth = await requireAuth(request, reply);
    const business = await findOwnedBusiness(db, auth.user.id);
    await db.transaction(async (tx) => {
      const ended = await repo.deleteUserSessions(tx, auth.user.id);
      await recordAudit(tx, auditContext(request, auth.user.id), {
        action: "auth.sign_out",
        businessId: business?.id ?? null,
        metadata: { everywhere: true, sessions: ended },
      });
    });
    await deps.sessions.changed(auth.user.id, { ended: true });
    await service.logout(deps, request, reply, null);
    return { ok: true as const };
  });
}
