import type { Locale } from "@common/locales";
import * as React from "react";
import { useDocumentLanguage, useT } from "@/i18n/i18n";
import { accountErrorText } from "./account-error-text";
import { useAuthWords } from "./auth-words";

/**
 * What every account screen (/auth, /forgot-password, /reset-password, /profile) does in its reader's language
 * (issue 37): `<html lang dir>` say it, and the auth provider's toasts (signed in, registered, signed out) speak it
 * while the screen is shown.
 */
export function useAccountPage(): Locale {
  const locale = useDocumentLanguage();
  const t = useT();
  const words = React.useMemo(
    () => ({
      signedIn: t("account.toast.signedIn"),
      signedInText: t("account.toast.signedInText"),
      signInFailed: t("account.toast.signInFailed"),
      registered: t("account.toast.registered"),
      registeredText: t("account.toast.registeredText"),
      registerFailed: t("account.toast.registerFailed"),
      signedOut: t("account.toast.signedOut"),
      signedOutText: t("account.toast.signedOutText"),
      describe: (error: unknown) => accountErrorText(error, { signingIn: true }),
    }),
    [t],
  );
  useAuthWords(words);
  return locale;
}
