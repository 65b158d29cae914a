import type { Merchant } from "@common/merchant";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { ApiError } from "@/lib/api-client";
import { takeEarlyResponse } from "@/lib/early-requests";

export const merchantQueryKey = ["/api/merchant"] as const;

/** GET /api/merchant; `null` when the signed-in user has not registered a business yet (404). */
export async function getMerchant(signal?: AbortSignal): Promise<Merchant | null> {
  const response = await (takeEarlyResponse("/api/merchant") ??
    fetch("/api/merchant", { credentials: "include", signal }));
  if (response.status === 404) return null;
  if (!response.ok) {
    const text = await response.text().catch(() => "");
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    throw new ApiError(response.status, `${response.status}: ${text || response.statusText}`, body);
  }
  return (await response.json()) as Merchant;
}

export const merchantQueryOptions = () =>
  queryOptions({ queryKey: merchantQueryKey, queryFn: ({ signal }) => getMerchant(signal) });

export function useMerchant() {
  return useQuery(merchantQueryOptions());
}
