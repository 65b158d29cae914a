import { API_KEY_SCOPES } from "@common/api-keys.ts";
import { apiErrorBody } from "@common/errors.ts";
import {
  createPaymentRequest,
  listPaymentsResponse,
  paymentDetailResponse,
  paymentResponse,
} from "@common/payments.ts";
import * as z from "zod";
import type { ApiRouteCatalog } from "../api-v1/routes.ts";
import { exampleFor } from "./examples.ts";

type JsonSchema = Record<string, unknown> & {
  properties?: Record<string, JsonSchema>;
  required?: string[];
  description?: string;
};

/** Schemas the document names under components (the rest are inlined where they are used). */
const NAMED = new Map<z.ZodType, string>([
  [createPaymentRequest, "CreatePaymentRequest"],
  [paymentResponse, "Payment"],
  [paymentDetailResponse, "PaymentDetail"],
  [listPaymentsResponse, "PaymentList"],
  [apiErrorBody, "Error"],
]);

const STATUS_TEXT: Record<string, string> = {
  200: "OK",
  201: "Created",
  400: "The request is not valid (malformed JSON, a wrong type, a value out of range).",
  401: "No API key, or a malformed, unknown or revoked one.",
  403: "The API key lacks the permission this operation needs.",
  404: "No such payment for this key's merchant (or no business registered).",
  409: "Idempotency-Key reused with another body, or still in progress; or no free unique amount.",
  413: "The body is too large.",
  415: "The body is not JSON.",
  429: "Too many requests with this key: wait for Retry-After seconds.",
  503: "Payments are unavailable for a moment (the chain or the price is unreachable).",
};

function jsonSchemaOf(schema: unknown, io: "input" | "output"): JsonSchema {
  const { $schema: _, ...rest } = z.toJSONSchema(schema as z.ZodType, {
    target: "draft-2020-12",
    io,
    unrepresentable: "any",
  }) as JsonSchema;
  return rest;
}

/** Turns `/api/v1/payments/:id` into `/api/v1/payments/{id}`. */
export function openApiPath(url: string) {
  return url.replace(/:([A-Za-z0-9_]+)/g, "{$1}");
}

/**
 * The OpenAPI 3.1 document of /api/v1, made from the routes as they were registered: their zod schemas (the same
 * ones that validate requests and serialise responses), their scope and their descriptions.
 */
export function buildOpenApiDocument(
  catalog: ApiRouteCatalog,
  serverUrl: string,
  keyKind: "test" | "live" = "live",
) {
  const keyPrefix = `cpx_${keyKind}_`;
  const components: Record<string, JsonSchema> = {};
  const ref = (schema: unknown, io: "input" | "output"): JsonSchema => {
    const name = NAMED.get(schema as z.ZodType);
    if (!name) return jsonSchemaOf(schema, io);
    components[name] ??= jsonSchemaOf(schema, io);
    return { $ref: `#/components/schemas/${name}` };
  };
  const parameters = (schema: unknown, where: "path" | "query" | "header") => {
    if (!schema) return [];
    const object = jsonSchemaOf(schema, "input");
    return Object.entries(object.properties ?? {}).map(([name, property]) => {
      const { description, ...rest } = property;
      return {
        name:
          where === "header" ? name.replace(/(^|-)([a-z])/g, (_m, dash, c) => dash + c.toUpperCase()) : name,
        in: where,
        required: where === "path" || (object.required ?? []).includes(name),
        ...(description ? { description } : {}),
        schema: rest,
      };
    });
  };

  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of catalog) {
    const schema = (route.schema ?? {}) as Record<string, unknown> & {
      response?: Record<string, unknown>;
    };
    const scope = route.config?.apiScope;
    const methods = [route.method].flat() as string[];
    for (const method of methods) {
      const responses = Object.fromEntries(
        Object.entries(schema.response ?? {}).map(([status, body]) => [
          status,
          {
            description: STATUS_TEXT[status] ?? status,
            ...(status === "429"
              ? {
                  headers: {
                    "Retry-After": { schema: { type: "integer" }, description: "Seconds to wait." },
                  },
                }
              : {}),
            content: {
              "application/json": {
                schema: ref(body, "output"),
                example: exampleFor(body, status, serverUrl) ?? undefined,
              },
            },
          },
        ]),
      );
      const operation = {
        operationId: `${method.toLowerCase()}${openApiPath(route.url)
          .replace(/^\/api\/v1/, "")
          .replace(/[{}]/g, "")
          .split("/")
          .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
          .join("")}`,
        summary: schema.summary,
        description: schema.description,
        security: scope ? [{ apiKey: [scope] }] : [],
        "x-required-scope": scope,
        parameters: [
          ...parameters(schema.params, "path"),
          ...parameters(schema.querystring, "query"),
          ...parameters(schema.headers, "header"),
        ],
        ...(schema.body
          ? {
              requestBody: {
                required: true,
                content: { "application/json": { schema: ref(schema.body, "input") } },
              },
            }
          : {}),
        responses,
      };
      paths[openApiPath(route.url)] ??= {};
      paths[openApiPath(route.url)]![method.toLowerCase()] = operation;
    }
  }

  return {
    openapi: "3.1.0",
    info: {
      title: "CPXTB Pay API",
      version: "1",
      description: `Create and read payments from your own server. Authenticate with an API key made in the dashboard (Developers): \`Authorization: Bearer ${keyPrefix}...\`. Every error is \`{ "error": { "code", "message" } }\`.`,
    },
    servers: [{ url: serverUrl }],
    security: [{ apiKey: [] }],
    paths,
    components: {
      schemas: components,
      securitySchemes: {
        apiKey: {
          type: "http",
          scheme: "bearer",
          bearerFormat: `${keyPrefix}<43 characters>`,
          description: `An API key from the dashboard. Its permissions: ${API_KEY_SCOPES.join(", ")}. The scope each operation needs is listed in its security requirement.`,
        },
      },
    },
  };
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;
