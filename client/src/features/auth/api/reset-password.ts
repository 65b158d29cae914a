import { resetTokenCheckRequest } from "@common/auth.ts";
import type { SignInResult } from "@common/two-factor";
import { queryOptions } from "@tanstack/react-query";
import { apiRequest } from "@/lib/api-client";

export type ResetTokenCheck = { valid: boolean; reason?: "expired" | "used" | "unknown" };

/**
 * A token that can be one. One that cannot (cut short when copied) is not sent: the page says the link is not
 * valid in the reader's words, not the server's English refusal of its shape (issue 37).
 */
export const isResetTokenShaped = (token: string) => resetTokenCheckRequest.safeParse({ token }).success;

/** Checks the link before the form is shown, so an expired or used link is explained up front. */
export function resetTokenCheckQueryOptions(token: string) {
  return queryOptions({
    queryKey: ["/api/reset-password/check", token] as const,
    queryFn: async (): Promise<ResetTokenCheck> =>
      (await apiRequest("POST", "/api/reset-password/check", { token })).json(),
    enabled: isResetTokenShaped(token),
  });
}

export async function resetPassword(input: { token: string; password: string }): Promise<SignInResult> {
  return (await apiRequest("POST", "/api/reset-password", input)).json();
}
