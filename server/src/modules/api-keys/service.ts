import { createHash, randomBytes } from "node:crypto";
import {
  API_KEY_PATTERN,
  API_KEY_PREFIX_LENGTH,
  type ApiKey,
  type ApiKeyKind,
  type ApiKeyScope,
  apiKeyKindOf,
  type CreateApiKeyRequest,
  MAX_API_KEYS,
} from "@common/api-keys.ts";
import type { FastifyRequest } from "fastify";
import type { Db } from "../../db/client.ts";
import { AppError } from "../../errors.ts";
import { createId } from "../../lib/ids.ts";
import { type AuditContext, recordAudit } from "../audit/record.ts";
import type { MemberMerchant } from "../merchants/service.ts";
import * as repo from "./repository.ts";

/** Last use is written at most this often per key: a busy integration costs no write per request. */
const TOUCH_EVERY_MS = 60 * 1000;

export type ApiKeyAuth = { id: string; merchantId: string; ownerId: string; scopes: readonly string[] };

declare module "fastify" {
  interface FastifyRequest {
    /** undefined: not looked up yet; null: no valid key. Use `authenticateApiKey` / `requireApiKey`. */
    apiKey: ApiKeyAuth | null | undefined;
  }
}

/** SHA-256 suits a secret of 256 random bits: nothing to guess, so no slow hash is needed (decision 015). */
export function hashApiKey(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

export function toApiKeyResponse(row: repo.ApiKeyRow): ApiKey {
  return {
    id: row.id,
    name: row.name,
    scopes: row.scopes as ApiKeyScope[],
    prefix: row.prefix,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  };
}

export async function createApiKey(
  db: Db,
  context: AuditContext & { userId: string },
  /** The business as the route's access check found it (owner or admin). */
  merchant: MemberMerchant,
  input: CreateApiKeyRequest & { scopes: string[] },
  /** `test` on a development install (embedded chain), `live` on a real chain. */
  kind: ApiKeyKind,
) {
  if ((await repo.countActiveApiKeys(db, merchant.id)) >= MAX_API_KEYS) {
    throw new AppError(
      "CONFLICT",
      `A business can have at most ${MAX_API_KEYS} keys. Revoke one you no longer use.`,
    );
  }
  const secret = `cpx_${kind}_${randomBytes(32).toString("base64url")}`;
  const row = await db.transaction(async (tx) => {
    const inserted = await repo.insertApiKey(tx, {
      id: createId("key"),
      merchantId: merchant.id,
      name: input.name,
      scopes: input.scopes,
      prefix: secret.slice(0, API_KEY_PREFIX_LENGTH),
      secretHash: hashApiKey(secret),
    });
    await recordAudit(tx, context, {
      action: "api_key.created",
      businessId: merchant.id,
      target: inserted.id,
      metadata: { name: inserted.name, prefix: inserted.prefix, scopes: inserted.scopes },
    });
    return inserted;
  });
  return { ...toApiKeyResponse(row), secret };
}

export async function revokeApiKey(
  db: Db,
  context: AuditContext & { userId: string },
  merchant: MemberMerchant,
  id: string,
) {
  await db.transaction(async (tx) => {
    if (!(await repo.revokeApiKeyOfOwner(tx, context.userId, id, new Date()))) {
      throw new AppError("NOT_FOUND", "No such key (or it was already revoked).");
    }
    await recordAudit(tx, context, { action: "api_key.revoked", businessId: merchant.id, target: id });
  });
}

/** The bearer token of the request, or null when there is no Authorization header of the Bearer kind. */
function bearerOf(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  return match ? match[1]! : "";
}

/**
 * The API key of this request, or null: looked up once per request (the rate limiter asks first, the route
 * then finds it here). A cookie never counts.
 */
export async function authenticateApiKey(
  db: Db,
  request: FastifyRequest,
  /** The kind of keys this deployment accepts: a test key never works on a live one, nor the reverse. */
  kind: ApiKeyKind,
): Promise<ApiKeyAuth | null> {
  if (request.apiKey !== undefined) return request.apiKey;
  const secret = bearerOf(request);
  if (!secret || !API_KEY_PATTERN.test(secret) || apiKeyKindOf(secret) !== kind) {
    request.apiKey = null;
    return null;
  }
  const found = await repo.findActiveApiKeyByHash(db, hashApiKey(secret));
  if (!found) {
    request.apiKey = null;
    return null;
  }
  const now = new Date();
  const { key } = found;
  if (!key.lastUsedAt || now.getTime() - key.lastUsedAt.getTime() > TOUCH_EVERY_MS) {
    await repo.touchApiKey(db, key.id, now, new Date(now.getTime() - TOUCH_EVERY_MS));
  }
  request.apiKey = { id: key.id, merchantId: key.merchantId, ownerId: found.ownerId, scopes: key.scopes };
  return request.apiKey;
}

/** 401 without a valid key, 403 when the key lacks `scope`. */
export async function requireApiKey(
  db: Db,
  request: FastifyRequest,
  scope: ApiKeyScope,
  kind: ApiKeyKind,
): Promise<ApiKeyAuth> {
  const auth = await authenticateApiKey(db, request, kind);
  if (!auth) {
    const sent = request.headers.authorization !== undefined;
    const other = apiKeyKindOf(bearerOf(request) ?? "");
    throw new AppError(
      "UNAUTHENTICATED",
      !sent
        ? `Send an API key: Authorization: Bearer cpx_${kind}_...`
        : other && other !== kind
          ? other === "test"
            ? "This is a test key (cpx_test_...): it works only on the development install that made it. Use a live key (cpx_live_...) made on this deployment."
            : "This is a live key (cpx_live_...): this is a development install, which takes only its own test keys (cpx_test_...). Make one on its Developers page."
          : "The API key is not valid or has been revoked.",
    );
  }
  if (!auth.scopes.includes(scope)) {
    throw new AppError("FORBIDDEN", `This API key does not have the ${scope} permission.`);
  }
  return auth;
}
