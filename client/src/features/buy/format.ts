import { type FormatLocale, formatDecimal, numberShape, usdShape } from "@common/locale-format";

/**
 * An amount as the quote shows it: thousands grouped, at most `maxDecimals`, no trailing zeros ("12,500.5";
 * "12.500,5" in de).
 */
export function grouped(decimal: string, maxDecimals: number, locale: FormatLocale = "en"): string {
  return formatDecimal(decimal, numberShape(locale), { maxDecimals });
}

export type PriceSource = "fixed" | "pool";

/**
 * A USD amount on the buy pages: "$12.50"-style in English exactly as before ("$" and the amount, grouped when
 * `group` says so), the locale's currency format elsewhere ("12,50 $" in de).
 */
export function dollars(decimal: string, locale: FormatLocale = "en", group = true): string {
  if (locale === "en") return `$${group ? grouped(decimal, 2) : decimal}`;
  // A price per token keeps its digits ("0.00125"); whole amounts show their cents.
  return formatDecimal(decimal, usdShape(locale), { minDecimals: 2 });
}
