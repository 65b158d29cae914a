import type { ApiKey } from "@common/api-keys";
import { queryOptions, useQuery } from "@tanstack/react-query";

export const apiKeysQueryKey = ["/api/merchant/api-keys"] as const;

/** GET /api/merchant/api-keys: the business's active keys (never their secrets). */
export const apiKeysQueryOptions = () => queryOptions<{ items: ApiKey[] }>({ queryKey: apiKeysQueryKey });

export function useApiKeys() {
  return useQuery(apiKeysQueryOptions());
}
