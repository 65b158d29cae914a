import type { SignInResult } from "@common/two-factor";
import { queryOptions } from "@tanstack/react-query";
import { apiRequest } from "@/lib/api-client";

export type ResetTokenCheck = { valid: boolean; reason?: "expired" | "used" | "unknown" };

/** Checks the link before the form is shown, so an expired or used link is explained up front. */
export function resetTokenCheckQueryOptions(token: string) {
  return queryOptions({
    queryKey: ["/api/reset-password/check", token] as const,
    queryFn: async (): Promise<ResetTokenCheck> =>
      (await apiRequest("POST", "/api/reset-password/check", { token })).json(),
    enabled: token.length > 0,
  });
}

export async function resetPassword(input: { token: string; password: string }): Promise<SignInResult> {
  return (await apiRequest("POST", "/api/reset-password", input)).json();
}
