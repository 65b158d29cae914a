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

/**
 * The server's refusal without its own UTC time ("… You can claim again at 2026-11-27 11:55 UTC."): the card
 * states the next claim time once, in local time.
 */
export function withoutUtcTime(message: string): string {
  return message.replace(/\s*You can claim again at [^.]*?UTC\.?/g, "").trim();
}
