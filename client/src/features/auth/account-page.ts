import type { Locale } from "@common/locales";
import * as React from "react";
import { useDocumentLanguage, useT } from "@/i18n/i18n";
import { accountErrorText } from "./account-error-text";
import { useAuthWords } from "./auth-words";
import { socialSessionWords } from "./social-session-words";

/**
 * What every account screen (/auth, /forgot-password, /reset-password, /profile, /social-login-test) does in its
 * reader's language (issue 37): `<html lang dir>` say it, and the auth provider's and the social session's toasts
 * (signed in, registered, signed out, a social sign-in's failure or demo user) speak it while the screen is shown.
 */
export function useAccountPage(): Locale {
  const locale = useDocumentLanguage();
  const t = useT();
  // The social session's words (and signing out, which it shares) are the wallet-less path's, which the account
  // screens load too: one copy of them (socialSessionWords) for the checkout, /buy-cpxtb and these screens.
  const words = React.useMemo(
    () => ({
      signedIn: t("account.toast.signedIn"),
      signedInText: t("account.toast.signedInText"),
      signInFailed: t("account.toast.signInFailed"),
      registered: t("account.toast.registered"),
      registeredText: t("account.toast.registeredText"),
      registerFailed: t("account.toast.registerFailed"),
      describe: (error: unknown) => accountErrorText(error, { signingIn: true }),
      ...socialSessionWords(t),
    }),
    [t],
  );
  useAuthWords(words);
  return locale;
}
