// Decimal strings written the locale's way without ever becoming a float: `Intl` is asked once per locale for
// its separators and sign placement (`formatToParts`), and the digits are placed by hand. English never asks
// `Intl`: its first call loads ICU's locale data, some 90 ms of a phone's main thread (payments/format.ts).

// Shared by the browser (payments/format.ts) and the server (emails in their recipient's language).
import { LOCALES, type Locale } from "./locales.ts";

export const FORMAT_LOCALES = LOCALES;
export type FormatLocale = Locale;

/** The tag handed to `Intl`: latin digits in every locale (some browsers give Arabic-Indic ones for `ar`). */
export function intlTag(locale: FormatLocale): string {
  return `${locale}-u-nu-latn`;
}

/** How a locale writes a number around its digits. */
export interface NumberShape {
  group: string;
  decimal: string;
  /** 2 where a four-digit whole part stays ungrouped (es: "1234", "12.345"). */
  minGrouping: number;
  /** Text before and after the digits of a positive and a negative number (sign, currency, bidi marks). */
  positive: readonly [string, string];
  negative: readonly [string, string];
}

const EN_NUMBER: NumberShape = {
  group: ",",
  decimal: ".",
  minGrouping: 1,
  positive: ["", ""],
  negative: ["-", ""],
};

const DIGIT_PARTS = new Set(["integer", "group", "decimal", "fraction"]);

function around(parts: Intl.NumberFormatPart[]): [string, string] {
  const digit = parts.map((p) => DIGIT_PARTS.has(p.type));
  const first = digit.indexOf(true);
  const last = digit.lastIndexOf(true);
  const join = (list: Intl.NumberFormatPart[]) => list.map((p) => p.value).join("");
  return [join(parts.slice(0, first)), join(parts.slice(last + 1))];
}

function shapeOf(format: Intl.NumberFormat): NumberShape {
  // All nine locales group by threes; only the separators, the grouping threshold and the text around the
  // digits differ.
  const parts = format.formatToParts(1234567.5);
  return {
    group: parts.find((p) => p.type === "group")?.value ?? ",",
    decimal: parts.find((p) => p.type === "decimal")?.value ?? ".",
    minGrouping: format.formatToParts(1234).some((p) => p.type === "group") ? 1 : 2,
    positive: around(parts),
    negative: around(format.formatToParts(-1234567.5)),
  };
}

const numberShapes = new Map<FormatLocale, NumberShape>([["en", EN_NUMBER]]);
const usdShapes = new Map<FormatLocale, NumberShape>();

/** A plain number's shape ("1.234,5" in de, "-" before it). */
export function numberShape(locale: FormatLocale): NumberShape {
  let shape = numberShapes.get(locale);
  if (!shape) {
    shape = shapeOf(new Intl.NumberFormat(intlTag(locale)));
    numberShapes.set(locale, shape);
  }
  return shape;
}

/** A USD amount's shape, its currency sign in place: "US$ 1.234,50" in pt-BR, "1.234,50 $" in de. */
export function usdShape(locale: FormatLocale): NumberShape {
  let shape = usdShapes.get(locale);
  if (!shape) {
    shape = shapeOf(new Intl.NumberFormat(intlTag(locale), { style: "currency", currency: "USD" }));
    usdShapes.set(locale, shape);
  }
  return shape;
}

/**
 * "-1234567.000123" in `shape`: the whole part grouped, at most `maxDecimals` decimals (cut, never rounded),
 * no trailing zeros unless `minDecimals` asks for them.
 */
export function formatDecimal(
  decimal: string,
  shape: NumberShape,
  { maxDecimals = Number.POSITIVE_INFINITY, minDecimals = 0 } = {},
): string {
  const negative = decimal.startsWith("-");
  const [whole = "0", fraction = ""] = decimal.replace(/^-/, "").split(".");
  const digits = whole.replace(/^0+(?=\d)/, "") || "0";
  const grouped =
    digits.length < 3 + shape.minGrouping
      ? digits
      : digits.replace(/\B(?=(\d{3})+(?!\d))/g, () => shape.group);
  const trimmed = fraction.slice(0, maxDecimals).replace(/0+$/, "").padEnd(minDecimals, "0");
  const [before, after] = negative ? shape.negative : shape.positive;
  return `${before}${grouped}${trimmed ? `${shape.decimal}${trimmed}` : ""}${after}`;
}
