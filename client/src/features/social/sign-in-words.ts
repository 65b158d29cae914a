import type { useT } from "@/i18n/i18n";
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
