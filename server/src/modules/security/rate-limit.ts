import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from "fastify";
import type { Config, RateLimitGroup } from "../../config.ts";
import { errorBody } from "../../errors.ts";
import type { SharedState } from "../../lib/shared-state/shared-state.ts";
import type { ChallengeService } from "./challenge-service.ts";

declare module "fastify" {
  interface FastifyContextConfig {
    /**
     * The rate-limit group of an /api route; `general` when not given. `false` exempts it: only for routes
     * that must never be refused (health checks, the public pay page).
     */
    rateLimit?: RateLimitGroup | false;
  }
}

/** Who a request counts against: the account when signed in (fair behind shared IPs), the IP otherwise. */
export type ClientKeyResolver = (request: FastifyRequest, reply: FastifyReply) => Promise<string>;

export function ipClientKey(request: FastifyRequest) {
  return `ip:${request.ip}`;
}

/** Keys of signed-in clients (see app.ts): their ordinary requests count against the account limit. */
export const ACCOUNT_KEY_PREFIX = "user:";
/** Keys of /api/v1 requests with a valid API key: counted per key against the `api` limit. */
export const API_KEY_CLIENT_PREFIX = "apikey:";

export type RateLimitOptions = {
  config: Config;
  state: SharedState;
  challenges: ChallengeService;
  clientKey: ClientKeyResolver;
};

export function windowKey(group: RateLimitGroup, clientKey: string) {
  return `rl:${group}:${clientKey}`;
}

/**
 * Adds a limiter to every /api route as it is registered (static files, the SPA and /ws are not /api).
 * Over the limit: 429 with Retry-After and a math challenge; solving it resets the window.
 */
export function registerRateLimits(app: FastifyInstance, options: RateLimitOptions) {
  app.addHook("onRoute", (route) => {
    if (!route.url.startsWith("/api/")) return;
    const group = route.config?.rateLimit ?? "general";
    if (group === false) return;
    // onRequest: before body parsing and validation, so malformed requests count too and cost little.
    const limiter = createLimiter(group, options);
    const existing = route.onRequest ? [route.onRequest].flat() : [];
    route.onRequest = [limiter, ...existing];
  });
}

/**
 * Counts a server-rendered page that reads the database (the pay page, the dashboard) against the client's `group`
 * window, as the /api read it stands for would be: per address, or per account for a signed-in page
 * (`accountId`, the general group's account limit). False once the window is full: the caller then serves the
 * plain app, whose own /api call meets the limit and its challenge. Shared state unreachable: allowed, like the
 * limiter.
 */
export async function allowRenderedPage(
  request: FastifyRequest,
  group: RateLimitGroup,
  { config, state }: Pick<RateLimitOptions, "config" | "state">,
  accountId?: string,
): Promise<boolean> {
  try {
    const { limit, windowMs } =
      accountId && group === "general" ? config.accountRateLimit : config.rateLimits[group];
    const key = accountId ? `${ACCOUNT_KEY_PREFIX}${accountId}` : ipClientKey(request);
    return (await state.hitWindow(windowKey(group, key), limit, windowMs)).allowed;
  } catch (error) {
    request.log.error({ err: error }, "rate limit unavailable, page rendered");
    return true;
  }
}

function createLimiter(group: RateLimitGroup, { config, state, challenges, clientKey }: RateLimitOptions) {
  // A signed-in merchant's dashboard makes several calls per load and an office shares one address: ordinary
  // routes count per account against a limit ordinary use never meets; anonymous clients keep the group's.
  const account = group === "general" ? config.accountRateLimit : config.rateLimits[group];
  const handler: onRequestHookHandler = async (request, reply) => {
    let key: string;
    let allowed: boolean;
    let retryAfterMs: number;
    let windowMs = config.rateLimits[group].windowMs;
    try {
      key = await clientKey(request, reply);
      const { limit, windowMs: window } = key.startsWith(ACCOUNT_KEY_PREFIX)
        ? account
        : config.rateLimits[group];
      windowMs = window;
      ({ allowed, retryAfterMs } = await state.hitWindow(windowKey(group, key), limit, windowMs));
    } catch (error) {
      // Shared state unreachable: serving without a limit beats refusing everyone.
      request.log.error({ err: error }, "rate limit unavailable, request allowed");
      return;
    }
    if (allowed) return;
    const retryAfter = Math.ceil(retryAfterMs / 1000);
    reply.header("Retry-After", String(retryAfter));
    if (group === "verify") {
      // The answer endpoint itself: no new challenge (that would make guessing free), just wait.
      return reply
        .status(429)
        .send(
          errorBody("RATE_LIMITED", `Too many answers. Please wait ${retryAfter} seconds and try again.`),
        );
    }
    if (group === "api") {
      // A merchant's server cannot solve a math challenge: it waits for Retry-After.
      return reply
        .status(429)
        .send(
          errorBody(
            "RATE_LIMITED",
            `Too many requests with this API key. Retry after ${retryAfter} seconds.`,
          ),
        );
    }
    const challenge = await challenges.challengeForExcess(key, group, windowMs);
    request.log.info({ group, level: challenge.level }, "rate limit reached, challenge issued");
    return reply.status(429).send({
      ...errorBody("RATE_LIMITED", "Too many requests. Please solve the security check to continue."),
      challenge,
    });
  };
  return handler;
}
