import type { AddFactorProof, TotpEnrolment, TwoFactorStatus } from "@common/two-factor";
import { queryOptions } from "@tanstack/react-query";
import { apiRequest, getQueryFn } from "@/lib/api-client";

export type TwoFactorState = TwoFactorStatus & { requireTwoFactor: boolean | null };

export const TWO_FACTOR_QUERY_KEY = ["/api/user/two-factor"] as const;

export function twoFactorQueryOptions() {
  return queryOptions({
    queryKey: TWO_FACTOR_QUERY_KEY,
    queryFn: getQueryFn<TwoFactorState>({ on401: "throw" }),
  });
}

const json = async <T>(method: string, url: string, data?: unknown): Promise<T> =>
  (await apiRequest(method, url, data)).json();

/** `proof`: the password or a current code, needed when the sign-in is not recent. */
export const startTotpSetup = (proof: AddFactorProof = {}) =>
  json<TotpEnrolment>("POST", "/api/user/two-factor/totp", proof);

export const confirmTotp = (code: string) =>
  json<{ recoveryCodes: string[] }>("POST", "/api/user/two-factor/totp/confirm", { code });

export const disableTotp = (code?: string) =>
  json<{ ok: true }>("POST", "/api/user/two-factor/totp/disable", code ? { code } : {});

export const regenerateRecoveryCodes = (code?: string) =>
  json<{ recoveryCodes: string[] }>("POST", "/api/user/two-factor/recovery-codes", code ? { code } : {});

export const setRequireTwoFactor = (requireTwoFactor: boolean) =>
  json<{ requireTwoFactor: boolean }>("PUT", "/api/merchant/require-two-factor", { requireTwoFactor });

/** Creates a passkey on this device; the browser library loads only now. */
export async function addPasskey(name: string, proof: AddFactorProof = {}) {
  const options = await json<Record<string, unknown>>("POST", "/api/user/passkeys/options", proof);
  const { startRegistration } = await import("@simplewebauthn/browser");
  const credential = await startRegistration({ optionsJSON: options as never });
  return json<{ id: string; recoveryCodes: string[] | null }>("POST", "/api/user/passkeys", {
    credential,
    name,
  });
}

export const removePasskey = (id: string, code?: string) =>
  json<{ ok: true }>("POST", `/api/user/passkeys/${encodeURIComponent(id)}/remove`, code ? { code } : {});
