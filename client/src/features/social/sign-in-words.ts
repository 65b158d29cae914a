import * as React from "react";
import { useAuthWords } from "@/features/auth/auth-words";
import { socialSessionWords } from "@/features/auth/social-session-words";
import { useT } from "@/i18n/i18n";
import type { SignInWords } from "./components/social-sign-in";

/**
 * The social sign-in buttons' words in the reader's language (the wallet-less path's catalog), for the translated
 * screens that show them (/auth, a checkout's pay-without-a-wallet); the component is English elsewhere.
 */
export function signInWords(t: ReturnType<typeof useT>): SignInWords {
  return {
    orContinueWith: t("wallet.signIn.orContinueWith"),
    continueWith: (provider) => t("wallet.signIn.continueWith", { provider }),
    redirecting: t("wallet.signIn.redirecting"),
    redirectingLabel: t("wallet.signIn.redirectingLabel"),
    redirectingTo: (provider) => t("wallet.signIn.redirectingTo", { provider }),
    notConfigured: t("wallet.signIn.notConfigured"),
    waiting: t("wallet.signIn.waiting"),
    finishInWindow: (provider) => t("wallet.signIn.finishInWindow", { provider }),
    cancel: t("wallet.signIn.cancel"),
    developmentNote: t("wallet.signIn.developmentNote"),
    custodialNote: t("wallet.signIn.custodialNote"),
  };
}

/**
 * The social session's toasts (social-session.ts: a failed sign-in, the demo user, a blocked window, signing out)
 * in the reader's language while a payer's page that signs in socially is shown (the checkout's pay-without-a-wallet,
 * /buy-cpxtb; issue 37); English again once it goes. The page sets `<html lang dir>` itself (useDocumentLanguage),
 * which the toasts follow as the account screens' do.
 */
export function useSocialSessionWords(): void {
  const t = useT();
  const words = React.useMemo(() => socialSessionWords(t), [t]);
  useAuthWords(words);
}
