import { useLocale, useT } from "@/i18n/i18n";
import type { CopyWords } from "./components/copy-button";
import { payToastWords } from "./toast-words";

/** The copy button's words in the payer's language, for the checkout's pages (which load the pay catalog). */
export function useCopyWords(): CopyWords {
  const t = useT();
  const locale = useLocale();
  return {
    copy: t("pay.copy.copy"),
    copied: t("pay.copy.copied"),
    copyLabel: (label: string) => t("pay.copy.copyLabel", { label }),
    copiedLabel: (label: string) => t("pay.copy.copiedLabel", { label }),
    failedTitle: t("pay.copy.failedTitle"),
    failedText: t("pay.copy.failedText"),
    toast: payToastWords(t, locale),
  };
}
