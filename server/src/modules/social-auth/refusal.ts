import {
  isSocialReturnReason,
  SOCIAL_RETURN_PARAM,
  SOCIAL_RETURN_PROVIDER_PARAM,
  type SocialProvider,
  type SocialReturnReason,
} from "@common/social.ts";
import type { FastifyRequest } from "fastify";
import type { AppError } from "../../errors.ts";

/**
 * A callback the browser navigated to (it asks for HTML) is answered with a redirect back to the page, never with
 * the JSON error a script gets.
 */
export function isBrowserNavigation(request: FastifyRequest): boolean {
  return (request.headers.accept ?? "").includes("text/html");
}

/** The reason a refused sign-in tells its page: named by the error where it matters, else by its kind. */
export function socialReturnReason(error: AppError): SocialReturnReason {
  const reason = error.details?.reason;
  if (isSocialReturnReason(reason)) return reason;
  if (
    error.code === "BAD_GATEWAY" ||
    error.code === "SERVICE_UNAVAILABLE" ||
    error.code === "GATEWAY_TIMEOUT"
  ) {
    return "unreachable";
  }
  return "failed";
}

/** `path` (a checked path of this site) with the reason and provider added, its own query and fragment kept. */
export function withSocialReturn(path: string, reason: SocialReturnReason, provider: SocialProvider): string {
  const url = new URL(path, "http://placeholder.invalid");
  url.searchParams.set(SOCIAL_RETURN_PARAM, reason);
  url.searchParams.set(SOCIAL_RETURN_PROVIDER_PARAM, provider);
  return `${url.pathname}${url.search}${url.hash}`;
}
