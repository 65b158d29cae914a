import type { Merchant, UpdateMerchantRequest } from "@common/merchant";
import { useMutation } from "@tanstack/react-query";
import { apiRequest } from "@/lib/api-client";
import { queryClient } from "@/lib/query-client";
import { merchantQueryKey } from "./get-merchant";

/** PATCH /api/merchant: any subset of the fields; a new receiving address with its signature proof. */
export async function updateMerchant(body: UpdateMerchantRequest): Promise<Merchant> {
  const response = await apiRequest("PATCH", "/api/merchant", body);
  return (await response.json()) as Merchant;
}

export function useUpdateMerchant() {
  return useMutation({
    mutationFn: updateMerchant,
    onSuccess: (merchant) => queryClient.setQueryData(merchantQueryKey, merchant),
  });
}
