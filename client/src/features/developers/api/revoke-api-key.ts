import { useMutation } from "@tanstack/react-query";
import { apiRequest } from "@/lib/api-client";
import { queryClient } from "@/lib/query-client";
import { apiKeysQueryKey } from "./get-api-keys";

/** DELETE /api/merchant/api-keys/:id: the key stops working at once. */
export async function revokeApiKey(id: string): Promise<void> {
  await apiRequest("DELETE", `/api/merchant/api-keys/${id}`);
}

export function useRevokeApiKey() {
  return useMutation({
    mutationFn: revokeApiKey,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeysQueryKey }),
  });
}
