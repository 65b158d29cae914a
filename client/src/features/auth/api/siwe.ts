import type { LinkedWalletsResponse, SiweNonceResponse, SiweSignedMessage } from "@common/siwe";
import type { SignInResult } from "@common/two-factor";
import { queryOptions } from "@tanstack/react-query";
import { apiRequest, getQueryFn } from "@/lib/api-client";

/** Signs a Sign-In with Ethereum message with the browser wallet (supplied by the wallet feature, lazily). */
export type WalletSigner = (getNonce: () => Promise<string>) => Promise<SiweSignedMessage>;

export async function getSiweNonce(): Promise<string> {
  const response = await apiRequest("GET", "/api/siwe/nonce");
  return ((await response.json()) as SiweNonceResponse).nonce;
}

export async function verifySiwe(signed: SiweSignedMessage): Promise<SignInResult> {
  return (await apiRequest("POST", "/api/siwe/verify", signed)).json();
}

export const WALLETS_QUERY_KEY = ["/api/user/wallets"] as const;

export function walletsQueryOptions() {
  return queryOptions({
    queryKey: WALLETS_QUERY_KEY,
    queryFn: getQueryFn<LinkedWalletsResponse>({ on401: "throw" }),
  });
}

export async function linkWallet(signed: SiweSignedMessage): Promise<LinkedWalletsResponse> {
  return (await apiRequest("POST", "/api/user/wallets", signed)).json();
}

export async function unlinkWallet(address: string): Promise<LinkedWalletsResponse> {
  return (await apiRequest("DELETE", `/api/user/wallets/${encodeURIComponent(address)}`)).json();
}
