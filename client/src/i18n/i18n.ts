import {
  chooseLocale,
  DEFAULT_LOCALE,
  directionOf,
  isLocale,
  LOCALE_COOKIE,
  type Locale,
  type MessageArea,
} from "@common/locales";
import { i18n, type Messages } from "@lingui/core";
import * as React from "react";
import { warmUpLater } from "@/lib/warm-up";
import { addShellCatalog, type Catalog, setShellLocale, shellCatalog } from "./shell-words";

/**
 * The app's words in the reader's language (issue 37, decision 038). Messages live in catalogs, one per language and
 * area (client/src/locales/{locale}/{area}.json), compiled at build time by Lingui's Vite plugin; each is a chunk of
 * its own, loaded when a page that shows its area is opened in its language. The runtime is not in the shell: a
 * page's chunk brings it, and `/` never loads it.
 */
const catalogs = import.meta.glob<{ messages: Messages }>(
  ["../locales/*/*.json", "!../locales/*/shell.json", "!../locales/*/site.json"],
  { query: "?lingui" },
);
/**
 * The shell's words (areas `shell` and `site`, shell-words.tsx): plain JSON, read by the shell without this
 * runtime; loaded in a page's language beside its areas and handed to the shell. English is the shell's own.
 */
const shellCatalogs = import.meta.glob<Catalog>(
  ["../locales/*/shell.json", "../locales/*/site.json", "!../locales/en/*.json"],
  { import: "default" },
);
// A translated page formats amounts, dates and plurals in its reader's language: the browser's first formatter of
// each kind loads its data. The one-time part shared by all (ICU's list of locales, 60-100 ms on a phone-speed CPU)
// is paid by a worker on another thread (public/intl-warm-up.js, started by index.html); what is left of each kind
// is paid here before the page renders, each in a task of its own (lib/warm-up.ts). In a browser that shares
// nothing with the worker, or before it is done, these tasks pay it all.
if (typeof document !== "undefined") {
  const lang = () => document.documentElement.lang || undefined;
  warmUpLater(() => new Intl.Locale(lang() ?? "en").maximize());
  warmUpLater(() => new Intl.NumberFormat(lang()).format(1234.5));
  warmUpLater(() => new Intl.PluralRules(lang()).select(1));
  warmUpLater(() => new Intl.DateTimeFormat(lang(), { dateStyle: "medium", timeStyle: "short" }).format(0));
}

const SHELL_AREAS: readonly MessageArea[] = ["shell", "site"];

const loaded = new Set<string>();
/** The areas the pages opened so far show: a language switch loads these in the new language. */
const inUse = new Set<MessageArea>();

/**
 * Loads the areas' words in `locale`. A page shown in the app's frame names `shell` (decision 038): the frame's
 * words (both its areas) come with its own, as plain JSON for the shell; the checkouts and the counter have none.
 */
export function loadMessages(locale: Locale, areas: readonly MessageArea[]): Promise<void> {
  for (const area of areas) inUse.add(area);
  return Promise.all(
    areas
      .flatMap((area) => (area === "shell" ? SHELL_AREAS : [area]))
      .map(async (area) => {
        const key = `${locale}/${area}`;
        if (loaded.has(key)) return;
        if (SHELL_AREAS.includes(area)) {
          // English is the shell's own (the entry's, and its lazy parts').
          if (locale === DEFAULT_LOCALE) return;
          const load = shellCatalogs[`../locales/${key}.json`];
          if (!load) throw new Error(`No catalog ${key}`);
          addShellCatalog(locale, await load());
        } else {
          const load = catalogs[`../locales/${key}.json`];
          if (!load) throw new Error(`No catalog ${key}`);
          i18n.load(locale, (await load()).messages);
        }
        loaded.add(key);
      }),
  ).then(() => undefined);
}

/** Shows `locale`'s words: the page's (Lingui) and the shell's. */
function activate(locale: Locale) {
  if (i18n.locale !== locale) i18n.activate(locale);
  setShellLocale(locale);
}

function readCookie(): string | null {
  if (typeof document === "undefined") return null;
  const match = document.cookie.match(new RegExp(`(?:^|;\\s*)${LOCALE_COOKIE}=([^;]+)`));
  return match?.[1] ? decodeURIComponent(match[1]) : null;
}

/** The language the visitor chose with the menu, if any (remembered in a cookie the server reads too). */
export function chosenLocale(): Locale | null {
  const chosen = readCookie();
  return isLocale(chosen) ? chosen : null;
}

/**
 * The language the browser starts in: the one the server rendered the page in (`<html lang>` of a page it
 * rendered in its reader's language, marked `data-locale-rendered`), else the visitor's choice, then the browser's
 * languages.
 */
export function startLocale(): Locale {
  if (i18n.locale && isLocale(i18n.locale)) return i18n.locale;
  if (typeof document === "undefined") return DEFAULT_LOCALE;
  const root = document.documentElement;
  if (root.hasAttribute("data-locale-rendered") && isLocale(root.lang)) return root.lang;
  return chooseLocale({ chosen: readCookie(), browser: navigator.languages ?? [navigator.language] });
}

/** Loads the areas a page shows in the start language and activates it (before the page's first render). */
export async function prepareMessages(areas: readonly MessageArea[]): Promise<void> {
  const locale = startLocale();
  await loadMessages(locale, areas);
  activate(locale);
}

/**
 * The server's render in `locale` (entry-server.tsx): loads the areas, then activates the language for the
 * synchronous render that follows (concurrent renders each activate theirs right before rendering).
 */
