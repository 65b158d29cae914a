import { createHash, randomBytes } from "node:crypto";
import { SOCIAL_PROVIDER_NAMES, SOCIAL_PROVIDERS, type SocialProvider } from "@common/social.ts";
import type { FastifyReply, FastifyRequest } from "fastify";
import * as oidc from "openid-client";
import type { Config } from "../../config.ts";
import type { SocialConfig } from "../../config-social.ts";
import type { Db, DbOrTx } from "../../db/client.ts";
import { AppError } from "../../errors.ts";
import { createId } from "../../lib/ids.ts";
import { requestOrigin } from "../../lib/public-origin.ts";
import type { SharedState } from "../../lib/shared-state/shared-state.ts";
import * as accounts from "../auth/repository.ts";
import { isUniqueViolation } from "../auth/service.ts";
import type { Auth } from "../auth/session.ts";
import type { SessionCache } from "../auth/session-cache.ts";
import * as siweRepo from "../siwe/repository.ts";
import { completeFirstFactor } from "../two-factor/sign-in.ts";
import { createProviderClient, type ProviderClient, type ProviderIdentity } from "./providers.ts";
import { publicLocation, sameOriginPath } from "./redirect-url.ts";
import { socialReturnReason, withSocialReturn } from "./refusal.ts";
import * as repo from "./repository.ts";

/** What the social module needs from the managed wallets: one wallet per social account, made in its transaction. */
export type WalletAccess = {
  ensureWallet(db: DbOrTx, userId: string): Promise<{ address: string }>;
  /** Whole tokens as a decimal string, read from the chain. */
  balanceOf(address: string): Promise<string>;
};

export type SocialDeps = {
  db: Db;
  state: SharedState;
  config: Config;
  wallets: WalletAccess;
  /** Told when a session ends here (sign-out), so every instance forgets it at once (decision 004). */
  sessions: SessionCache;
};

/** A sign-in started here must come back within this time. */
const FLOW_TTL_MS = 10 * 60 * 1000;
const DEV_CODE_TTL_MS = 2 * 60 * 1000;
export const FLOW_COOKIE = "cpxtb_social_flow";

type Flow = {
  provider: SocialProvider;
  codeVerifier: string;
  nonce: string;
  redirectPath: string;
  /** Set when a signed-in user links this provider instead of signing in. */
  linkUserId: string | null;
  development: boolean;
};

/** Where the refused sign-in goes back to: filled in once its flow is known. */
type StartedFrom = { redirectPath: string | null };

type DevCode = { state: string; name: string; email: string; codeChallenge: string; nonce: string };

const flowKey = (state: string) => `social:flow:${state}`;
const usedKey = (state: string) => `social:used:${state}`;
const devCodeKey = (code: string) => `social:devcode:${code}`;

export function isProvider(value: string): value is SocialProvider {
  return (SOCIAL_PROVIDERS as readonly string[]).includes(value);
}

export function requireProvider(value: string): SocialProvider {
  if (!isProvider(value)) throw new AppError("NOT_FOUND", `There is no sign-in provider called "${value}".`);
  return value;
}

export type ProviderMode = "provider" | "development" | "unavailable";

export function providerMode(social: SocialConfig, provider: SocialProvider): ProviderMode {
  if (social.providers[provider].clientId) return "provider";
  return social.developmentPage ? "development" : "unavailable";
}

export function listProviders(social: SocialConfig) {
  return SOCIAL_PROVIDERS.map((provider) => ({
    provider,
    name: SOCIAL_PROVIDER_NAMES[provider],
    mode: providerMode(social, provider),
  }));
}

/**
 * This site's origins: the public origin first (decision 010), then the other names of the same loopback server
 * in development. Never whatever the request's Host header says.
 */
export function ownOrigins(config: Config, request: FastifyRequest): string[] {
  const origins = [new URL(config.publicUrl).origin];
  const other = requestOrigin(config, request);
  if (other !== config.publicUrl) origins.push(new URL(other).origin);
  return origins;
}

/**
 * The redirect_uri registered with the provider. Apple's answer is a cross-site form POST, which the API's CSRF
 * guard (JSON only, same origin) rightly refuses, so it lands outside /api and is turned into a GET there.
 */
export function callbackUrl(config: Config, request: FastifyRequest, provider: SocialProvider): string {
  const origin = ownOrigins(config, request)[0];
  if (config.social.providers[provider].responseMode === "form_post")
    return `${origin}/social-auth/${provider}/callback`;
  return `${origin}/api/social-auth/${provider}/callback`;
}

