import type { MemberRole } from "@common/merchant.ts";
import { MANAGER_ROLES } from "@common/team.ts";
import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from "fastify";
import type { Db } from "../../db/client.ts";
import { AppError } from "../../errors.ts";
import { type Auth, resolveAuth } from "../auth/session.ts";
import { findMerchantOfMember, type MemberMerchant, requireMerchant } from "./service.ts";

/**
 * Who may call a merchant route (decision 021, issue 33), declared in its `config.merchant` and checked by one hook
 * for every route under /api/merchant, before the body is read:
 * - `{ roles }`: a member of the business the user acts for with one of `roles`, with the second factor the
 *   business requires (401 signed out, 404 without any business, 403 `FORBIDDEN` for another role or a removed
 *   member, 403 `TWO_FACTOR_REQUIRED`). `noBusiness: "empty"` lets a user who has no business at all through
 *   with `request.member` null (lists answer empty rather than 404).
 * - `"account"`: the signed-in account itself, not a business (registering one, the wallet challenge that comes
 *   before it, listing and switching the businesses one belongs to): only 401 when signed out.
 * The query that reads the data checks membership and role again, so a change in between still reads nothing.
 */
/**
 * Role rules of features whose routes and queries must agree, declared here in one place: a route's
 * `config.merchant` and the query's scope use the same list.
 */
export const ROLE_RULES = {
  /** The pay button's allowed origins (decision 035): read and changed by the owner and admins, not staff. */
  embedOrigins: MANAGER_ROLES,
} as const satisfies Record<string, readonly MemberRole[]>;

export type MerchantAccess = { roles: readonly MemberRole[]; noBusiness?: "empty" } | "account";

declare module "fastify" {
  interface FastifyContextConfig {
    /** Required on every /api/merchant route: see `MerchantAccess`. */
    merchant?: MerchantAccess;
  }
  interface FastifyRequest {
    /** The business a merchant route acts for, set by the access hook; null only with `noBusiness: "empty"`. */
    member: MemberMerchant | null | undefined;
  }
}

/** Every path under /api/merchant (and any /api/merchant… sibling) is a merchant route. */
export const isMerchantRoute = (url: string) => url.startsWith("/api/merchant");

/**
 * Installs the one check: registering an /api/merchant route without `config.merchant` fails the app's start
 * (a route cannot forget it), and each such route gets the check as its last onRequest hook (after the rate
 * limiter and the CSRF guard, before the body is parsed or validated).
 */
export function registerMerchantAccess(app: FastifyInstance, { db }: { db: Db }) {
  app.decorateRequest("member", undefined);
  app.addHook("onRoute", (route) => {
    if (!isMerchantRoute(route.url)) return;
    const access = route.config?.merchant;
    const methods = [route.method].flat().join(",");
    if (access === undefined)
      throw new Error(
        `${methods} ${route.url} is a merchant route without config.merchant: declare which roles may call it ({ roles: [...] }) or "account".`,
      );
    if (access !== "account" && access.roles.length === 0)
      throw new Error(`${methods} ${route.url} declares no role that may call it.`);
    const check: onRequestHookHandler = async (request, reply) => {
      const auth = await resolveAuth(db, request, reply);
      if (!auth) throw new AppError("UNAUTHENTICATED", "You are not signed in.");
      if (access === "account") return;
      request.member =
        access.noBusiness === "empty"
          ? await findMerchantOfMember(db, auth.user.id, access.roles)
          : await requireMerchant(db, auth.user.id, access.roles);
    };
    const existing = route.onRequest ? [route.onRequest].flat() : [];
    route.onRequest = [...existing, check];
  });
}

/** The signed-in user of a route the access hook let through (any /api/merchant route). */
export function authOf(request: FastifyRequest): Auth {
  if (!request.auth) throw new Error(`${request.url}: no access check ran for this route.`);
  return request.auth;
}

/** The business a `{ roles }` route acts for, as the access hook found it. */
export function memberOf(request: FastifyRequest): MemberMerchant {
  if (!request.member) throw new Error(`${request.url}: no member was checked for this route.`);
  return request.member;
}
