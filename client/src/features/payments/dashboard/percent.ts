import { type FormatLocale, intlTag } from "@common/locale-format";

/**
 * A tolerance in basis points as a percent the locale's way ("0.5%", "0,5 %" in de and fr, "%0,5" in tr), up to two
 * decimals, latin digits everywhere. English is written by hand: no `Intl` call (decision 023's first-call cost).
 */
export function formatBpsPercent(bps: number, locale: FormatLocale = "en"): string {
  if (locale === "en") return `${(bps / 100).toFixed(2).replace(/\.?0+$/, "")}%`;
  return new Intl.NumberFormat(intlTag(locale), { style: "percent", maximumFractionDigits: 2 }).format(
    bps / 10_000,
  );
}
