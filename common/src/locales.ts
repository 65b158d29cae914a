/**
 * The languages of CPXTB Pay (issue 37, decision 038) and how a request's language is chosen. Shared by the
 * server (which renders the pay page in it) and the browser (which hydrates it and lets the payer switch).
 */
export const LOCALES = ["en", "es", "pt-BR", "fr", "de", "tr", "id", "zh-CN", "ar"] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = "en";

/** Each language's own name, as its readers write it (the language menu lists them so). */
export const LOCALE_NAMES: Record<Locale, string> = {
  en: "English",
  es: "Español",
  "pt-BR": "Português (Brasil)",
  fr: "Français",
  de: "Deutsch",
  tr: "Türkçe",
  id: "Bahasa Indonesia",
  "zh-CN": "简体中文",
  ar: "العربية",
};

/** Languages written right to left: `locale-direction.ts` (the shell's, without the rest of this module). */
export { directionOf } from "./locale-direction.ts";

/**
 * The catalogs' areas: one catalog per area and language (client/src/locales/{locale}/{area}.json), so a page
 * loads the words it shows and no others. `pay`: everything a payer meets on a checkout; `wallet`: the wallet-less
 * path (social sign-in, managed wallet); `content`: what the English-only content pages say about themselves;
 * `buy`: buying CPXTB (/buy-cpxtb, its orders) and the claim card of test tokens; `challenge`: the security check a
 * rate-limited visitor meets on any page (loaded by its overlay, not by a page); `pos`: the counter (/pos), its
 * customer screen and the cashier's keypad (the checkout's own words it shares come from `pay`); `team`: the
 * merchant's team (/team: members, roles, invitations), accepting an invitation (/invitations/:token) and the
 * audit log (/audit-log: its event names, filters and details); `reports`: the merchant's reports (/reports) and
 * payment history (/payments), with the status names and errors of `pay`; `account`: signing in and the account
 * (/auth: sign-in, registration, the two-factor step, wallet and passkey sign-in; /forgot-password,
 * /reset-password; /profile: its sections, two-factor sign-in, passkeys, linked wallets and social accounts), with
 * the errors of the auth, two-factor and Sign-In with Ethereum answers those screens meet; `developers`: the
 * merchant's developer screens: API keys and the pay button (/developers), webhooks (/webhooks) and the payment
 * links list (/links), with the copy button's, the toasts' and the errors' words of `pay` (code, event names and
 * URLs stay as written); `merchant`: the merchant dashboard (/merchant: creating payment requests, registering and
 * editing the business, the unmatched transfers), a payment's detail panel with its refunds (also on /payments),
 * and the business's loading and refused states that every merchant page shows (`merchantQueryState`); `shell`: the
 * words of the app's frame in the entry chunk (the skip link, the header's controls, the footer, a page's loading
 * state); `site`: those of the frame's lazy parts (the side menu, the wallet menu, the live users count, the footer's
 * language menu, the error and not-found screens). The shell reads its two as plain JSON, without the translation
 * runtime (`/` never loads it): client/src/i18n/shell-words.tsx. `embed`: the pay button's script on a merchant's
 * own site (client/embed/embed.ts: the button's default label and the overlay's controls), bundled into it whole.
 */
export const MESSAGE_AREAS = [
  "pay",
  "wallet",
  "content",
  "buy",
  "challenge",
  "pos",
  "team",
  "reports",
  "account",
  "developers",
  "merchant",
  "shell",
  "site",
  "embed",
] as const;
export type MessageArea = (typeof MESSAGE_AREAS)[number];

/**
 * The server's catalogs' areas (server/src/locales/{locale}/{area}.json): `email`, the emails it sends; `page`,
 * the few pages it writes without the app (the basic login window's end).
 */
export const SERVER_MESSAGE_AREAS = ["email", "page"] as const;

/** The cookie that remembers a visitor's chosen language (a year; read by the server to render in it). */
export const LOCALE_COOKIE = "cpxtb_lang";

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (LOCALES as readonly string[]).includes(value);
}

/**
 * Our language for a BCP 47 tag, or null: an exact match first ("pt-BR"), then the language alone ("pt-PT" and
 * "pt" -> "pt-BR", "zh", "zh-Hans" and "zh-SG" -> "zh-CN", "es-MX" -> "es"). Traditional Chinese ("zh-TW",
 * "zh-HK", "zh-Hant") is not matched to Simplified: its readers get their next choice.
 */
export function matchLocale(tag: string | null | undefined): Locale | null {
  const value = tag?.trim().toLowerCase();
  if (!value) return null;
  const exact = LOCALES.find((locale) => locale.toLowerCase() === value);
  if (exact) return exact;
  const [language] = value.split(/[-_]/);
  if (language === "zh") return /\b(tw|hk|mo|hant)\b/.test(value.replace(/[-_]/g, " ")) ? null : "zh-CN";
  return LOCALES.find((locale) => locale.split("-")[0]?.toLowerCase() === language) ?? null;
}

/** The tags of an `Accept-Language` header, most wanted first (q=0 left out). */
export function acceptedLanguages(header: string | null | undefined): string[] {
  if (!header) return [];
  return header
    .split(",")
    .map((part, index) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
      const weight = q ? Number(q.slice(2)) : 1;
      return { tag: tag.trim(), weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((entry) => entry.tag && entry.tag !== "*" && entry.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index)
    .map((entry) => entry.tag);
}

/**
 * The language a page is shown in: the visitor's own choice (the cookie) first, then the page's default (a
 * merchant's language for their pay pages, when they set one), then the browser's languages in order, then English.
 */
export function chooseLocale({
  chosen,
  pageDefault,
  browser = [],
}: {
  chosen?: string | null;
  pageDefault?: string | null;
  browser?: readonly string[];
}): Locale {
  if (isLocale(chosen)) return chosen;
  if (isLocale(pageDefault)) return pageDefault;
  for (const tag of browser) {
    const match = matchLocale(tag);
    if (match) return match;
  }
  return DEFAULT_LOCALE;
}
