import { type FormatLocale, formatDecimal, intlTag, numberShape, usdShape } from "@common/locale-format";

/**
 * Token amounts arrive as decimal strings ("1234.5678") and are shown as they are: grouped thousands, at most
 * 6 decimals, never through a float (a float would turn 0.000123 into 1.23e-4 or lose the unique tag). The
 * separators are the locale's ("1.234,5678" in de), the digits always latin.
 */
export function formatTokenAmount(decimal: string, locale: FormatLocale = "en", maxDecimals = 6): string {
  return formatDecimal(decimal, numberShape(locale), { maxDecimals });
}

/** Every significant decimal, none cut: the amount a payer must send, its unique last digits visible. */
export function formatExactTokenAmount(decimal: string, locale: FormatLocale = "en"): string {
  return formatDecimal(decimal, numberShape(locale));
}

/** The amount a payer types into a wallet: no grouping, all significant decimals, in every locale. */
export function plainTokenAmount(decimal: string): string {
  const [whole = "0", fraction = ""] = decimal.split(".");
  const trimmed = fraction.replace(/0+$/, "");
  return trimmed ? `${whole}.${trimmed}` : whole;
}

/**
 * "12.5" USD -> "$12.50" (a decimal string too); "12,50 US$" in es, "US$ 12,50" in pt-BR. Cents are cut, not
 * rounded, in every locale, so each language shows the same digits.
 */
export function formatUsd(decimal: string, locale: FormatLocale = "en"): string {
  const [whole = "0", fraction = ""] = decimal.split(".");
  const cents = fraction.padEnd(2, "0").slice(0, 2);
  if (locale === "en") return `$${formatTokenAmount(whole, "en", 0)}.${cents}`;
  return formatDecimal(`${whole}.${cents}`, usdShape(locale), { minDecimals: 2 });
}

/**
 * A USD amount that says its currency: "$12.50 USD" in English (the "$" alone is not only the US dollar's), the
 * locale's own currency format elsewhere, which names it already ("US$ 12,50", "12,50 $US", "12,50 $").
 */
export function formatUsdAmount(decimal: string, locale: FormatLocale = "en"): string {
  return locale === "en" ? `${formatUsd(decimal)} USD` : formatUsd(decimal, locale);
}

/** 0x12ab…89cd */
export function shortAddress(address: string): string {
  return address.length > 12 ? `${address.slice(0, 6)}…${address.slice(-4)}` : address;
}

/** "14:03" style countdown from milliseconds; hours when needed. */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const mm = String(m).padStart(h ? 2 : 1, "0");
  return `${h ? `${h}:` : ""}${mm}:${String(s).padStart(2, "0")}`;
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** One `Intl.DateTimeFormat` per locale and style, kept: building one costs more than formatting with it. */
function dateFormat(locale: FormatLocale, withTime: boolean): Intl.DateTimeFormat {
  const key = `${locale}|${withTime}`;
  let format = dateFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(
      intlTag(locale),
      withTime ? { dateStyle: "medium", timeStyle: "short" } : { dateStyle: "medium" },
    );
    dateFormats.set(key, format);
  }
  return format;
}

/**
 * "24 Nov 2026" in local time ("24.11.2026" in de, "2026年11月24日" in zh-CN). English is not `Intl`: a
 * browser's first date formatting loads ICU's locale data, some 90 ms of a phone's main thread, and lists
 * format dates in their first render (the dashboard's payments). Other languages need `Intl` for their
 * plurals anyway.
 */
export function formatDate(iso: string, locale: FormatLocale = "en"): string {
  const date = new Date(iso);
  if (locale !== "en") return dateFormat(locale, false).format(date);
  return `${date.getDate()} ${MONTHS[date.getMonth()]} ${date.getFullYear()}`;
}

/** "24 Nov 2026, 09:05" in local time (24-hour in English, the locale's own clock otherwise). */
export function formatDateTime(iso: string, locale: FormatLocale = "en"): string {
  const date = new Date(iso);
  if (locale !== "en") return dateFormat(locale, true).format(date);
  const time = [date.getHours(), date.getMinutes()].map((n) => String(n).padStart(2, "0")).join(":");
  return `${formatDate(iso)}, ${time}`;
}

const relativeFormats = new Map<FormatLocale, Intl.RelativeTimeFormat>();

function relativeFormat(locale: FormatLocale): Intl.RelativeTimeFormat {
  let format = relativeFormats.get(locale);
  if (!format) {
    // "auto" says "jetzt" rather than "vor 0 Sekunden"; "short" matches English's "5 min ago".
    format = new Intl.RelativeTimeFormat(intlTag(locale), { numeric: "auto", style: "short" });
    relativeFormats.set(locale, format);
  }
  return format;
}

/** "just now", "5 min ago", "3 h ago", then the date ("vor 5 Min." in de, "5分钟前" in zh-CN). */
export function formatRelative(iso: string, now = Date.now(), locale: FormatLocale = "en"): string {
  const seconds = Math.round((now - new Date(iso).getTime()) / 1000);
  const minutes = Math.round(seconds / 60);
  const hours = Math.round(minutes / 60);
  if (locale !== "en") {
    const format = relativeFormat(locale);
    if (seconds < 45) return format.format(0, "second");
    if (minutes < 60) return format.format(-minutes, "minute");
    if (hours < 24) return format.format(-hours, "hour");
    return formatDate(iso, locale);
  }
  if (seconds < 45) return "just now";
  if (minutes < 60) return `${minutes} min ago`;
  if (hours < 24) return `${hours} h ago`;
  return formatDate(iso);
}
