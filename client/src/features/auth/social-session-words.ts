import { SOCIAL_PROVIDER_NAMES, type SocialProvider } from "@common/social-values";
import type { t as translate } from "@/i18n/i18n";
import type { AuthWords } from "./auth-words";

/** The toasts of the social sign-in session (features/social/social-session.ts), and signing out, which it shares. */
export type SocialSessionWords = Pick<
  AuthWords,
  | "signedOut"
  | "signedOutText"
  | "socialFailed"
  | "socialFailedText"
  | "socialFallback"
  | "socialFallbackText"
  | "socialReload"
  | "socialPopupBlocked"
  | "socialSignOutFailed"
  | "socialSignOutFailedText"
>;

/**
 * A social sign-in the server refused (a 4xx of POST /api/social-auth/{provider}: the sign-in did not finish, the
 * provider is unknown here, the return address was refused), in the reader's words: the server's sentence is
 * English and says nothing the payer can act on beyond trying again (issue 37).
 */
export function socialFailureText(t: typeof translate, provider: SocialProvider): string {
  return t("wallet.toast.socialNotFinished", { provider: SOCIAL_PROVIDER_NAMES[provider] });
}

/**
 * The social session's words in the reader's language (the wallet-less path's catalog, `wallet.toast.*`): one copy
 * for every translated page that signs in socially (the checkout's pay-without-a-wallet and /buy-cpxtb through
 * `useSocialSessionWords`, the account screens through `useAccountPage`).
 */
export function socialSessionWords(t: typeof translate): SocialSessionWords {
  return {
    signedOut: t("wallet.toast.signedOut"),
    signedOutText: t("wallet.toast.signedOutText"),
    socialFailed: t("wallet.toast.socialFailed"),
    socialFailedText: (provider) => socialFailureText(t, provider),
    socialFallback: t("wallet.toast.socialFallback"),
    socialFallbackText: t("wallet.toast.socialFallbackText"),
    socialReload: t("wallet.toast.socialReload"),
    socialPopupBlocked: t("wallet.toast.socialPopupBlocked"),
    socialSignOutFailed: t("wallet.toast.socialSignOutFailed"),
    socialSignOutFailedText: t("wallet.toast.socialSignOutFailedText"),
  };
}
