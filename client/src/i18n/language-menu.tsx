import { isLocale, LOCALE_NAMES, LOCALES } from "@common/locales";
import { Languages } from "lucide-react";
import { chooseLanguage, useLocale, useT } from "./i18n";

/**
 * The payer's language menu (issue 37): a native select (the phone's own picker, read by every screen reader),
 * drawn as a small button with the languages icon. Each language is listed in its own name and written in it. The
 * choice is remembered (a cookie the server reads too) and the page's words change at once.
 */
export function LanguageMenu({ className }: { className?: string }) {
  const locale = useLocale();
  const t = useT();
  return (
    <span
      className={`relative inline-flex min-h-11 items-center rounded-md text-muted-foreground focus-within:ring-[3px] focus-within:ring-ring/60 hover:text-foreground ${className ?? ""}`}
    >
      <Languages aria-hidden="true" className="pointer-events-none absolute start-2 size-4" />
      <select
        aria-label={t("pay.language.label")}
        value={locale}
        onChange={(event) => {
          const next = event.target.value;
          if (isLocale(next))
            chooseLanguage(next).catch((error) => console.warn("The language could not be loaded:", error));
        }}
        className="min-h-11 cursor-pointer appearance-none rounded-md border border-border bg-transparent ps-8 pe-3 text-xs outline-none"
        data-testid="language-menu"
      >
        {LOCALES.map((option) => (
          <option key={option} value={option} lang={option} className="bg-background text-foreground">
            {LOCALE_NAMES[option]}
          </option>
        ))}
      </select>
    </span>
  );
}
