/**
 * The page paths of the client's route table (client/src/app/router.tsx, spec section 2), as wouter patterns.
 * The server answers any other page path with 404 (and the app, which shows its not-found page); a test keeps
 * this list and the router in step. No zod: the server imports it for every page request.
 */
export const CLIENT_ROUTES = [
  "/",
  "/blog",
  "/blog/:slug",
  "/about",
  "/about-us",
  "/contact",
  "/privacy-policy",
  "/terms-of-service",
  "/legal-documents",
  "/auth",
  "/forgot-password",
  "/reset-password",
  "/profile",
  "/merchant",
  "/payment",
  "/payment/:reference",
  "/easy-payment",
  "/social-login-test",
  "/pay/:paymentReference",
  "/refund/:token",
  "/buy-cpxtb",
  "/buy-cpxtb/orders/:id",
  "/reports",
  "/payments",
  "/webhooks",
  "/developers",
  "/audit-log",
  "/team",
  "/invitations/:token",
  "/settings",
  "/presentation",
  "/pos",
  "/l/:slug",
  "/links",
] as const;

export type ClientRoute = (typeof CLIENT_ROUTES)[number];

const patterns = CLIENT_ROUTES.map(
  (route) =>
    [route, new RegExp(`^${route.replace(/:[A-Za-z]+/g, "[^/]+").replace(/\/$/, "")}/?$`, "i")] as const,
);

/** The first route of the client's router that matches `path` (no query string), as wouter matches it. */
export function matchingClientRoute(path: string): ClientRoute | null {
  return patterns.find(([, pattern]) => pattern.test(path))?.[0] ?? null;
}

/** True when the client's router shows a page of its own for `path` (no query string). */
export function isClientRoute(path: string): boolean {
  return matchingClientRoute(path) !== null;
}
