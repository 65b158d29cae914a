import type { CreateLinkRequest, Link, UpdateLinkRequest } from "@common/links";
import { queryOptions, useMutation, useQuery } from "@tanstack/react-query";
import { apiRequest } from "@/lib/api-client";
import { queryClient } from "@/lib/query-client";

export const linksQueryKey = ["/api/merchant/links"] as const;
/** The point of sale's item grid: the switched-on fixed-price links (a product is a fixed-price link). */
export const productsQueryKey = ["/api/merchant/links?products=true"] as const;

export const linksQueryOptions = () => queryOptions<{ items: Link[] }>({ queryKey: linksQueryKey });
export const useLinks = () => useQuery(linksQueryOptions());
export const useProducts = () => useQuery(queryOptions<{ items: Link[] }>({ queryKey: productsQueryKey }));

const refreshLinks = () =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: linksQueryKey }),
    queryClient.invalidateQueries({ queryKey: productsQueryKey }),
  ]);

export function useCreateLink() {
  return useMutation({
    mutationFn: async (body: CreateLinkRequest) =>
      (await (await apiRequest("POST", "/api/merchant/links", body)).json()) as Link,
    onSuccess: () => void refreshLinks(),
  });
}

export function useUpdateLink() {
  return useMutation({
    mutationFn: async ({ id, ...body }: UpdateLinkRequest & { id: string }) =>
      (await (await apiRequest("PATCH", `/api/merchant/links/${id}`, body)).json()) as Link,
    onSuccess: () => void refreshLinks(),
  });
}
