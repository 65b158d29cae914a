import * as z from "zod";
import "./zod-messages.ts";
import { instant } from "./dates.ts";
import { listPaymentsQuery } from "./payments.ts";

/** What an API key may do: read its merchant's payments, create them. */
export const API_KEY_SCOPES = ["payments:read", "payments:write"] as const;
export const apiKeyScope = z.enum(API_KEY_SCOPES);
export type ApiKeyScope = z.infer<typeof apiKeyScope>;

/**
 * The kind of deployment a key belongs to: `test` keys are made by a development install (the embedded chain,
 * test tokens), `live` keys by a deployment on a real chain. A key works only on the kind that made it.
 */
export const API_KEY_KINDS = ["test", "live"] as const;
export type ApiKeyKind = (typeof API_KEY_KINDS)[number];

/** `cpx_live_` (or `cpx_test_`) and 32 random bytes as base64url (43 characters). */
export const API_KEY_PATTERN = /^cpx_(live|test)_[A-Za-z0-9_-]{43}$/;
/** The kind a well-formed key says it is, from its prefix. */
export function apiKeyKindOf(secret: string): ApiKeyKind | null {
  return secret.startsWith("cpx_test_") ? "test" : secret.startsWith("cpx_live_") ? "live" : null;
}
/** How much of a secret the dashboard shows to tell keys apart (`cpx_live_` and four characters). */
export const API_KEY_PREFIX_LENGTH = 13;
export const MAX_API_KEYS = 25;

export const createApiKeyRequest = z.object({
  name: z.string().trim().min(1, "Give the key a name.").max(60),
  scopes: z
    .array(apiKeyScope)
    .min(1, "Choose at least one permission.")
    .max(10)
    .transform((scopes) => [...new Set(scopes)].sort()),
});
export type CreateApiKeyRequest = z.input<typeof createApiKeyRequest>;

/** A key as the dashboard lists it: never the secret nor its hash. */
export const apiKeyResponse = z.object({
  id: z.string(),
  name: z.string(),
  scopes: z.array(apiKeyScope),
  /** The secret's first characters (`cpx_live_abcd`), to recognise it. */
  prefix: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type ApiKey = z.infer<typeof apiKeyResponse>;

/** The answer to a creation: the only time the secret is sent. */
export const createdApiKeyResponse = apiKeyResponse.extend({ secret: z.string() });
export type CreatedApiKey = z.infer<typeof createdApiKeyResponse>;

export const listApiKeysResponse = z.object({
  items: z.array(apiKeyResponse),
  /** The kind of keys this deployment makes and accepts: `test` on a development install. */
  kind: z.enum(API_KEY_KINDS),
});
export const apiKeyIdParams = z.object({ id: z.string().regex(/^key_[0-9a-z]{26}$/, "unknown key") });

/** `GET /api/v1/payments`: the dashboard's filters by status and creation time, newest first. */
export const v1ListPaymentsQuery = listPaymentsQuery
  .pick({ status: true, limit: true, linkId: true })
  .extend({
    from: instant.optional().describe("Created at or after this instant (ISO 8601 with `Z` or an offset)."),
    to: instant.optional().describe("Created before this instant."),
    cursor: listPaymentsQuery.shape.cursor.describe("The `nextCursor` of the previous page."),
  });
export type V1ListPaymentsQuery = z.infer<typeof v1ListPaymentsQuery>;

/** A client's own key for a create, so a retry never makes a second payment. */
export const idempotencyKeyHeader = z
  .string()
  .regex(/^[\x21-\x7e]{1,255}$/, "must be 1 to 255 visible ASCII characters")
  .optional()
  .describe(
    "Your unique id for this create (1 to 255 visible ASCII characters), e.g. your order id: a retry with the same key and body returns the same payment.",
  );
export const v1CreateHeaders = z.looseObject({ "idempotency-key": idempotencyKeyHeader });
