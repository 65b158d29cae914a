import { chooseLanguage, useLocale, useT } from "./i18n";
import { LanguageSelect } from "./language-select";

/**
 * The payer's language menu (issue 37), on the checkout, the counter and the profile. The choice is remembered (a
 * cookie the server reads too, and a signed-in reader's account) and the page's words change at once.
 */
export function LanguageMenu({ className }: { className?: string }) {
  const t = useT();
  return (
    <LanguageSelect
      label={t("pay.language.label")}
      value={useLocale()}
      onSelect={(next) =>
        chooseLanguage(next).catch((error) => console.warn("The language could not be loaded:", error))
      }
      className={`text-muted-foreground ${className ?? ""}`}
      testId="language-menu"
    />
  );
}