export function createSocialAuth(deps: SocialDeps) {
  const clients = new Map<SocialProvider, ProviderClient>();
  const clientFor = (provider: SocialProvider) => {
    let client = clients.get(provider);
    if (!client) {
      client = createProviderClient(deps.config.social.providers[provider]);
      clients.set(provider, client);
    }
    return client;
  };

  /** Where the browser goes to sign in: the provider, or the development page. */
  async function start(
    request: FastifyRequest,
    reply: FastifyReply,
    provider: SocialProvider,
    input: { redirectUrl?: string; link: boolean; auth: Auth | null },
  ): Promise<string> {
    const redirectPath = sameOriginPath(input.redirectUrl, ownOrigins(deps.config, request));
    const mode = providerMode(deps.config.social, provider);
    if (mode === "unavailable") {
      throw new AppError(
        "SERVICE_UNAVAILABLE",
        `${SOCIAL_PROVIDER_NAMES[provider]} sign-in is not configured on this server.`,
      );
    }
    if (input.link && !input.auth) throw new AppError("UNAUTHENTICATED", "Sign in first to link an account.");
    const state = oidc.randomState();
    const flow: Flow = {
      provider,
      codeVerifier: oidc.randomPKCECodeVerifier(),
      nonce: oidc.randomNonce(),
      redirectPath,
      linkUserId: input.link ? input.auth!.user.id : null,
      development: mode === "development",
    };
    await deps.state.set(flowKey(state), JSON.stringify(flow), FLOW_TTL_MS);
    // Binds the flow to this browser: a callback carrying someone else's state is refused (login CSRF).
    reply.setCookie(FLOW_COOKIE, state, {
      path: "/api/social-auth",
      httpOnly: true,
      sameSite: "lax",
      secure: "auto",
      maxAge: FLOW_TTL_MS / 1000,
    });
    const codeChallenge = await oidc.calculatePKCECodeChallenge(flow.codeVerifier);
    if (flow.development) {
      await deps.state.set(
        `social:devflow:${state}`,
        JSON.stringify({ codeChallenge, nonce: flow.nonce }),
        FLOW_TTL_MS,
      );
      return `/api/social-auth/${provider}/dev?state=${encodeURIComponent(state)}`;
    }
    const url = await clientFor(provider).authorizationUrl({
      redirectUri: callbackUrl(deps.config, request, provider),
      state,
      codeChallenge,
      nonce: flow.nonce,
    });
    return url.toString();
  }

  /**
   * A start the browser navigated to and the server refused (the provider not configured or not answering, a link
   * without a session): the browser goes back to the page it came from, told why (`withSocialReturn`), as a refused
   * callback does, instead of landing on a JSON error in English (issue 37). A return address that is not this
   * site's is not followed: /auth says it.
   */
  function refusedStart(
    request: FastifyRequest,
    provider: SocialProvider,
    redirectUrl: string | undefined,
    error: AppError,
  ): string {
    let path = "/auth";
    try {
      path = sameOriginPath(redirectUrl, ownOrigins(deps.config, request));
    } catch {
      // The refused address stays refused.
    }
    const reason = socialReturnReason(error);
    request.log.info(
      { provider, reason, code: error.code, refusal: error.message },
      "social sign-in could not start; the browser goes back",
    );
    return publicLocation(withSocialReturn(path, reason, provider), requestOrigin(deps.config, request));
  }

  /** The development page's "Continue": a one-time code, as a provider would issue, back to our callback. */
  async function devAuthorize(
    provider: SocialProvider,
    input: { state: string; name: string; email: string },
  ) {
    if (providerMode(deps.config.social, provider) !== "development") {
      throw new AppError("NOT_FOUND", "The development sign-in page is not available here.");
    }
    const raw = await deps.state.get(`social:devflow:${input.state}`);
    if (!raw) throw new AppError("BAD_REQUEST", "This sign-in has expired or was already used. Start again.");
    const { codeChallenge, nonce } = JSON.parse(raw) as { codeChallenge: string; nonce: string };
    const code = randomBytes(24).toString("base64url");
    const devCode: DevCode = {
      state: input.state,
      name: input.name,
      email: input.email,
      codeChallenge,
      nonce,
    };
    await deps.state.set(devCodeKey(code), JSON.stringify(devCode), DEV_CODE_TTL_MS);
    return `/api/social-auth/${provider}/callback?code=${encodeURIComponent(code)}&state=${encodeURIComponent(input.state)}`;
  }

  /** Checks the development code the way a provider's token endpoint would: single use, state, PKCE, nonce. */
  async function exchangeDevCode(code: string, state: string, flow: Flow): Promise<ProviderIdentity> {
    const raw = await deps.state.get(devCodeKey(code));
    if (!raw || !(await deps.state.setIfAbsent(`${devCodeKey(code)}:used`, "1", DEV_CODE_TTL_MS))) {
      throw new AppError("BAD_REQUEST", "This sign-in code is not valid or was already used. Start again.", {
        reason: "expired",
      });
    }
    await deps.state.delete(devCodeKey(code));
    const dev = JSON.parse(raw) as DevCode;
    const challenge = await oidc.calculatePKCECodeChallenge(flow.codeVerifier);
    if (dev.state !== state || dev.codeChallenge !== challenge || dev.nonce !== flow.nonce) {
      throw new AppError("BAD_REQUEST", "The sign-in could not be verified. Please start again.");
    }
    const email = dev.email.trim().toLowerCase();
    return {
      // The same email is the same development identity; the name is only shown.
      subject: `dev-${createHash("sha256").update(email).digest("hex").slice(0, 32)}`,
      name: dev.name.trim() || null,
      email,
      emailVerified: false,
    };
  }

  /**
   * The provider sent the browser back: the state must be the one this browser started (cookie) and unused, then
   * the code is exchanged with PKCE (and nonce for OIDC). Answers where to send the browser next: an absolute
   * URL on this site's origin, its path checked again (`publicLocation`). A refusal is thrown, unless `browser`
   * (a navigation, not a script): then the browser goes back to the page the sign-in started from (/auth while
   * the flow is unknown) told why, instead of landing on a JSON error.
   */
  async function complete(
    request: FastifyRequest,
    reply: FastifyReply,
    provider: SocialProvider,
    params: Record<string, string | undefined>,
    auth: Auth | null,
    { browser }: { browser: boolean },
  ): Promise<string> {
    // The public origin, or the loopback name of it this browser used (its session cookie is there), never Host.
    const origin = requestOrigin(deps.config, request);
    const started: StartedFrom = { redirectPath: null };
    try {
      return publicLocation(await completeFlow(request, reply, provider, params, auth, started), origin);
    } catch (error) {
      if (!browser || !(error instanceof AppError)) throw error;
      const reason = started.redirectPath === null ? "expired" : socialReturnReason(error);
      request.log.info(
        { provider, reason, code: error.code, refusal: error.message },
        "social sign-in refused; the browser goes back",
      );
      return publicLocation(withSocialReturn(started.redirectPath ?? "/auth", reason, provider), origin);
    }
  }

  async function completeFlow(
    request: FastifyRequest,
    reply: FastifyReply,
    provider: SocialProvider,
    params: Record<string, string | undefined>,
    auth: Auth | null,
    started: StartedFrom,
  ): Promise<string> {
    const state = params.state;
    const invalid = (message: string) => new AppError("BAD_REQUEST", message);
    if (!state) throw invalid("The sign-in answer has no state. Please start again.");
    const cookieState = request.cookies[FLOW_COOKIE];
    if (cookieState !== state) {
      throw invalid("This sign-in was not started in this browser, or it has expired. Please start again.");
    }
    const raw = await deps.state.get(flowKey(state));
    // Only the first of several callbacks with this state goes on (a replayed code is refused here).
    if (!raw || !(await deps.state.setIfAbsent(usedKey(state), "1", FLOW_TTL_MS))) {
      throw invalid("This sign-in has expired or was already completed. Please start again.");
    }
    await deps.state.delete(flowKey(state));
    reply.clearCookie(FLOW_COOKIE, { path: "/api/social-auth" });
    const flow = JSON.parse(raw) as Flow;
    started.redirectPath = flow.redirectPath;
    if (flow.provider !== provider) throw invalid("This sign-in was started with another provider.");
    if (params.error) {
      return withSocialReturn(
        flow.redirectPath,
        params.error === "access_denied" ? "cancelled" : "failed",
        provider,
      );
    }
    if (!params.code) throw invalid("The sign-in answer has no code. Please start again.");

    const identity = flow.development
      ? await exchangeDevCode(params.code, state, flow)
      : await clientFor(provider).exchange(currentUrl(request, provider, params), {
          state,
          codeVerifier: flow.codeVerifier,
          nonce: flow.nonce,
        });
    if (!flow.development && provider === "apple" && params.user) {
      // Apple sends the name only once, in the form's `user` field, never in the id_token.
      identity.name ??= appleName(params.user);
    }

    if (flow.linkUserId) {
      if (auth?.user.id !== flow.linkUserId) {
        throw new AppError("UNAUTHENTICATED", "Sign in again to link this account.", {
          reason: "signInAgain",
        });
      }
      await link(flow.linkUserId, provider, identity, flow.development);
      return withParam(flow.redirectPath, "socialLinked", provider);
    }
    const user = await findOrCreateUser(provider, identity, flow.development);
    // An account with a second factor continues on the sign-in page's code step (decision 019), then goes where
    // it was going (`next`: the flow's same-origin path, checked when the flow began; the page checks it again).
    const result = await completeFirstFactor(deps, request, reply, user, "social");
    request.log.info({ userId: user.id, provider }, "signed in with a social account");
    return "twoFactorRequired" in result
      ? `/auth?twoFactor=required&next=${encodeURIComponent(flow.redirectPath)}`
      : flow.redirectPath;
  }

  function currentUrl(
    request: FastifyRequest,
    provider: SocialProvider,
    params: Record<string, string | undefined>,
  ) {
    const url = new URL(callbackUrl(deps.config, request, provider));
    for (const [key, value] of Object.entries(params)) {
      if (value !== undefined && key !== "user") url.searchParams.set(key, value);
    }
    return url;
  }

  async function freeUsername(provider: SocialProvider, name: string | null): Promise<string> {
    const slug = (name ?? "")
      .normalize("NFKD")
      .replace(/[^A-Za-z0-9]+/g, "_")
      .replace(/^_+|_+$/g, "")
      .toLowerCase()
      .slice(0, 18);
    const base = `${provider}_${slug || "user"}`;
    const taken = new Set(
      (await siweRepo.findUsernamesWithPrefix(deps.db, base)).map((u) => u.toLowerCase()),
    );
    if (!taken.has(base)) return base;
    for (let n = 2; ; n++) if (!taken.has(`${base}_${n}`)) return `${base}_${n}`;
  }

  /** The name to greet with, from the provider's profile ("Bea Santos"); null without a usable one. */
  const displayNameOf = (identity: ProviderIdentity): string | null =>
    identity.name?.replace(/\s+/g, " ").trim().slice(0, 100) || null;

  /** By (provider, subject) only; a new identity gets a new account with its managed wallet, in one transaction. */
  async function findOrCreateUser(
    provider: SocialProvider,
    identity: ProviderIdentity,
    development: boolean,
  ) {
    for (let attempt = 0; attempt < 5; attempt++) {
      const existing = await repo.findSocialAccount(deps.db, provider, identity.subject);
      if (existing) {
        await repo.touchSocialAccount(deps.db, existing.id, identity);
        let user = await accounts.findUserById(deps.db, existing.userId);
        if (user) {
          await deps.wallets.ensureWallet(deps.db, user.id);
          // The greeting follows the name the person now has at the provider they signed in with.
          const displayName = displayNameOf(identity);
          if (displayName && displayName !== user.displayName) {
            user = (await accounts.updateUser(deps.db, user.id, { displayName })) ?? user;
          }
          return user;
        }
      }
      const username = await freeUsername(provider, identity.name);
      try {
        return await deps.db.transaction(async (tx) => {
          const user = await accounts.insertUser(tx, {
            id: createId("usr"),
            username,
            passwordHash: null,
            displayName: displayNameOf(identity),
          });
          await repo.insertSocialAccount(tx, {
            id: createId("sac"),
            userId: user.id,
            provider,
            subject: identity.subject,
            name: identity.name,
            email: identity.email,
            emailVerified: identity.emailVerified,
            development,
          });
          await deps.wallets.ensureWallet(tx, user.id);
          return user;
        });
      } catch (error) {
        if (
          isUniqueViolation(error, "social_accounts_provider_subject_key") ||
          isUniqueViolation(error, "users_username_lower_key")
        ) {
          continue;
        }
        throw error;
      }
    }
    throw new AppError("CONFLICT", "Could not create your account. Please try again.");
  }

  async function link(
    userId: string,
    provider: SocialProvider,
    identity: ProviderIdentity,
    development: boolean,
  ) {
    const existing = await repo.findSocialAccount(deps.db, provider, identity.subject);
    if (existing && existing.userId !== userId) {
      throw new AppError(
        "CONFLICT",
        `This ${SOCIAL_PROVIDER_NAMES[provider]} account is linked to another account.`,
        { reason: "linkedElsewhere" },
      );
    }
    if (existing) return;
    const current = await repo.listSocialAccounts(deps.db, userId);
    if (current.some((a) => a.provider === provider)) {
      throw new AppError(
        "CONFLICT",
        `Another ${SOCIAL_PROVIDER_NAMES[provider]} account is already linked. Unlink it first.`,
        { reason: "alreadyLinked" },
      );
    }
    try {
      await deps.db.transaction(async (tx) => {
        await repo.insertSocialAccount(tx, {
          id: createId("sac"),
          userId,
          provider,
          subject: identity.subject,
          name: identity.name,
          email: identity.email,
          emailVerified: identity.emailVerified,
          development,
        });
        await deps.wallets.ensureWallet(tx, userId);
        // An account without a name to greet with takes the linked profile's.
        const displayName = displayNameOf(identity);
        const user = displayName ? await accounts.findUserById(tx, userId) : undefined;
        if (displayName && user && !user.displayName) await accounts.updateUser(tx, userId, { displayName });
      });
    } catch (error) {
      if (isUniqueViolation(error, "social_accounts_provider_subject_key")) {
        throw new AppError(
          "CONFLICT",
          `This ${SOCIAL_PROVIDER_NAMES[provider]} account is linked to another account.`,
          { reason: "linkedElsewhere" },
        );
      }
      throw error;
    }
  }

  /** Never leaves an account without a way in: a password, a linked wallet, or another provider. */
  async function unlink(auth: Auth, provider: SocialProvider) {
    const linked = await repo.listSocialAccounts(deps.db, auth.user.id);
    if (!linked.some((a) => a.provider === provider)) {
      throw new AppError("NOT_FOUND", `No ${SOCIAL_PROVIDER_NAMES[provider]} account is linked.`, {
        reason: "not_linked",
        provider,
      });
    }
    const wallets = await siweRepo.listUserWallets(deps.db, auth.user.id);
    if (linked.length === 1 && wallets.length === 0 && auth.user.passwordHash === null) {
      throw new AppError(
        "CONFLICT",
        `${SOCIAL_PROVIDER_NAMES[provider]} is how you sign in. Set a password or link another way in first.`,
        { reason: "last_way_in", provider },
      );
    }
    await repo.deleteSocialAccount(deps.db, auth.user.id, provider);
    return repo.listSocialAccounts(deps.db, auth.user.id);
  }

  /** Spec section 7: the signed-in social user of this provider, with the managed wallet's address and balance. */
  async function profile(auth: Auth | null, provider: SocialProvider) {
    if (!auth) return null;
    const linked = (await repo.listSocialAccounts(deps.db, auth.user.id)).find(
      (a) => a.provider === provider,
    );
    if (!linked) return null;
    const wallet = await deps.wallets.ensureWallet(deps.db, auth.user.id);
    return {
      name: linked.name ?? auth.user.username,
      email: linked.email ?? "",
      walletAddress: wallet.address,
      balance: await deps.wallets.balanceOf(wallet.address),
    };
  }

  return {
    start,
    refusedStart,
    devAuthorize,
    complete,
    unlink,
    profile,
    listAccounts: (userId: string) => repo.listSocialAccounts(deps.db, userId),
  };
}

export type SocialAuth = ReturnType<typeof createSocialAuth>;

function withParam(path: string, key: string, value: string): string {
  const url = new URL(path, "http://placeholder.invalid");
  url.searchParams.set(key, value);
  return `${url.pathname}${url.search}${url.hash}`;
}

function appleName(user: string): string | null {
  try {
    const parsed = JSON.parse(user) as { name?: { firstName?: string; lastName?: string } };
    const name = [parsed.name?.firstName, parsed.name?.lastName].filter(Boolean).join(" ").trim();
    return name || null;
  } catch {
    return null;
  }
}

export function toLinkedSocialAccount(row: repo.SocialAccountRow) {
  return {
    provider: row.provider,
    name: row.name,
    email: row.email,
    development: row.development,
    createdAt: row.createdAt.toISOString(),
  };
}
