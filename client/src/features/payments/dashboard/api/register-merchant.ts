import type { CreateMerchantRequest, Merchant } from "@common/merchant";
import { useMutation } from "@tanstack/react-query";
import { apiRequest } from "@/lib/api-client";
import { queryClient } from "@/lib/query-client";
import { merchantQueryKey } from "./get-merchant";

export type WalletChallenge = { address: string; nonce: string; message: string; expiresAt: string };

/** POST /api/merchant/wallet-challenge: the message the receiving wallet signs to prove it is the user's. */
export async function getWalletChallenge(address: string): Promise<WalletChallenge> {
  const response = await apiRequest("POST", "/api/merchant/wallet-challenge", { address });
  return (await response.json()) as WalletChallenge;
}

/** POST /api/merchant. */
export async function registerMerchant(body: CreateMerchantRequest): Promise<Merchant> {
  const response = await apiRequest("POST", "/api/merchant", body);
  return (await response.json()) as Merchant;
}

export function useRegisterMerchant() {
  return useMutation({
    mutationFn: registerMerchant,
    onSuccess: (merchant) => queryClient.setQueryData(merchantQueryKey, merchant),
  });
}
