import { DEFAULT_LOCALE, isLocale, type Locale } from "@common/locales";
import * as React from "react";
import { LanguageSelect } from "@/i18n/language-select";
import { useSiteT } from "@/i18n/site-words";

/** The language of the page shown: a translated page sets `<html lang>` to its reader's (decision 038). */
function pageLocale(): Locale {
  const lang = document.documentElement.lang;
  return isLocale(lang) ? lang : DEFAULT_LOCALE;
}

/**
 * The site's language menu, in the footer of every page with the app's frame (issue 37): the checkouts and the
 * counter have their own. A native select, each language in its own name, showing the language of the page.
 * It comes after hydration (app-layout.tsx), and the translation runtime only with a change, which
 * remembers the choice (the cookie the server and the pages read, and a signed-in reader's account) and switches
 * the page shown if it is translated; an English-only page stays English and the next translated page opens in
 * the choice.
 */
export function SiteLanguageMenu() {
  // Shown after hydration only (the server renders every reader the same footer): the page's language, followed
  // when the page changes it.
  const [locale, setLocale] = React.useState<Locale>(pageLocale);
  const { t } = useSiteT();
  React.useEffect(() => {
    const observer = new MutationObserver(() => setLocale(pageLocale()));
    observer.observe(document.documentElement, { attributeFilter: ["lang"] });
    // The page may have set its language between this menu's render and now, before anything observed it.
    setLocale(pageLocale());
    return () => observer.disconnect();
  }, []);
  return (
    <LanguageSelect
      label={t("site.language.label")}
      value={locale}
      onSelect={(next) => {
        setLocale(next);
        import("@/i18n/i18n")
          .then((i18n) => i18n.chooseLanguage(next))
          .catch((error) => console.warn("The language could not be loaded:", error));
      }}
      textClassName="text-sm"
      testId="site-language-menu"
    />
  );
}
