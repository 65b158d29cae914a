import { FORMAT_LOCALES, type FormatLocale, numberShape } from "@common/locale-format";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  formatDate,
  formatDateTime,
  formatExactTokenAmount,
  formatRelative,
  formatTokenAmount,
  formatUsd,
  plainTokenAmount,
} from "./format";

const NNBSP = "\u202f"; // French groups with a narrow no-break space
const LRM = "\u200e"; // Arabic keeps a minus sign left of the digits with a left-to-right mark

const AMOUNT: Record<FormatLocale, string> = {
  en: "1,234.000821",
  es: "1234,000821", // Spanish groups from five digits: "12.345"
  "pt-BR": "1.234,000821",
  fr: `1${NNBSP}234,000821`,
  de: "1.234,000821",
  tr: "1.234,000821",
  id: "1.234,000821",
  "zh-CN": "1,234.000821",
  ar: "1,234.000821",
};

/** The shown amount read back: separators and bidi marks gone, the decimal a dot. */
function readBack(shown: string, locale: FormatLocale): string {
  const { group, decimal } = numberShape(locale);
  return shown
    .replace(/[\u200e\u200f]/g, "")
    .split(group)
    .join("")
    .split(decimal)
    .join(".");
}

const ARABIC_INDIC = /[\u0660-\u0669\u06f0-\u06f9]/;

describe("token amounts in every locale", () => {
  it.each(FORMAT_LOCALES)("%s shows 1234.000821 with every digit, and copies it plain", (locale) => {
    expect(formatExactTokenAmount("1234.000821", locale)).toBe(AMOUNT[locale]);
    expect(formatTokenAmount("1234.000821", locale)).toBe(AMOUNT[locale]);
    expect(formatTokenAmount("1234.000821000000000000", locale)).toBe(AMOUNT[locale]);
    expect(readBack(formatExactTokenAmount("1234.000821", locale), locale)).toBe("1234.000821");
    expect(plainTokenAmount("1234.000821000000000000")).toBe("1234.000821");
  });

  it.each(FORMAT_LOCALES)("%s writes latin digits only", (locale) => {
    const local = new Date(2026, 10, 4, 9, 5).toISOString();
    const now = new Date(2026, 10, 4, 12, 0).getTime();
    for (const text of [
      formatExactTokenAmount("9876543210.0123456789", locale),
      formatUsd("9876543.21", locale),
      formatDateTime(local, locale),
      formatRelative(local, now, locale),
    ]) {
      expect(text).not.toMatch(ARABIC_INDIC);
    }
  });

  it("keeps every decimal of the exact form, and cuts (never rounds) the short one at 6", () => {
    expect(formatExactTokenAmount("0.000000000000000001", "de")).toBe("0,000000000000000001");
    expect(formatExactTokenAmount("1.999999999", "fr")).toBe("1,999999999");
    expect(formatTokenAmount("1.999999999", "fr")).toBe("1,999999");
    expect(formatTokenAmount("1.999999999", "de", 2)).toBe("1,99");
    expect(formatExactTokenAmount("100.500000000000000000", "pt-BR")).toBe("100,5");
    expect(formatExactTokenAmount("0", "tr")).toBe("0");
  });

  it("writes a negative amount with the locale's sign", () => {
    expect(formatExactTokenAmount("-1234.000821", "de")).toBe("-1.234,000821");
    expect(formatExactTokenAmount("-1234.000821", "fr")).toBe(`-1${NNBSP}234,000821`);
    expect(formatExactTokenAmount("-1234.000821", "ar")).toBe(`${LRM}-1,234.000821`);
    expect(formatExactTokenAmount("-1234.000821", "en")).toBe("-1,234.000821");
  });

  it("keeps 30-digit amounts exact, which a float could not", () => {
    const huge = "123456789012345678901234567890.123456789012345678";
    expect(formatExactTokenAmount(huge, "de")).toBe(
      "123.456.789.012.345.678.901.234.567.890,123456789012345678",
    );
    expect(formatExactTokenAmount(huge, "zh-CN")).toBe(
      "123,456,789,012,345,678,901,234,567,890.123456789012345678",
    );
    expect(formatExactTokenAmount(`-${huge}`, "es")).toBe(
      "-123.456.789.012.345.678.901.234.567.890,123456789012345678",
    );
    for (const locale of FORMAT_LOCALES)
      expect(readBack(formatExactTokenAmount(huge, locale), locale)).toBe(huge);
  });

  it("groups Spanish amounts from five digits, as Intl does", () => {
    expect(formatTokenAmount("1234", "es")).toBe("1234");
    expect(formatTokenAmount("12345.5", "es")).toBe("12.345,5");
  });
});

