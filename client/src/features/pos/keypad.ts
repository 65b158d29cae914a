import { type FormatLocale, formatDecimal, numberShape } from "@common/locale-format";

/**
 * The counter's amount, typed as on a till: digits enter from the right into hundredths ("1", "2", "5" → 1.25),
 * so the cashier never types a decimal point. Held as the string of digits typed (no leading zeros).
 */
export const MAX_DIGITS = 9; // 9,999,999.99

export type Key = "0" | "1" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9" | "00" | "back" | "clear";

/** The digits after pressing `key`; a key that would exceed MAX_DIGITS is ignored. */
export function press(digits: string, key: Key): string {
  if (key === "clear") return "";
  if (key === "back") return digits.slice(0, -1);
  const next = (digits + key).replace(/^0+/, "");
  return next.length > MAX_DIGITS ? digits : next;
}

/** The amount in hundredths (cents for USD). */
export function hundredthsOf(digits: string): bigint {
  return digits === "" ? 0n : BigInt(digits);
}

/**
 * "123456" → "1,234.56"; "" → "0.00". Grouped by hand: `toLocaleString` loads ICU's locale data at its first call,
 * some 40 ms of CPU inside the counter's first render (over 150 ms at a phone's speed; decision 036).
 */
export function formatHundredths(value: bigint): string {
  const whole = formatDecimal(String(value / 100n), numberShape("en"));
  const rest = (value % 100n).toString().padStart(2, "0");
  return `${whole}.${rest}`;
}

/** The same in the reader's language ("1.234,50" in de); English keeps the hand-written path (no `Intl` call). */
export function formatHundredthsIn(value: bigint, locale: FormatLocale): string {
  if (locale === "en") return formatHundredths(value);
  return formatDecimal(decimalOf(value), numberShape(locale), { minDecimals: 2 });
}

/** The same as a plain decimal for the API ("1234.50", no grouping). */
export function decimalOf(value: bigint): string {
  return `${value / 100n}.${(value % 100n).toString().padStart(2, "0")}`;
}

/** The tip of `percent` on `amount` (hundredths), rounded half up to the hundredth. */
export function tipOf(amount: bigint, percent: number): bigint {
  if (percent <= 0) return 0n;
  return (amount * BigInt(percent) + 50n) / 100n;
}