export async function prepareServerRender(
  locale: Locale,
  areas: readonly MessageArea[],
): Promise<() => void> {
  await loadMessages(locale, areas);
  return () => {
    i18n.activate(locale);
    setShellLocale(locale);
  };
}

/**
 * Switches the app to `locale`, remembered for a year (the server renders the next page in it too). Resolves once
 * the words of every area in use are loaded and shown.
 */
export async function chooseLanguage(locale: Locale, { remember = true } = {}): Promise<void> {
  if (remember) void saveToAccount(locale);
  if (remember)
    // biome-ignore lint/suspicious/noDocumentCookie: one fixed name and an encoded tag; the Cookie Store API is not in every browser a payer has
    document.cookie = `${LOCALE_COOKIE}=${encodeURIComponent(locale)}; Path=/; Max-Age=31536000; SameSite=Lax`;
  await loadMessages(locale, [...inUse]);
  activate(locale);
}

/** A signed-in reader's choice is kept with their account: their emails are written in it (decision 038). */
async function saveToAccount(locale: Locale) {
  const [{ queryClient }, { USER_QUERY_KEY }, { apiRequest }] = await Promise.all([
    import("@/lib/query-client"),
    import("@/features/auth/api/get-user"),
    import("@/lib/api-client"),
  ]);
  if (!queryClient.getQueryData(USER_QUERY_KEY)) return;
  await apiRequest("PATCH", "/api/user/preferences", { locale }).catch(() => {});
}

function subscribe(onChange: () => void): () => void {
  return i18n.on("change", onChange);
}

/** The active language (outside React: a toast's words, a confirmation). */
export const currentLocale = (): Locale => (isLocale(i18n.locale) ? i18n.locale : DEFAULT_LOCALE);

/** The active language; a component using it renders again when the reader switches. */
export function useLocale(): Locale {
  return React.useSyncExternalStore(subscribe, currentLocale, currentLocale);
}

export type Values = Record<string, string | number | null | undefined>;

/** A message of the active language by id, with its ICU placeholders filled (outside React too). */
export function t(id: string, values?: Values): string {
  return i18n._(id, values as Record<string, unknown> | undefined);
}

const translators = new Map<Locale, typeof t>();
function translatorOf(locale: Locale): typeof t {
  let translator = translators.get(locale);
  if (!translator) {
    translator = (id, values) => t(id, values);
    translators.set(locale, translator);
  }
  return translator;
}

/** `t`, for a component: it renders again when the reader switches language. */
export function useT(): typeof t {
  // A function per language, so memoized children that take it see the change.
  return translatorOf(useLocale());
}

/** `lang` and `dir` for an element whose text is in the active language (the page's root). */
export function languageAttributes(locale: Locale): { lang: Locale; dir: "ltr" | "rtl" } {
  return { lang: locale, dir: directionOf(locale) };
}

/**
 * While a translated page is shown, `<html lang dir>` say its language (screen readers, fonts, right to left for
 * Arabic); the English screens around it get `en`/`ltr` back when it goes. Its `<meta name="description">` too: a
 * page the browser renders has index.html's (English) one, said here in the page's language; a page the server
 * rendered in that language keeps the one the server wrote for it (the pay page's, a link's).
 */
export function useDocumentLanguage(): Locale {
  const locale = useLocale();
  React.useEffect(() => {
    const root = document.documentElement;
    const renderedInIt = root.hasAttribute("data-locale-rendered") && root.getAttribute("lang") === locale;
    sayLanguage(root, locale);
    const meta = document.head.querySelector<HTMLMetaElement>('meta[name="description"]');
    const before = meta?.content;
    const description = locale === DEFAULT_LOCALE ? undefined : shellCatalog(locale)["site.meta.description"];
    if (meta && description && !renderedInIt) meta.content = description;
    return () => {
      sayLanguage(root, DEFAULT_LOCALE);
      root.removeAttribute("data-locale-rendered");
      if (meta && before !== undefined) meta.content = before;
    };
  }, [locale]);
  return locale;
}

/**
 * Sets `<html lang dir>` to `locale`'s where they say something else (index.html and the server's pages say both).
 * Writing an attribute restyles every element its selectors reach even when the value stays the same, and the
 * stylesheet's right-to-left rules (`[dir=rtl] *`, `:lang(ar)`) reach them all: a whole-page restyle of some 50 ms
 * at a phone's CPU speed when a page mounted (issue 39).
 */
function sayLanguage(root: HTMLElement, locale: Locale): void {
  if (root.getAttribute("lang") !== locale) root.lang = locale;
  const dir = directionOf(locale);
  if (root.getAttribute("dir") !== dir) root.dir = dir;
}

/**
 * A message with React elements in its placeholders: `<Rich id="…" values={{ amount: <b>…</b> }} />`.
 * The message is formatted with markers in place of the elements, which are then put where the markers are.
 */
export function Rich({ id, values }: { id: string; values: Record<string, React.ReactNode> }) {
  useLocale();
  const markers: Values = {};
  for (const name of Object.keys(values)) markers[name] = `\u2063${name}\u2063`;
  // U+2063 (invisible separator) around each name: a character no message contains.
  const parts = t(id, markers).split(/\u2063(\w+)\u2063/);
  return React.createElement(
    React.Fragment,
    null,
    ...parts.map((part, index) =>
      index % 2 === 1 ? React.createElement(React.Fragment, { key: index }, values[part]) : part,
    ),
  );
}
