import type {
  LinkedSocialAccountsResponse,
  ManagedWalletResponse,
  SocialAuthResponse,
  SocialProvider,
  SocialProvidersResponse,
  WalletSendResponse,
  WalletSendsResponse,
} from "@common/social";
import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import { apiRequest, getQueryFn } from "@/lib/api-client";

export const SOCIAL_PROVIDERS_QUERY_KEY = ["/api/social-auth/providers"] as const;
export function socialProvidersQueryOptions() {
  return queryOptions({
    queryKey: SOCIAL_PROVIDERS_QUERY_KEY,
    queryFn: getQueryFn<SocialProvidersResponse>({ on401: "throw" }),
  });
}

/** Spec section 7: the browser goes here for the real (redirect) login, and comes back to `redirectUrl`. */
export function realLoginUrl(provider: SocialProvider, redirectUrl: string): string {
  return `/api/social-auth/${provider}?enableRealLogin=true&redirectUrl=${encodeURIComponent(redirectUrl)}`;
}

/** Spec section 7: POST /api/social-auth/{provider}; answers the social user, or throws (401 carries the URL). */
export async function postSocialAuth(
  provider: SocialProvider,
  body: { redirectUrl: string; enableWeb3Auth: boolean; enableRealLogin: boolean },
): Promise<SocialAuthResponse> {
  return (await apiRequest("POST", `/api/social-auth/${provider}`, body)).json();
}

/** How often a shown managed-wallet balance is read again from the chain (tokens arrive without any click here). */
export const MANAGED_WALLET_REFRESH_MS = 15_000;

export const MANAGED_WALLET_QUERY_KEY = ["/api/wallet"] as const;
/**
 * The signed-in social account's managed wallet, its balance read from the chain by the server; null when signed
 * out (401). Every place that shows a managed wallet's balance reads it here: it is read again every 15 s and when
 * the window gets focus, never taken from the sign-in answer (issue 34 item 5).
 */
export function managedWalletQueryOptions() {
  return queryOptions({
    queryKey: MANAGED_WALLET_QUERY_KEY,
    queryFn: getQueryFn<ManagedWalletResponse | null>({ on401: "returnNull" }),
    refetchInterval: (query) => (query.state.data ? MANAGED_WALLET_REFRESH_MS : false),
    staleTime: 5_000,
    refetchOnWindowFocus: true,
  });
}

export const WALLET_SENDS_QUERY_KEY = ["/api/wallet/sends"] as const;
/** The account's payments and withdrawals from its managed wallet, newest first, a page at a time. */
export function walletSendsQueryOptions() {
  return infiniteQueryOptions({
    queryKey: WALLET_SENDS_QUERY_KEY,
    queryFn: async ({ pageParam }): Promise<WalletSendsResponse> => {
      const query = pageParam ? `?cursor=${encodeURIComponent(pageParam)}` : "";
      return (await apiRequest("GET", `/api/wallet/sends${query}`)).json();
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    refetchInterval: MANAGED_WALLET_REFRESH_MS,
    staleTime: 5_000,
  });
}

export async function withdrawFromManagedWallet(input: {
  to: string;
  amount: string;
  idempotencyKey: string;
}): Promise<WalletSendResponse> {
  return (await apiRequest("POST", "/api/wallet/withdraw", input)).json();
}

export async function payFromManagedWallet(input: {
  reference: string;
  idempotencyKey: string;
}): Promise<WalletSendResponse> {
  return (await apiRequest("POST", "/api/wallet/pay", input)).json();
}

export const SOCIAL_ACCOUNTS_QUERY_KEY = ["/api/user/social-accounts"] as const;
export function socialAccountsQueryOptions() {
  return queryOptions({
    queryKey: SOCIAL_ACCOUNTS_QUERY_KEY,
    queryFn: getQueryFn<LinkedSocialAccountsResponse>({ on401: "throw" }),
  });
}

/** Link: the same redirect flow, started by the signed-in user; it comes back to `redirectUrl`. */
export function linkProviderUrl(provider: SocialProvider, redirectUrl: string): string {
  return `/api/social-auth/${provider}?link=true&redirectUrl=${encodeURIComponent(redirectUrl)}`;
}

export async function unlinkProvider(provider: SocialProvider): Promise<LinkedSocialAccountsResponse> {
  return (await apiRequest("DELETE", `/api/user/social-accounts/${provider}`)).json();
}
