import type { FastifyInstance } from "fastify";
import helmet, { type HelmetOptions } from "helmet";
import type { Config } from "../config.ts";
import { isHttpsOrigin } from "./public-origin.ts";

/**
 * Security headers (CSP, HSTS, frame, sniffing, referrer ...) on every response. helmet builds its header
 * values once here; @fastify/helmet would rebuild the whole middleware on every request.
 * Scripts: only our own files and the exact inline scripts of index.html (by hash), never 'unsafe-inline'.
 */
export function registerSecurityHeaders(app: FastifyInstance, config: Config, inlineScriptHashes: string[]) {
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
  };
  const applyHeaders = helmet(options);
  app.addHook("onRequest", (request, reply, done) => {
    applyHeaders(request.raw, reply.raw, (error?: unknown) => done(error as Error | undefined));
  });
}
