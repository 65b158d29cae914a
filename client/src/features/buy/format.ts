import { type FormatLocale, formatDecimal, numberShape } from "@common/locale-format";

/**
 * An amount as the quote shows it: thousands grouped, at most `maxDecimals`, no trailing zeros ("12,500.5";
 * "12.500,5" in de).
 */
export function grouped(decimal: string, maxDecimals: number, locale: FormatLocale = "en"): string {
  return formatDecimal(decimal, numberShape(locale), { maxDecimals });
}

export type PriceSource = "fixed" | "pool";

/** Where the price comes from, in the words the buyer reads beside it. */
export function priceSourceWords(source: PriceSource | null | undefined): string | null {
  if (source === "fixed") return "a fixed price set by the operator";
  if (source === "pool") return "the live price of the CPXTB liquidity pool";
  return null;
}
