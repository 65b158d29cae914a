import { LOCALE_COOKIE } from "@common/locales";

/** The language the reader chose with the language menu (its cookie), if any: it comes before the browser's. */
function chosenLanguage(): string | null {
  const match = document.cookie.match(new RegExp(`(?:^|;\\s*)${LOCALE_COOKIE}=([^;]+)`));
  return match?.[1] ? decodeURIComponent(match[1]) : null;
}

/**
 * The browser's time zone and language, sent with registration and sign-in: emails show times as the person reads
 * them, in the language they chose in the menu or else their browser's (the server drops what it cannot use).
 */
export function readerPlace(): { timeZone?: string; locale?: string } {
  try {
    return {
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      locale: chosenLanguage() ?? navigator.language,
    };
  } catch {
    return {};
  }
}
