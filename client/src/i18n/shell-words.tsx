import { directionOf } from "@common/locale-direction";
import type { Locale } from "@common/locales";
import * as React from "react";
import english from "@/locales/en/shell.json";

/**
 * The shell's words (issue 37, decision 038): the skip link, the header's controls, the footer, the page's loading
 * state (catalog area `shell`, in the entry chunk), and the lazy parts around a page (side menu, wallet menu, live
 * users, language menu, error and not-found screens: area `site`, `site-words.ts`). No translation runtime and no
 * zod here: the shell of `/` never loads Lingui. English is in the entry; another language's two catalogs are plain
 * JSON chunks that the translation side (`i18n/i18n.ts`) loads beside a page's areas and hands over here.
 *
 * The shell speaks the language of the page's words: a page that shows words in its reader's language (a
 * translated page, or a content page with its English-only notice: its route names catalog areas) has its shell in
 * that language; an English page (`/`, about, contact, the presentation) has an English shell.
 */
export type ShellId = keyof typeof english;
// Not @common/locales' values: a module the entry shares is bundled whole into it (the languages' names...).
const DEFAULT_LOCALE: Locale = "en";
export type Catalog = Record<string, string>;

const catalogs = new Map<Locale, Catalog>([[DEFAULT_LOCALE, english]]);
/** The reader's language of the words loaded last (a page's, or the language menu's choice). */
let readerLocale: Locale = DEFAULT_LOCALE;
const listeners = new Set<() => void>();

/** Adds a language's shell words (both areas, or the lazy parts' English). */
export function addShellCatalog(locale: Locale, catalog: Catalog) {
  catalogs.set(locale, { ...catalogs.get(locale), ...catalog });
}

/** The words of `locale`, falling back to English per message. */
export function shellCatalog(locale: Locale): Catalog {
  return catalogs.get(locale) ?? english;
}

/** Called once `locale`'s shell words are in (`addShellCatalog`): a page with words shows its shell in it. */
export function setShellLocale(locale: Locale) {
  if (locale === readerLocale) return;
  readerLocale = locale;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * While the browser hydrates, the language the server rendered the shell in: `<html lang>` of a page it rendered
 * in its reader's language (`data-locale-rendered`), else English (a content page's cached HTML). On the server,
 * the render's (set by entry-server.tsx right before it).
 */
function renderedLocale(): Locale {
  if (typeof document === "undefined") return readerLocale;
  const root = document.documentElement;
  // The server writes one of our languages there (page-meta.ts).
  return root.hasAttribute("data-locale-rendered") && root.lang ? (root.lang as Locale) : DEFAULT_LOCALE;
}

const ShellLocaleContext = React.createContext<Locale>(DEFAULT_LOCALE);

/** The shell's language around a page: the reader's when the page has words of its own (`withWords`), else English. */
export function ShellLanguage({ withWords, children }: { withWords: boolean; children: React.ReactNode }) {
  const reader = React.useSyncExternalStore(subscribe, () => readerLocale, renderedLocale);
  return (
    <ShellLocaleContext.Provider value={withWords ? reader : DEFAULT_LOCALE}>
      {children}
    </ShellLocaleContext.Provider>
  );
}

export const useShellLocale = (): Locale => React.useContext(ShellLocaleContext);

/** The shell's words in its language, with `lang` and `dir` for the element that holds them. */
export function useShellWords(): {
  words: Record<ShellId, string>;
  attributes: { lang: Locale; dir: "ltr" | "rtl" };
} {
  const locale = useShellLocale();
  return {
    words: shellCatalog(locale) as Record<ShellId, string>,
    attributes: { lang: locale, dir: directionOf(locale) },
  };
}
