import type { BusinessSummary } from "@common/team";
import { queryOptions, useMutation, useQuery } from "@tanstack/react-query";
import { apiRequest } from "@/lib/api-client";
import { queryClient } from "@/lib/query-client";

export const businessesQueryKey = ["/api/merchant/businesses"] as const;

/** GET /api/merchant/businesses: every business the user is a member of, and which one they act for. */
export async function getBusinesses(): Promise<BusinessSummary[]> {
  const response = await apiRequest("GET", "/api/merchant/businesses");
  return ((await response.json()) as { items: BusinessSummary[] }).items;
}

export const businessesQueryOptions = () =>
  queryOptions({ queryKey: businessesQueryKey, queryFn: getBusinesses });

export function useBusinesses(enabled = true) {
  return useQuery({ ...businessesQueryOptions(), enabled });
}

/** PUT /api/merchant/active-business: act for another business (null: the user's own). Everything is reread. */
export async function switchBusiness(merchantId: string | null): Promise<BusinessSummary[]> {
  const response = await apiRequest("PUT", "/api/merchant/active-business", { merchantId });
  return ((await response.json()) as { items: BusinessSummary[] }).items;
}

export function useSwitchBusiness() {
  return useMutation({
    mutationFn: switchBusiness,
    // Every list on the page belongs to the business: drop them all; the live feed follows a fresh connection.
    onSuccess: () => {
      queryClient.removeQueries({ predicate: (q) => String(q.queryKey[0]).startsWith("/api/merchant") });
      window.location.reload();
    },
  });
}
