import type { EmbedSettings } from "@common/embed";
import { queryOptions, useMutation, useQuery } from "@tanstack/react-query";
import { apiRequest } from "@/lib/api-client";
import { queryClient } from "@/lib/query-client";

export const embedSettingsQueryKey = ["/api/merchant/embed"] as const;

/** GET /api/merchant/embed: the origins whose pages may show the pay button's checkout. */
export const embedSettingsQueryOptions = () =>
  queryOptions<EmbedSettings>({ queryKey: embedSettingsQueryKey });

export function useEmbedSettings() {
  return useQuery(embedSettingsQueryOptions());
}

/** PUT /api/merchant/embed/origins: the server checks and normalizes each origin (400 names the first bad one). */
export function useSaveEmbedOrigins() {
  return useMutation({
    mutationFn: async (origins: string[]) =>
      (await (await apiRequest("PUT", "/api/merchant/embed/origins", { origins })).json()) as EmbedSettings,
    onSuccess: (settings) => queryClient.setQueryData(embedSettingsQueryKey, settings),
  });
}

/** The newest open payment of the business, for the snippet and the live preview (null: none). */
export function useNewestOpenPayment() {
  return useQuery({
    queryKey: ["embed-preview-payment"],
    queryFn: async () => {
      const response = await apiRequest("GET", "/api/merchant/payments?status=pending&limit=1");
      const page = (await response.json()) as { items: { reference: string; description: string | null }[] };
      return page.items[0] ?? null;
    },
  });
}
