/** A time in the reader's own zone, its zone named: "Nov 27, 2026, 8:55 PM GMT+9"; latin digits in Arabic too. */
export function when(iso: string, locale?: string): string {
  return new Date(iso).toLocaleString(locale, {
    numberingSystem: "latn",
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    timeZoneName: "short",
  });
}
