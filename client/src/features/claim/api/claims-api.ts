import type { ClaimStatus } from "@common/claims";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest, getQueryFn } from "@/lib/api-client";
import { queryClient } from "@/lib/query-client";

export type ClaimWho = { walletAddress: string; deviceId: string };

const statusUrl = (who: ClaimWho) =>
  `/api/claims/status?walletAddress=${encodeURIComponent(who.walletAddress)}&deviceId=${encodeURIComponent(who.deviceId)}`;

/** GET /api/claims/status: the amount, whether claims are on, the next claim time and the last claim. */
export const claimStatusQueryOptions = (who: ClaimWho) =>
  queryOptions<ClaimStatus>({
    queryKey: [statusUrl(who)],
    queryFn: getQueryFn<ClaimStatus>({ on401: "throw" }),
  });
export function useClaimStatus(who: ClaimWho) {
  return useQuery(claimStatusQueryOptions(who));
}

/** POST /api/claims (the `claim` rate-limit group: its excess asks the security challenge). */
export async function claimTokens(who: ClaimWho): Promise<ClaimStatus> {
  const status = (await (await apiRequest("POST", "/api/claims", who)).json()) as ClaimStatus;
  queryClient.setQueryData(claimStatusQueryOptions(who).queryKey, status);
  return status;
}
