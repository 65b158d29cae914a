import { isLocale, LOCALE_NAMES, LOCALES, type Locale } from "@common/locales";
import { Languages } from "lucide-react";

/**
 * The language menu's control (issue 37): a native select (the phone's own picker, read by every screen reader),
 * drawn as a small button with the languages icon, each language listed in its own name and written in it. No
 * translation runtime: the checkout's menu and the site's footer menu (which loads without it) both draw it.
 */
export function LanguageSelect({
  label,
  value,
  onSelect,
  className,
  textClassName = "text-xs",
  testId,
}: {
  label: string;
  value: Locale;
  onSelect: (locale: Locale) => void;
  className?: string;
  textClassName?: string;
  testId: string;
}) {
  return (
    <span
      className={`relative inline-flex min-h-11 items-center rounded-md focus-within:ring-[3px] focus-within:ring-ring/60 hover:text-foreground ${className ?? ""}`}
    >
      <Languages aria-hidden="true" className="pointer-events-none absolute start-2 size-4" />
      <select
        aria-label={label}
        value={value}
        onChange={(event) => {
          const next = event.target.value;
          if (isLocale(next)) onSelect(next);
        }}
        className={`min-h-11 cursor-pointer appearance-none rounded-md border border-border bg-transparent ps-8 pe-3 outline-none ${textClassName}`}
        data-testid={testId}
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
