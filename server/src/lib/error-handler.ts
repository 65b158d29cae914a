import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { AppError, type ErrorCode, errorBody, errorStatus } from "../errors.ts";
import {
  DATABASE_RETRY_AFTER_SECONDS,
  databaseInputError,
  isDatabaseUnavailable,
} from "./database-errors.ts";

/** Fastify's own error codes that are the client's fault, mapped to ours. */
const FASTIFY_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_INVALID_JSON_BODY: "INVALID_JSON",
  FST_ERR_CTP_EMPTY_JSON_BODY: "INVALID_JSON",
  FST_ERR_CTP_BODY_TOO_LARGE: "PAYLOAD_TOO_LARGE",
  FST_ERR_CTP_INVALID_MEDIA_TYPE: "UNSUPPORTED_MEDIA_TYPE",
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: "BAD_REQUEST",
  FST_ERR_CTP_INVALID_TYPE: "UNSUPPORTED_MEDIA_TYPE",
  FST_ERR_VALIDATION: "VALIDATION_ERROR",
};

const FRIENDLY_MESSAGES: Partial<Record<ErrorCode, string>> = {
  INVALID_JSON: "The request body is not valid JSON.",
  UNSUPPORTED_MEDIA_TYPE: "Send the request body as JSON (Content-Type: application/json).",
};

function statusToCode(status: number): ErrorCode {
  const entry = Object.entries(errorStatus).find(([, s]) => s === status);
  return (entry?.[0] as ErrorCode | undefined) ?? (status >= 500 ? "INTERNAL_ERROR" : "BAD_REQUEST");
}

function describeValidation(error: FastifyError): string {
  const where = error.validationContext ?? "request";
  const problems = (error.validation ?? []).map((issue) => {
    const path = issue.instancePath.replace(/^\//, "").replaceAll("/", ".");
    return path ? `${path}: ${issue.message}` : (issue.message ?? "invalid");
  });
  return `Invalid ${where}: ${problems.join("; ") || error.message}`;
}

/** The path parameters that name a resource: one of a shape no id has is as unknown as one of the right shape. */
const NAMING_PARAMS = new Set(["id", "reference", "slug"]);

/**
 * An address naming what cannot exist (`/api/merchant/links/lnk_nope`) answers 404 as an unknown id of the right
 * shape does, on every `:id`, `:reference` and `:slug` route alike: "No such link." from the schema's "unknown link".
 */
function namesNothing(error: FastifyError): string | null {
  const issues = error.validation ?? [];
  if (error.validationContext !== "params" || issues.length === 0) return null;
  if (!issues.every((issue) => NAMING_PARAMS.has(issue.instancePath.replace(/^\//, "")))) return null;
  const what = /^unknown (.+)$/.exec(issues[0]?.message ?? "")?.[1];
  return what ? `No such ${what}.` : "Nothing has this address.";
}

/**
 * Errors the router raises before any route or hook runs (Fastify's `frameworkErrors`): a path that is not
 * valid percent-encoded UTF-8, a path parameter over the router's length limit. Same error shape as the rest.
 */
export function sendFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  reply.header("X-Request-Id", request.id).header("Cache-Control", "no-store");
  if (error.code === "FST_ERR_MAX_PARAM_LENGTH") {
    return reply.status(414).send(errorBody("URI_TOO_LONG", "A part of this address is too long."));
  }
  if (error.code === "FST_ERR_BAD_URL") {
    return reply
      .status(400)
      .send(errorBody("BAD_REQUEST", "This address is not valid: it contains malformed percent-encoding."));
  }
  request.log.error({ err: error }, "router error");
  return reply
    .status(500)
    .send(errorBody("INTERNAL_ERROR", "Something went wrong on our side. Please try again."));
}

export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof AppError) {
      if (error.statusCode >= 500) request.log.error({ err: error }, "request failed");
      return reply.status(error.statusCode).send(errorBody(error.code, error.message, error.details));
    }
    if (hasZodFastifySchemaValidationErrors(error) || error.validation) {
      const missing = namesNothing(error);
      if (missing) return reply.status(404).send(errorBody("NOT_FOUND", missing));
      return reply.status(400).send(errorBody("VALIDATION_ERROR", describeValidation(error)));
    }
    const refused = databaseInputError(error);
    if (refused) {
      // Not our fault, so not an error; the statement and its parameters stay out of the log.
      request.log.warn(
        { sqlstate: refused.sqlstate, detail: refused.detail },
        "database refused a request value",
      );
      return reply.status(400).send(errorBody("VALIDATION_ERROR", refused.message));
    }
    const mapped = error.code ? FASTIFY_CODES[error.code] : undefined;
    const status = mapped ? errorStatus[mapped] : (error.statusCode ?? 500);
    if (status >= 400 && status < 500) {
      const code = mapped ?? statusToCode(status);
      return reply.status(status).send(errorBody(code, FRIENDLY_MESSAGES[code] ?? error.message));
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, "database unavailable");
      return reply
        .status(503)
        .header("Retry-After", String(DATABASE_RETRY_AFTER_SECONDS))
        .send(
          errorBody(
            "SERVICE_UNAVAILABLE",
            "The service is briefly unavailable. Please try again in a few seconds.",
          ),
        );
    }
    // Anything else is our fault: the client gets no internals, the log gets everything.
    request.log.error({ err: error }, "unhandled error");
    const code = status === 503 ? "SERVICE_UNAVAILABLE" : "INTERNAL_ERROR";
    return reply
      .status(status >= 500 && status < 600 ? status : 500)
      .send(errorBody(code, "Something went wrong on our side. Please try again."));
  });
}
