import { pathOf, sameOriginUrl } from "@common/same-origin.ts";
import { AppError } from "../../errors.ts";

/**
 * The path (with query and fragment) to send the browser back to, when `raw` points at one of `origins`: an
 * absolute URL of our own origin, or a path of this site. The check is made on the normalised result
 * (`sameOriginUrl`), so `/.//host`, `/%2e%2e//host`, `//host`, `/\host`, `javascript:`, a look-alike host like
 * our-host.evil.test or `https://our-host@evil.test` are all refused: the sign-in can never be an open redirect.
 */
export function sameOriginPath(raw: string | undefined, origins: string[]): string {
  if (raw === undefined || raw === "") return "/";
  const url = sameOriginUrl(raw, origins);
  if (!url) {
    throw new AppError("BAD_REQUEST", "redirectUrl must be an address on this site.", {
      field: "redirectUrl",
    });
  }
  return pathOf(url);
}

/**
 * The absolute `Location` for a path of this site on `siteOrigin` (the public origin, or in development the
 * loopback name of it the browser used; see `requestOrigin`). The path is checked again here (a flow stored by an
 * older instance, or a path built from one, must not become `//host`); anything else goes home.
 */
export function publicLocation(path: string, siteOrigin: string): string {
  const origin = new URL(siteOrigin).origin;
  return (sameOriginUrl(path, [origin]) ?? new URL("/", origin)).href;
}
