import { pathOf, sameOriginUrl } from "@common/same-origin";

/**
 * Where to go after signing in: `raw` when it names a page of this site (checked on the normalised address, so
 * `/.//host` or `/%2e%2e//host` are refused like `//host` and `/\host`; see `sameOriginUrl`), else `fallback`.
 * A path to the sign-in page itself is unwrapped to its own `next` (a social sign-in comes back to the page it
 * started from, which may be /auth?next=...).
 */
export function safeNextPath(
  raw: string | null | undefined,
  fallback = "/merchant",
  origin = window.location.origin,
): string {
  const url = sameOriginUrl(raw, [origin]);
  if (!url) return fallback;
  if (url.pathname === "/auth") return safeNextPath(url.searchParams.get("next"), fallback, origin);
  return pathOf(url);
}
