import { readFileSync } from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { directionOf, type Locale } from "../../common/src/locales";
import { expect as baseExpect } from "../fixtures";

/**
 * What the translated screens' specs check (issue 37): a page in its reader's language has no English word of its
 * catalogs left, the right <html lang dir>, no sideways scroll and no serious or critical axe violation.
 */
const expect = baseExpect.configure({ timeout: 30_000 });
const SERIOUS = new Set(["serious", "critical"]);

export type Catalog = Record<string, string>;

/** The messages of `areas` in `locale`, as one catalog. */
export function catalog(locale: Locale, areas: readonly string[]): Catalog {
  return Object.assign(
    {},
    ...areas.map(
      (area) => JSON.parse(readFileSync(`client/src/locales/${locale}/${area}.json`, "utf8")) as Catalog,
    ),
  ) as Catalog;
}

export const words = (text: string) => text.toLowerCase().match(/\p{L}+/gu) ?? [];

/**
 * English words of the `areas`' catalogs (longer than 3 letters) that `locale`'s own never uses, but for those of
 * `allowed` (names the test gave its data): a text left in English.
 */
export function englishWordsFor(locale: Locale, areas: readonly string[], allowed: string): Set<string> {
  const own = new Set(Object.values(catalog(locale, areas)).flatMap(words));
  const names = new Set(words(allowed));
  return new Set(
    Object.values(catalog("en", areas))
      .flatMap(words)
      .filter((w) => w.length > 3 && !own.has(w) && !names.has(w)),
  );
}

/**
 * What a person reads (screen-reader-only text included) in `within` (a selector; the whole page by default),
 * without the language menu (each language in its name).
 */
export function visibleText(page: Page, within = "body"): Promise<string> {
  return page.evaluate((selector) => {
    const menu = document.querySelector<HTMLElement>('[data-testid="language-menu"]');
    if (menu) menu.style.display = "none";
    // biome-ignore lint/performance/useDomNodeTextContent: what is rendered is what a person reads
    const text = document.querySelector<HTMLElement>(selector)?.innerText ?? "";
    if (menu) menu.style.display = "";
    return text;
  }, within);
}

/**
 * The page is in `locale`: <html lang dir>, none of the `english` words in `within` (a page inside the app's
 * still-English header and footer checks its `main`), no sideways scroll, axe clean.
 */
export async function expectTranslated(
  page: Page,
  locale: Locale,
  where: string,
  english: Set<string>,
  within = "body",
) {
  await expect(page.locator("html")).toHaveAttribute("lang", locale);
  await expect(page.locator("html")).toHaveAttribute("dir", directionOf(locale));
  const left = [...new Set(words(await visibleText(page, within)).filter((w) => english.has(w)))];
  expect(left, `English words on ${where} in ${locale}`).toEqual([]);
  const scroll = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(scroll.scroll, `sideways scroll on ${where} in ${locale}`).toBeLessThanOrEqual(scroll.client);
  await page.evaluate(() =>
    Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))),
  );
  const results = await new AxeBuilder({ page }).analyze();
  const problems = results.violations
    .filter((v) => SERIOUS.has(v.impact ?? ""))
    .map((v) => `${v.id} (${v.impact}): ${v.help} -> ${v.nodes.map((n) => n.target.join(" ")).join(" | ")}`);
  expect(problems, `axe on ${where} in ${locale}`).toEqual([]);
}
