import type { CreateApiKeyRequest, CreatedApiKey } from "@common/api-keys";
import { useMutation } from "@tanstack/react-query";
import { apiRequest } from "@/lib/api-client";
import { queryClient } from "@/lib/query-client";
import { apiKeysQueryKey } from "./get-api-keys";

/** POST /api/merchant/api-keys: the answer is the only time the secret is seen. */
export async function createApiKey(body: CreateApiKeyRequest): Promise<CreatedApiKey> {
  const response = await apiRequest("POST", "/api/merchant/api-keys", body);
  return (await response.json()) as CreatedApiKey;
}

export function useCreateApiKey() {
  return useMutation({
    mutationFn: createApiKey,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeysQueryKey }),
  });
}
