import type { PublicRefundLink } from "@common/refunds";
import { queryOptions, useMutation, useQuery } from "@tanstack/react-query";
import { apiRequest } from "@/lib/api-client";
import { queryClient } from "@/lib/query-client";

export const refundLinkQueryKey = (token: string) =>
  [`/api/refund-links/${encodeURIComponent(token)}`] as const;

/** GET /api/refund-links/:token: the payer's view of a refund link (410 once expired). */
export const refundLinkQueryOptions = (token: string) =>
  queryOptions<PublicRefundLink>({ queryKey: refundLinkQueryKey(token) });

export function useRefundLink(token: string) {
  return useQuery(refundLinkQueryOptions(token));
}

/** POST /api/refund-links/:token/address: once per link. */
export async function submitRefundAddress(token: string, address: string): Promise<PublicRefundLink> {
  const response = await apiRequest("POST", `/api/refund-links/${encodeURIComponent(token)}/address`, {
    address,
  });
  return (await response.json()) as PublicRefundLink;
}

export function useSubmitRefundAddress(token: string) {
  return useMutation({
    mutationFn: (address: string) => submitRefundAddress(token, address),
    onSuccess: (link) => queryClient.setQueryData(refundLinkQueryKey(token), link),
  });
}
