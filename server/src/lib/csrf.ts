import type { FastifyInstance } from "fastify";
import { AppError } from "../errors.ts";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Cross-site request forgery guard for the API. Browsers can send a cross-site form or a no-cors fetch without
 * asking, but such a request always carries an Origin header, and only a form can carry a non-JSON body.
 * So: a state-changing request with an Origin must come from our own origin, and a body must be JSON.
 */
export function registerCsrfGuard(app: FastifyInstance, options: { publicUrl: string | undefined }) {
  const publicOrigin = options.publicUrl ? new URL(options.publicUrl).origin : undefined;
  app.addHook("onRequest", async (request) => {
    if (SAFE_METHODS.has(request.method) || !request.url.startsWith("/api/")) return;
    const origin = request.headers.origin;
    // /api/v1 is authenticated only by the Authorization header, never by a cookie, so a foreign page cannot
    // borrow the browser's credentials there: a server-to-server client may send any Origin.
    if (origin !== undefined && !request.url.startsWith("/api/v1/")) {
      const own = `${request.protocol}://${request.host}`;
      if (origin !== own && origin !== publicOrigin) {
        throw new AppError("FORBIDDEN", "Cross-site requests are not allowed.");
      }
    }
    const type = request.headers["content-type"];
    const hasBody =
      Number(request.headers["content-length"] ?? 0) > 0 || request.headers["transfer-encoding"];
    if ((type !== undefined || hasBody) && !/^application\/json\s*(;|$)/i.test(type ?? "")) {
      throw new AppError(
        "UNSUPPORTED_MEDIA_TYPE",
        "Send the request body as JSON (Content-Type: application/json).",
      );
    }
  });
}
