// The social sign-in's plain values, apart from its zod schemas (social.ts re-exports them): the checkout's
// wallet-less path and the account screens import these without loading and building zod (issue 39).

export const SOCIAL_PROVIDERS = ["google", "facebook", "twitter", "apple"] as const;
export type SocialProvider = (typeof SOCIAL_PROVIDERS)[number];

export const SOCIAL_PROVIDER_NAMES: Record<SocialProvider, string> = {
  google: "Google",
  facebook: "Facebook",
  twitter: "X",
  apple: "Apple",
};

/**
 * Why a social sign-in came back without signing in: the server sends the browser back to the page it started
 * from with `?socialLogin=<reason>&socialProvider=<provider>`, and that page says it in the reader's language.
 */
export const SOCIAL_RETURN_REASONS = [
  "cancelled",
  "expired",
  "failed",
  "unreachable",
  "linkedElsewhere",
  "alreadyLinked",
  "signInAgain",
] as const;
export type SocialReturnReason = (typeof SOCIAL_RETURN_REASONS)[number];
export const SOCIAL_RETURN_PARAM = "socialLogin";
export const SOCIAL_RETURN_PROVIDER_PARAM = "socialProvider";

export function isSocialReturnReason(value: unknown): value is SocialReturnReason {
  return (SOCIAL_RETURN_REASONS as readonly unknown[]).includes(value);
}

/** Spec section 4: the real login redirects after this delay, and the page reloads this long after login. */
export const REAL_LOGIN_REDIRECT_MS = 1500;
export const RELOAD_AFTER_LOGIN_MS = 500;
