import { type FormatLocale, formatDecimal, numberShape } from "@common/locale-format";

/**
 * The counter's cart: products (fixed-price links, decision 034) tapped into a sale, with a quantity each. Amounts are
 * held in thousandths, the finest unit a price has (CPXTB prices have 3 decimals, USD 2), so a sum is exact.
 * One sale is in one currency: a product priced in the other one is not added (the cashier switches first).
 */
export type PosItem = {
  id: string;
  title: string;
  currency: "USD" | "CPXTB";
  /** The price as a decimal string ("4.20"). */
  price: string;
  imageUrl: string | null;
};

/** Item id → quantity (at least 1; an item at 0 is removed). */
export type Cart = Readonly<Record<string, number>>;

export const MAX_QUANTITY = 99;

/** "4.2" → 4200n; "100.125" → 100125n. */
export function thousandthsOf(decimal: string): bigint {
  const [whole = "0", fraction = ""] = decimal.trim().split(".");
  return BigInt(whole || "0") * 1000n + BigInt(fraction.padEnd(3, "0").slice(0, 3));
}

/** Thousandths as the currency writes them: 2 decimals, a third only for CPXTB when it is not 0; grouped. */
export function formatThousandths(value: bigint): string {
  // By hand, as the keypad's amount: no `Intl` call (keypad.ts).
  const whole = formatDecimal(String(value / 1000n), numberShape("en"));
  const rest = (value % 1000n).toString().padStart(3, "0");
  return `${whole}.${rest.endsWith("0") ? rest.slice(0, 2) : rest}`;
}

/** The same in the reader's language ("1.234,50" in de); English keeps the hand-written path (no `Intl` call). */
export function formatThousandthsIn(value: bigint, locale: FormatLocale): string {
  if (locale === "en") return formatThousandths(value);
  return formatDecimal(decimalOfThousandths(value), numberShape(locale), { minDecimals: 2 });
}

/** The same as a plain decimal for the API ("1234.50", "1.375"; no grouping). */
export function decimalOfThousandths(value: bigint): string {
  const rest = (value % 1000n).toString().padStart(3, "0");
  return `${value / 1000n}.${rest.endsWith("0") ? rest.slice(0, 2) : rest}`;
}

/**
 * The cart after one more (`delta` 1) or one less (`delta` -1) of `id`, within 0..MAX_QUANTITY. An item keeps its
 * place: the cart (and the sale's note) lists items in the order they were first tapped.
 */
export function changeQuantity(cart: Cart, id: string, delta: number): Cart {
  const quantity = Math.min(MAX_QUANTITY, Math.max(0, (cart[id] ?? 0) + delta));
  if (quantity === 0) return Object.fromEntries(Object.entries(cart).filter(([key]) => key !== id));
  return { ...cart, [id]: quantity };
}

/** The cart's lines in the order first tapped, each with its item; items gone from the list are dropped. */
export function cartLines(items: readonly PosItem[], cart: Cart) {
  return Object.entries(cart).flatMap(([id, quantity]) => {
    const item = items.find((i) => i.id === id);
    return item && quantity > 0 ? [{ item, quantity }] : [];
  });
}

/** What the cart's lines cost together, in thousandths. */
export function cartTotal(items: readonly PosItem[], cart: Cart): bigint {
  return cartLines(items, cart).reduce(
    (sum, { item, quantity }) => sum + thousandthsOf(item.price) * BigInt(quantity),
    0n,
  );
}

/** The sale's note names what was sold: "2 × Coffee, Bagel". */
export function cartNote(items: readonly PosItem[], cart: Cart): string {
  return cartLines(items, cart)
    .map(({ item, quantity }) => (quantity === 1 ? item.title : `${quantity} × ${item.title}`))
    .join(", ");
}

/** The tip of `percent` on `amount` (thousandths), rounded half up to the hundredth as the keypad's tip is. */
export function tipOfThousandths(amount: bigint, percent: number): bigint {
  if (percent <= 0) return 0n;
  return ((amount * BigInt(percent) + 500n) / 1000n) * 10n;
}
