import type { Locale } from "@common/locales";
import type { ToastLabels } from "@/hooks/use-toast";
import { languageAttributes, type t as translate } from "@/i18n/i18n";

/**
 * What a payer's toast carries besides its text: the toaster's own labels (its close button, the announcement,
 * the notifications region) and `lang`/`dir`, in the payer's language. The shared toaster has no catalog (it is
 * on English screens too): a checkout passes its words with each toast, `toast({ title, ...payToastWords(t, locale) })`.
 */
export function payToastWords(
  t: typeof translate,
  locale: Locale,
): { labels: ToastLabels; lang: Locale; dir: "ltr" | "rtl" } {
  return {
    labels: {
      close: t("pay.toast.close"),
      notification: t("pay.toast.notification"),
      region: t("pay.toast.region", { hotkey: "F8" }),
    },
    ...languageAttributes(locale),
  };
}
