import type { BalanceResponse } from "@common/chain";
import { ApiError } from "@/lib/api-client";

export const BALANCE_REFRESH_MS = 30_000;
export const BALANCE_TIMEOUT_MS = 5_000;

/** GET /api/balance, aborted after 5 s (spec section 7 and 9). */
export async function getBalance(address: string, signal?: AbortSignal): Promise<BalanceResponse> {
  const timeout = AbortSignal.timeout(BALANCE_TIMEOUT_MS);
  const response = await fetch(`/api/balance?address=${encodeURIComponent(address)}`, {
    credentials: "include",
    signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
  });
  if (!response.ok) {
    const text = await response.text().catch(() => "");
    throw new ApiError(response.status, `${response.status}: ${text || response.statusText}`, undefined);
  }
  return (await response.json()) as BalanceResponse;
}
