import { readFileSync } from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import { expect as baseExpect, type Page } from "@playwright/test";
import { directionOf, type Locale, type MessageArea } from "../../common/src/locales";

/**
 * What the translated-screen specs share (issue 37): a screen in its reader's language has no English word of the
 * catalogs it shows, says its language and direction on <html>, does not scroll sideways, and axe finds nothing
 * serious.
 */
export type Catalog = Record<string, string>;

const SERIOUS = new Set(["serious", "critical"]);
const expect = baseExpect.configure({ timeout: 30_000 });

/** The words of `areas` in `locale`, as one catalog (ids are unique across areas). */
export const catalogOf = (locale: Locale, areas: readonly MessageArea[]): Catalog =>
  Object.assign(
    {},
    ...areas.map(
      (area) => JSON.parse(readFileSync(`client/src/locales/${locale}/${area}.json`, "utf8")) as Catalog,
    ),
  ) as Catalog;

/** A message with its `{name}` placeholders filled (plain arguments only). */
export const fillIn = (message: string, values: Record<string, string | number> = {}): string =>
  message.replace(/\{(\w+)\}/g, (_, name: string) => String(values[name] ?? `{${name}}`));

/** One case of a message that is a single `{x, select, key {text} …}`: the text for `key`. */
export function selectCase(message: string, key: string): string {
  const found = message.match(new RegExp(`[{\\s]${key} \\{([^{}]*)\\}`));
  if (!found?.[1]) throw new Error(`no case ${key} in ${message}`);
  return found[1];
}

const words = (text: string) => text.toLowerCase().match(/\p{L}+/gu) ?? [];

/**
 * English words of those catalogs (longer than 3 letters) that `locale`'s own never uses: a text left in English.
 * `allowed`: the test's own data (names) that may share a word with English.
 */
function englishWordsFor(locale: Locale, areas: readonly MessageArea[], allowed: string): Set<string> {
  const own = new Set(Object.values(catalogOf(locale, areas)).flatMap(words));
  const data = new Set(words(allowed));
  return new Set(
    Object.values(catalogOf("en", areas))
      .flatMap(words)
      .filter((w) => w.length > 3 && !own.has(w) && !data.has(w)),
  );
}

/**
 * What a person reads in `root` (screen-reader-only text included), and what a screen reader or a pointer says of
 * its rendered elements (their `aria-label`, `title`, `placeholder` and `alt`), without the language menus (the
 * checkout's and the footer's: each language in its own name).
 */
function visibleText(page: Page, root: string): Promise<string> {
  return page.evaluate((selector) => {
    const MENUS = '[data-testid="language-menu"], [data-testid="site-language-menu"]';
    const menus = [...document.querySelectorAll<HTMLElement>(MENUS)];
    for (const menu of menus) menu.style.display = "none";
    const element = document.querySelector<HTMLElement>(selector);
    // biome-ignore lint/performance/useDomNodeTextContent: what is rendered is what a person reads
    const text = element?.innerText ?? "";
    for (const menu of menus) menu.style.display = "";
    const said = [...(element?.querySelectorAll("*") ?? [])]
      .filter((e) => !e.closest(MENUS) && e.getClientRects().length > 0)
      .flatMap((e) =>
        ["aria-label", "title", "placeholder", "alt"].map((name) => e.getAttribute(name) ?? ""),
      );
    return [text, ...said].join("\n");
  }, root);
}

export type TranslatedCheck = {
  /** The catalogs whose English words must not be left. */
  areas: readonly MessageArea[];
  /** The test's data (business, product or people's names) that may contain English words. */
  allowed: string;
  /** The part of the page that is translated (default: the whole body). */
  root?: string;
};

export async function expectTranslated(
  page: Page,
  locale: Locale,
  where: string,
  { areas, allowed, root = "body" }: TranslatedCheck,
) {
  await expect(page.locator("html")).toHaveAttribute("lang", locale);
  await expect(page.locator("html")).toHaveAttribute("dir", directionOf(locale));
  const english = englishWordsFor(locale, areas, allowed);
  const left = [...new Set(words(await visibleText(page, root)).filter((w) => english.has(w)))];
  expect(left, `English words on ${where} in ${locale}`).toEqual([]);
  const scroll = await page.evaluate(() => {
    const client = document.documentElement.clientWidth;
    // The elements that reach past the screen, innermost first: what to fix when it scrolls.
    const wide = [...document.querySelectorAll<HTMLElement>("body *")]
      .filter((e) => {
        const box = e.getBoundingClientRect();
        return box.width > 0 && (box.right > client + 1 || box.left < -1);
      })
      .reverse()
      .slice(0, 3)
      .map((e) => `<${e.tagName.toLowerCase()} class="${e.className}">${(e.textContent ?? "").slice(0, 40)}`);
    return { scroll: document.documentElement.scrollWidth, client, wide };
  });
  expect(
    scroll.scroll,
    `sideways scroll on ${where} in ${locale}: ${scroll.wide.join(" | ")}`,
  ).toBeLessThanOrEqual(scroll.client);
  await page.evaluate(() =>
    Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))),
  );
  const results = await new AxeBuilder({ page }).analyze();
  const problems = results.violations
    .filter((v) => SERIOUS.has(v.impact ?? ""))
    .map((v) => `${v.id} (${v.impact}): ${v.help} -> ${v.nodes.map((n) => n.target.join(" ")).join(" | ")}`);
  expect(problems, `axe on ${where} in ${locale}`).toEqual([]);
}
