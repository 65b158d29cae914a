import type { TwoFactorRequired } from "@common/two-factor";
import { apiRequest, isApiError } from "@/lib/api-client";
import type { SessionUser } from "./get-user";

/** The sign-in waiting for its second factor (after a social sign-in redirect), or null. */
export async function getPendingSignIn(): Promise<TwoFactorRequired | null> {
  try {
    return (await apiRequest("GET", "/api/login/second-factor")).json();
  } catch (error) {
    if (isApiError(error) && error.status === 401) return null;
    throw error;
  }
}

/** A 6-digit code from the authenticator app, or a recovery code. */
export async function submitSecondFactor(code: string): Promise<SessionUser> {
  return (await apiRequest("POST", "/api/login/second-factor", { code })).json();
}

/**
 * Signs in with a passkey: as the second factor of a pending sign-in, or on its own (password-less). The browser
 * library loads only now, never with the page.
 */
export async function signInWithPasskey(): Promise<SessionUser> {
  const options = await (await apiRequest("POST", "/api/passkeys/sign-in/options", {})).json();
  const { startAuthentication } = await import("@simplewebauthn/browser");
  const credential = await startAuthentication({ optionsJSON: options });
  return (await apiRequest("POST", "/api/passkeys/sign-in", { credential })).json();
}
