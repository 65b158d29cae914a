import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyInstance, FastifyReply } from "fastify";
import helmet, { type HelmetOptions } from "helmet";
import type { Config } from "../config.ts";
import { isHttpsOrigin } from "./public-origin.ts";

/**
 * What a route may change of the headers every response gets: only the embed routes use it (decision 035).
 * `allowFraming` lets the listed origins frame this one response (CSP `frame-ancestors` with them, no
 * X-Frame-Options, whose DENY would win in older browsers) and keeps a payer's popup its `opener` (no COOP);
 * with no origin it leaves the response unframeable. `allowCrossOriginScript` lets other sites load a script.
 */
export type SecurityHeaders = {
  allowFraming(reply: FastifyReply, origins: readonly string[]): void;
  allowCrossOriginScript(reply: FastifyReply): void;
};

const NO_FRAMING = "frame-ancestors 'none'";

/**
 * Security headers (CSP, HSTS, frame, sniffing, referrer ...) on every response, as helmet makes them: computed
 * once at start (`helmetHeaders`); @fastify/helmet would rebuild the whole middleware on every request.
 * Scripts: only our own files and the exact inline scripts of index.html (by hash), never 'unsafe-inline'.
 * No page may be framed (`frame-ancestors 'none'`, `X-Frame-Options: DENY`) except what an embed route allows
 * for its one response through the returned `allowFraming`.
 */
export function registerSecurityHeaders(
  app: FastifyInstance,
  config: Config,
  inlineScriptHashes: string[],
): SecurityHeaders {
  const https = isHttpsOrigin(config);
  // Sockets and fetches only to this site (CSP 'self' covers ws/wss of the same host in CSP 3; the public
  // ws origin is named too for older engines), plus the public RPC wallets' reads may use.
  const publicWs = config.publicUrl.replace(/^http/, "ws");
  const rpcOrigin = config.chain.rpcPublicUrl ? [new URL(config.chain.rpcPublicUrl).origin] : [];
  const options: HelmetOptions = {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...inlineScriptHashes],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", "data:", "blob:", "https:"],
        connectSrc: ["'self'", publicWs, ...rpcOrigin],
        fontSrc: ["'self'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: config.env === "production" && https ? [] : null,
      },
    },
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: https ? undefined : false,
    xFrameOptions: { action: "deny" },
  };
  const headers = helmetHeaders(options);
  app.addHook("onRequest", (_request, reply, done) => {
    for (const [name, value] of headers) reply.raw.setHeader(name, value);
    done();
  });
  const csp = headers.find(([name]) => name.toLowerCase() === "content-security-policy")?.[1];
  if (!csp?.includes(NO_FRAMING)) throw new Error("the CSP has no frame-ancestors 'none' to replace");
  return {
    allowFraming(reply, origins) {
      if (origins.length === 0) return;
      reply.raw.setHeader(
        "Content-Security-Policy",
        csp.replace(NO_FRAMING, `frame-ancestors ${origins.join(" ")}`),
      );
      reply.raw.removeHeader("X-Frame-Options");
      reply.raw.removeHeader("Cross-Origin-Opener-Policy");
    },
    allowCrossOriginScript(reply) {
      reply.raw.setHeader("Cross-Origin-Resource-Policy", "cross-origin");
    },
  };
}

/**
 * The headers helmet sets, read once from a stand-in response: they are the same for every request (nothing in
 * them depends on it), and setting them from a list costs a fifth of running helmet's chain of a dozen
 * middlewares per request (4 % of the server's time on GET /api/user).
 */
function helmetHeaders(options: HelmetOptions): [string, string][] {
  const headers: [string, string][] = [];
  const response = {
    setHeader: (name: string, value: string) => headers.push([name, String(value)]),
    removeHeader: () => {},
  };
  let failure: unknown;
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => {
    failure = error;
  });
  if (failure || headers.length === 0) throw new Error("helmet set no security headers", { cause: failure });
  return headers;
}
