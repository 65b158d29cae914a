import type { FastifyServerOptions } from "fastify";
import type { Config } from "../config.ts";

const SECRET_QUERY_PARAMS = /([?&](?:token|code|state|key|secret|password|signature|nonce|api_key)=)[^&#]*/gi;

/** An API key pasted where it does not belong (a path or another parameter) is still recognised by its prefix. */
const API_KEY_SECRETS = /cpx_live_[A-Za-z0-9_-]+/g;

/** Query strings can carry one-time tokens (password reset, OAuth codes): never write them to the log. */
export function redactUrl(url: string): string {
  return url.replace(SECRET_QUERY_PARAMS, "$1[redacted]").replace(API_KEY_SECRETS, "cpx_live_[redacted]");
}

export function loggerOptions(config: Config): FastifyServerOptions["logger"] {
  if (config.logLevel === "silent") return false;
  return {
    level: config.logLevel,
    redact: {
      paths: [
        "req.headers.cookie",
        "req.headers.authorization",
        'req.headers["x-api-key"]',
        'req.headers["x-math-challenge-response"]',
        'res.headers["set-cookie"]',
        "*.password",
        "*.currentPassword",
        "*.newPassword",
        "*.token",
        "*.privateKey",
        "*.seed",
      ],
      censor: "[redacted]",
    },
    serializers: {
      req(request) {
        return {
          method: request.method,
          url: redactUrl(request.url),
          remoteAddress: request.ip,
        };
      },
    },
  };
}
