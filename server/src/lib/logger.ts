import { type FastifyReply, type FastifyRequest, type FastifyServerOptions, LogController } from "fastify";
import pino from "pino";
import type { Config } from "../config.ts";

const SECRET_QUERY_PARAMS = /([?&](?:token|code|state|key|secret|password|signature|nonce|api_key)=)[^&#]*/gi;

/** An API key pasted where it does not belong (a path or another parameter) is still recognised by its prefix. */
const API_KEY_SECRETS = /cpx_live_[A-Za-z0-9_-]+/g;

/** Query strings can carry one-time tokens (password reset, OAuth codes): never write them to the log. */
export function redactUrl(url: string): string {
  return url.replace(SECRET_QUERY_PARAMS, "$1[redacted]").replace(API_KEY_SECRETS, "cpx_live_[redacted]");
}

/**
 * The server's logger. Lines go to stdout through an asynchronous writer: a burst of requests is written in a few
 * large writes instead of one blocking write per line (the writer flushes what it holds when the process exits).
 */
export function loggerOptions(
  config: Config,
  stream?: { write(line: string): void },
): FastifyServerOptions["logger"] {
  if (config.logLevel === "silent") return false;
  return {
    level: config.logLevel,
    stream: stream ?? pino.destination({ dest: 1, sync: false }),
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

/**
 * One line per request, written when it is answered, with the request's method and URL: Fastify's own
 * controller writes two (one on arrival, one on completion). Every other line (errors, 404s) stays as it is.
 */
export class OneLinePerRequest extends LogController {
  override incomingRequest() {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    if (error) {
      reply.log.error(
        { req: request, res: reply, err: error, responseTime: reply.elapsedTime },
        "request errored",
      );
    } else {
      reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, "request completed");
    }
  }
}
