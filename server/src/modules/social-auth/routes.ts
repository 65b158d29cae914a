import { okResponse } from "@common/auth.ts";
import { apiErrorBody } from "@common/errors.ts";
import {
  linkedSocialAccountsResponse,
  socialAuthRequest,
  socialAuthResponse,
  socialProvidersResponse,
} from "@common/social.ts";
import type { FastifyReply, FastifyRequest } from "fastify";
import * as z from "zod";
import { AppError } from "../../errors.ts";
import type { FastifyZod } from "../../lib/fastify-zod.ts";
import { requestLocale } from "../../lib/i18n.ts";
import { auditContext, recordAudit } from "../audit/record.ts";
import * as accounts from "../auth/repository.ts";
import { clearSessionCookie, resolveAuth } from "../auth/session.ts";
import { findOwnedBusiness } from "../two-factor/repository.ts";
import { findManagedWallet } from "../wallet/repository.ts";
import { devSignInPage } from "./dev-page.ts";
import { POPUP_COMPLETE_PATH, popupCompletePage } from "./popup-complete-page.ts";
import { sameOriginPath } from "./redirect-url.ts";
import { isBrowserNavigation } from "./refusal.ts";
import * as service from "./service.ts";

const providerParams = z.object({ provider: z.string().max(40) });
const startQuery = z.object({
  enableRealLogin: z.string().optional(),
  redirectUrl: z.string().max(2000).optional(),
  link: z.enum(["true", "false"]).optional(),
});
const callbackQuery = z.record(z.string(), z.string().max(4000));
const devAuthorizeQuery = z.object({
  state: z.string().min(1).max(200),
  name: z.string().trim().min(1, "Name is required").max(100),
  email: z.string().trim().max(200).pipe(z.email("Enter a valid email address")),
});
const errors = {
  400: apiErrorBody,
  401: apiErrorBody,
  404: apiErrorBody,
  409: apiErrorBody,
  502: apiErrorBody,
  503: apiErrorBody,
};

