import type { LoginRequest } from "@common/auth.ts";
import type { SignInResult } from "@common/two-factor.ts";
import { apiRequest } from "@/lib/api-client";
import { readerPlace } from "@/lib/reader-place";

/** The user (signed in), or the second-factor step when the account has two-factor sign-in. */
export async function login(credentials: LoginRequest): Promise<SignInResult> {
  const response = await apiRequest("POST", "/api/login", { ...readerPlace(), ...credentials });
  return response.json();
}