describe("USD in every locale", () => {
  it("puts the locale's currency sign where the locale puts it, the cents exact", () => {
    expect(formatUsd("1234.5", "de")).toBe("1.234,50\u00a0$");
    expect(formatUsd("1234.5", "pt-BR")).toBe("US$\u00a01.234,50");
    expect(formatUsd("1234.5", "fr")).toBe(`1${NNBSP}234,50\u00a0$US`);
    expect(formatUsd("1234.5", "zh-CN")).toBe("US$1,234.50");
    expect(formatUsd("3", "tr")).toBe("$3,00");
    expect(formatUsd("-3", "de")).toBe("-3,00\u00a0$");
    expect(formatUsd("1234.5", "ar").replace(/[\u200e\u200f]/g, "")).toBe("1,234.50\u00a0US$");
    expect(formatUsd("12345678901234567890123.456", "de")).toBe("12.345.678.901.234.567.890.123,45\u00a0$");
  });
});

describe("dates and times in other locales", () => {
  const local = new Date(2026, 10, 4, 9, 5).toISOString(); // 4 Nov 2026, 09:05 on this machine's clock

  it("writes the year and month the locale's way", () => {
    expect(formatDate(local, "de")).toBe("04.11.2026");
    expect(formatDateTime(local, "de")).toBe("04.11.2026, 09:05");
    expect(formatDate(local, "zh-CN")).toBe("2026年11月4日");
    expect(formatDateTime(local, "zh-CN")).toMatch(/^2026年11月4日 .*09:05$/);
    const ar = formatDate(local, "ar").replace(/[\u200e\u200f]/g, "");
    expect(ar).toMatch(/2026/);
    expect(ar).toMatch(/\b11\b/);
    expect(formatDate(local, "fr")).toBe("4 nov. 2026");
  });

  it("says how long ago in the locale's words, then the date", () => {
    const now = new Date(2026, 10, 6, 12, 0).getTime();
    const ago = (ms: number) => new Date(now - ms).toISOString();
    expect(formatRelative(ago(10_000), now, "de")).toBe("jetzt");
    expect(formatRelative(ago(5 * 60_000), now, "de")).toBe("vor 5 Min.");
    expect(formatRelative(ago(3 * 3_600_000), now, "de")).toBe("vor 3 Std.");
    expect(formatRelative(ago(5 * 60_000), now, "zh-CN")).toBe("5分钟前");
    expect(formatRelative(ago(5 * 60_000), now, "es")).toBe("hace 5 min");
    expect(formatRelative(ago(5 * 60_000), now, "ar")).toMatch(/5/);
    expect(formatRelative(local, now, "de")).toBe("04.11.2026");
  });
});

describe("English", () => {
  afterEach(() => vi.restoreAllMocks());

  it("never calls Intl (its first call costs a phone ~90 ms)", async () => {
    // A fresh copy of the modules: no other test's locale cache can hide a call.
    vi.resetModules();
    const { formatDateTime, formatExactTokenAmount, formatRelative, formatTokenAmount, formatUsd } =
      await import("./format");
    const number = vi.spyOn(Intl, "NumberFormat");
    const date = vi.spyOn(Intl, "DateTimeFormat");
    const relative = vi.spyOn(Intl, "RelativeTimeFormat");
    const local = new Date(2026, 10, 4, 9, 5).toISOString();
    expect(formatTokenAmount("1234567.000123", "en")).toBe("1,234,567.000123");
    expect(formatExactTokenAmount("1234.000821")).toBe("1,234.000821");
    expect(formatUsd("1234.5")).toBe("$1,234.50");
    expect(formatDateTime(local)).toBe("4 Nov 2026, 09:05");
    expect(formatRelative(local, new Date(2026, 10, 4, 9, 10).getTime())).toBe("5 min ago");
    expect(number).not.toHaveBeenCalled();
    expect(date).not.toHaveBeenCalled();
    expect(relative).not.toHaveBeenCalled();
  });
});