/** Social sign-in (spec sections 1, 4 and 7): the provider redirect flow, the basic JSON call, link and unlink. */
export async function socialAuthRoutes(app: FastifyZod, deps: service.SocialDeps) {
  const { db } = deps;
  const social = service.createSocialAuth(deps);
  const auth = (request: FastifyRequest, reply: FastifyReply) => resolveAuth(db, request, reply);
  const requireAuth = async (request: FastifyRequest, reply: FastifyReply) => {
    const found = await auth(request, reply);
    if (!found) throw new AppError("UNAUTHENTICATED", "You are not signed in.");
    return found;
  };
  const noStore = (reply: FastifyReply) => reply.header("Cache-Control", "no-store");

  app.get(
    "/api/social-auth/providers",
    { schema: { response: { 200: socialProvidersResponse } } },
    async () => ({ providers: service.listProviders(deps.config.social) }),
  );

  app.get(
    "/api/social-auth/:provider",
    {
      schema: { params: providerParams, querystring: startQuery, response: errors },
      config: { rateLimit: "auth" },
    },
    async (request, reply) => {
      const provider = service.requireProvider(request.params.provider);
      const link = request.query.link === "true";
      noStore(reply);
      let url: string;
      try {
        url = await social.start(request, reply, provider, {
          redirectUrl: request.query.redirectUrl,
          link,
          auth: link ? await auth(request, reply) : null,
        });
      } catch (error) {
        // A browser's navigation goes back to its page, told why; a script gets the JSON error.
        if (!isBrowserNavigation(request) || !(error instanceof AppError)) throw error;
        return reply.redirect(social.refusedStart(request, provider, request.query.redirectUrl, error), 303);
      }
      return reply.redirect(url, 302);
    },
  );

  app.get(
    "/api/social-auth/:provider/dev",
    { schema: { params: providerParams, querystring: z.object({ state: z.string().min(1).max(200) }) } },
    async (request, reply) => {
      const provider = service.requireProvider(request.params.provider);
      if (service.providerMode(deps.config.social, provider) !== "development") {
        throw new AppError("NOT_FOUND", "The development sign-in page is not available here.");
      }
      noStore(reply);
      return reply.type("text/html; charset=utf-8").send(devSignInPage(provider, request.query.state));
    },
  );

  // The basic login's window back from the provider (its redirectUrl): tells the opening page and closes.
  app.get(POPUP_COMPLETE_PATH, async (request, reply) => {
    const locale = requestLocale(request);
    return reply
      .header("Content-Type", "text/html; charset=utf-8")
      .header("Cache-Control", "no-store")
      .header("Content-Language", locale)
      .header("Vary", "Accept-Language, Cookie")
      .send(popupCompletePage(locale));
  });

  app.get(
    "/api/social-auth/:provider/dev/authorize",
    {
      schema: { params: providerParams, querystring: devAuthorizeQuery, response: errors },
      config: { rateLimit: "auth" },
    },
    async (request, reply) => {
      const provider = service.requireProvider(request.params.provider);
      noStore(reply);
      return reply.redirect(await social.devAuthorize(provider, request.query), 302);
    },
  );

  app.get(
    "/api/social-auth/:provider/callback",
    {
      schema: { params: providerParams, querystring: callbackQuery, response: errors },
      config: { rateLimit: "auth" },
    },
    async (request, reply) => {
      const provider = service.requireProvider(request.params.provider);
      const target = await social.complete(
        request,
        reply,
        provider,
        request.query,
        await auth(request, reply),
        { browser: isBrowserNavigation(request) },
      );
      noStore(reply);
      return reply.redirect(target, 303);
    },
  );

  // Apple's form_post answer: a cross-site POST outside /api, turned into our GET callback (a top-level GET
  // navigation carries the SameSite=Lax flow cookie; the POST would not).
  await app.register(async (formPost) => {
    formPost.addContentTypeParser(
      "application/x-www-form-urlencoded",
      { parseAs: "string", bodyLimit: 16 * 1024 },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );
    formPost.post("/social-auth/:provider/callback", async (request, reply) => {
      const { provider } = providerParams.parse(request.params);
      const valid = service.requireProvider(provider);
      if (deps.config.social.providers[valid].responseMode !== "form_post") {
        throw new AppError("NOT_FOUND", "This provider does not answer with a form.");
      }
      const body = (request.body ?? {}) as Record<string, unknown>;
      const query = new URLSearchParams();
      for (const key of ["code", "state", "error", "user", "iss"]) {
        const value = body[key];
        if (typeof value === "string" && value.length <= 4000) query.set(key, value);
      }
      noStore(reply);
      return reply.redirect(`/api/social-auth/${valid}/callback?${query}`, 303);
    });
  });

  app.post(
    "/api/social-auth/logout",
    { schema: { response: { 200: okResponse } } },
    async (request, reply) => {
      const found = await auth(request, reply);
      if (found) {
        const business = await findOwnedBusiness(db, found.user.id);
        await db.transaction(async (tx) => {
          if (await accounts.deleteSession(tx, found.user.id, found.session.id)) {
            await recordAudit(tx, auditContext(request, found.user.id), {
              action: "auth.sign_out",
              businessId: business?.id ?? null,
            });
          }
        });
        await deps.sessions.changed(found.user.id, { ended: true });
      }
      clearSessionCookie(reply);
      return { ok: true as const };
    },
  );

  app.post(
    "/api/social-auth/:provider",
    {
      schema: {
        params: providerParams,
        body: socialAuthRequest,
        response: { 200: socialAuthResponse, ...errors },
      },
      config: { rateLimit: "auth" },
    },
    async (request, reply) => {
      const provider = service.requireProvider(request.params.provider);
      const redirectUrl = request.body.redirectUrl;
      const origins = service.ownOrigins(deps.config, request);
      // Checked even when signed in, so a bad redirectUrl is a 400 whatever the session.
      const path = sameOriginPath(redirectUrl, origins);
      noStore(reply);
      const profile = await social.profile(await auth(request, reply), provider);
      if (profile) return profile;
      const url = `/api/social-auth/${provider}?enableRealLogin=true&redirectUrl=${encodeURIComponent(path)}`;
      throw new AppError("UNAUTHENTICATED", `Sign in with ${provider} first.`, {
        url,
        mode: service.providerMode(deps.config.social, provider),
      });
    },
  );

  app.get(
    "/api/user/social-accounts",
    { schema: { response: { 200: linkedSocialAccountsResponse, 401: apiErrorBody } } },
    async (request, reply) => {
      const found = await requireAuth(request, reply);
      const rows = await social.listAccounts(found.user.id);
      return {
        accounts: rows.map(service.toLinkedSocialAccount),
        managedWallet: Boolean(await findManagedWallet(db, found.user.id)),
      };
    },
  );

  app.delete(
    "/api/user/social-accounts/:provider",
    { schema: { params: providerParams, response: { 200: linkedSocialAccountsResponse, ...errors } } },
    async (request, reply) => {
      const found = await requireAuth(request, reply);
      const rows = await social.unlink(found, service.requireProvider(request.params.provider));
      return {
        accounts: rows.map(service.toLinkedSocialAccount),
        managedWallet: Boolean(await findManagedWallet(db, found.user.id)),
      };
    },
  );
}
