/**
 * The browser's time zone and language, sent with registration and sign-in: emails show times as the person reads
 * them (the server drops what it cannot use).
 */
export function readerPlace(): { timeZone?: string; locale?: string } {
  try {
    return { timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone, locale: navigator.language };
  } catch {
    return {};
  }
}
