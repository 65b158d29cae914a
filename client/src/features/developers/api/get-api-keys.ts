import type { ApiKey, ApiKeyKind } from "@common/api-keys";
import { queryOptions, useQuery } from "@tanstack/react-query";

export const apiKeysQueryKey = ["/api/merchant/api-keys"] as const;

/** GET /api/merchant/api-keys: the business's active keys (never their secrets) and the kind this install makes. */
export const apiKeysQueryOptions = () =>
  queryOptions<{ items: ApiKey[]; kind: ApiKeyKind }>({ queryKey: apiKeysQueryKey });

export function useApiKeys(enabled = true) {
  return useQuery({ ...apiKeysQueryOptions(), enabled });
}
