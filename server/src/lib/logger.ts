import { type FastifyReply, type FastifyRequest, type FastifyServerOptions, LogController } from "fastify";
import pino from "pino";
import type { Config } from "../config.ts";

const SECRET_QUERY_PARAMS = /([?&](?:token|code|state|key|secret|password|signature|nonce|api_key)=)[^&#]*/gi;

/** An API key pasted where it does not belong (a path or another parameter) is still recognised by its prefix. */
const API_KEY_SECRETS = /cpx_(live|test)_[A-Za-z0-9_-]+/g;

/** Paths whose last segment is a bearer token: team invitations and refund links (pages and their API). */
const SECRET_PATH_TOKENS = /(\/(?:api\/)?(?:invitations|refund-links|refund)\/)[^/?#]+/gi;

/** Query strings and some paths carry one-time tokens (password reset, OAuth codes, invitations): never logged. */
export function redactUrl(url: string): string {
  return url
    .replace(SECRET_QUERY_PARAMS, "$1[redacted]")
    .replace(SECRET_PATH_TOKENS, "$1[redacted]")
    .replace(API_KEY_SECRETS, "cpx_$1_[redacted]");
}

/** Property names whose values never reach the log, one level down in any logged object (`{ body: { password } }`). */
const SECRET_KEYS = ["password", "currentPassword", "newPassword", "token", "privateKey", "seed"] as const;

/**
 * A logged object with the values of SECRET_KEYS one level down replaced by "[redacted]" (the logged objects are
 * not changed: the replaced ones are copies). What pino's wildcard redaction (`*.password`) did, without its cost
 * on every line: it ran for every key of every line and took a fifth of the server's throughput.
 */
export function redactSecrets(object: Record<string, unknown>): Record<string, unknown> {
  let copy: Record<string, unknown> | undefined;
  for (const key in object) {
    const value = object[key];
    if (value === null || typeof value !== "object") continue;
    let safe: Record<string, unknown> | undefined;
    for (const secret of SECRET_KEYS) {
      if (!(secret in value) || (value as Record<string, unknown>)[secret] === undefined) continue;
      // An error keeps its message and stack (not own enumerable properties) by inheriting from the original.
      safe ??= value instanceof Error ? Object.create(value) : { ...value };
      safe![secret] = "[redacted]";
    }
    if (safe) {
      copy ??= { ...object };
      copy[key] = safe;
    }
  }
  return copy ?? object;
}

/**
 * Where the lines go: stdout through an asynchronous writer, so a burst of requests is written in a few large
 * writes instead of one blocking write per line (the writer flushes what it holds when the process exits).
 * It holds Buffers, not strings: in its string mode sonic-boom measures the UTF-8 length of the whole pending
 * chunk (up to 16 KB, a rope it flattens) on every line, 6 % of the server's time on GET /api/user.
 */
function stdoutLines(): { write(line: string): void; flush(cb?: () => void): void; flushSync(): void } {
  const destination = pino.destination({ dest: 1, sync: false, contentMode: "buffer" });
  return {
    write: (line) => destination.write(Buffer.from(line) as unknown as string),
    flush: (cb) => destination.flush(cb),
    flushSync: () => destination.flushSync(),
  };
}

/** The server's logger (see `stdoutLines`). */
export function loggerOptions(
  config: Config,
  stream?: { write(line: string): void },
): FastifyServerOptions["logger"] {
  if (config.logLevel === "silent") return false;
  return {
    level: config.logLevel,
    stream: stream ?? stdoutLines(),
    // Headers are never logged (the `req` serializer keeps method, URL and address); what a logged object
    // carries one level down under a secret's name is replaced before the line is written.
    formatters: { log: redactSecrets },
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
