/** An amount as the quote shows it: thousands grouped, at most `maxDecimals`, no trailing zeros ("12,500.5"). */
export function grouped(decimal: string, maxDecimals: number): string {
  const [whole = "0", fraction = ""] = decimal.split(".");
  const trimmed = fraction.slice(0, maxDecimals).replace(/0+$/, "");
  const w = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return trimmed ? `${w}.${trimmed}` : w;
}

export type PriceSource = "fixed" | "pool";

/** Where the price comes from, in the words the buyer reads beside it. */
export function priceSourceWords(source: PriceSource | null | undefined): string | null {
  if (source === "fixed") return "a fixed price set by the operator";
  if (source === "pool") return "the live price of the CPXTB liquidity pool";
  return null;
}
