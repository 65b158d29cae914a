import { readFileSync } from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { directionOf, LOCALE_COOKIE, LOCALE_NAMES, type Locale } from "../common/src/locales";
import { expect as baseExpect, test } from "./fixtures";
import { createMerchant } from "./support/payments";

/**
 * The counter in its reader's language (issue 37): at a phone's width, in Arabic (right to left) and German, the
 * cashier's screen with products, a cart and an amount typed, then the customer's screen of the request: no English
 * word of the counter's or the checkout's catalogs, no sideways scroll, axe clean, <html lang dir> right.
 */
const expect = baseExpect.configure({ timeout: 30_000 });
const MERCHANT = "Corner Coffee";
const PRODUCT = "Flat white";
const SERIOUS = new Set(["serious", "critical"]);

type Catalog = Record<string, string>;
/** The words the counter shows: its own catalog and the checkout's it reuses. */
const catalog = (locale: Locale): Catalog =>
  Object.assign(
    {},
    ...["pos", "pay"].map(
      (area) => JSON.parse(readFileSync(`client/src/locales/${locale}/${area}.json`, "utf8")) as Catalog,
    ),
  ) as Catalog;

const words = (text: string) => text.toLowerCase().match(/\p{L}+/gu) ?? [];

/** English words of those catalogs (longer than 3 letters) that `locale`'s own never uses: a text left in English. */
function englishWordsFor(locale: Locale): Set<string> {
  const own = new Set(Object.values(catalog(locale)).flatMap(words));
  const allowed = new Set(words(`${MERCHANT} ${PRODUCT} Beans CPXTB Pay USD`));
  return new Set(
    Object.values(catalog("en"))
      .flatMap(words)
      .filter((w) => w.length > 3 && !own.has(w) && !allowed.has(w)),
  );
}

/** What a person reads (screen-reader-only text included), without the language menu (each language in its name). */
function visibleText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const menu = document.querySelector<HTMLElement>('[data-testid="language-menu"]');
    if (menu) menu.style.display = "none";
    // biome-ignore lint/performance/useDomNodeTextContent: what is rendered is what a person reads
    const text = document.body.innerText;
    if (menu) menu.style.display = "";
    return text;
  });
}

async function expectTranslated(page: Page, locale: Locale, where: string) {
  await expect(page.locator("html")).toHaveAttribute("lang", locale);
  await expect(page.locator("html")).toHaveAttribute("dir", directionOf(locale));
  const english = englishWordsFor(locale);
  const left = [...new Set(words(await visibleText(page)).filter((w) => english.has(w)))];
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

for (const [locale, usd] of [
  ["ar", /^\u200f?16\.70\sUS\$$/],
  ["de", /^16,70\s\$$/],
] as const) {
  test.describe(`in ${LOCALE_NAMES[locale]}`, () => {
    test.use({ locale, viewport: { width: 390, height: 844 } });

    test(`${locale}: the counter and the customer screen, with no English left`, async ({ page }) => {
      test.setTimeout(180_000);
      const t = catalog(locale);
      await createMerchant(page.request, { name: MERCHANT, tipPresets: [10] });
      const product = async (data: Record<string, unknown>) =>
        expect((await page.request.post("/api/merchant/links", { data })).status()).toBe(201);
      await product({ title: PRODUCT, pricing: "fixed", currency: "USD", amount: "4.20" });
      await product({ title: "Beans", pricing: "fixed", currency: "CPXTB", amount: "100.125" });

      await page.goto("/pos");
      await expect(page.getByTestId("pos-counter")).toBeVisible();
      await expect(page.getByTestId("pos-today")).not.toHaveText(t["pos.counter.todayLoading"] as string);
      await page.getByTestId("pos-product").first().click();
      const keypad = page.getByRole("group", { name: t["pos.counter.keypad"] });
      for (const key of ["1", "2", "5", "0"])
        await keypad.getByRole("button", { name: key, exact: true }).click();
      await expect(page.getByRole("list", { name: t["pos.cart.label"] })).toBeVisible();
      await page.getByRole("button", { name: t["pos.counter.noTip"] }).click();
      await expectTranslated(page, locale, "the counter");
      await page.screenshot({ path: test.info().outputPath(`pos-counter-${locale}.png`), fullPage: true });

      // 4.20 + 12.50
      await page.getByTestId("pos-charge").click();
      const customer = page.getByTestId("pos-customer");
      await expect(customer.getByRole("img", { name: t["pos.customer.qrLabel"] })).toBeVisible();
      await expect(customer.getByTestId("pos-customer-usd")).toHaveText(usd);
      await expect(page.getByTestId("pos-status")).toHaveText(t["pos.customer.waiting"] as string);
      await expect(customer.getByRole("link", { name: t["pay.view.walletApp.open"] })).toBeVisible();
      await expect(customer.getByRole("combobox", { name: t["pay.language.label"] })).toHaveValue(locale);
      await expectTranslated(page, locale, "the customer screen");
      await page.screenshot({ path: test.info().outputPath(`pos-customer-${locale}.png`) });

      // Cancelled: the closed notice and the next sale's button.
      await customer.getByRole("button", { name: t["pos.customer.cancel"] }).click();
      await expect(page.getByTestId("pos-closed")).toHaveText(t["pos.closed.cancelled"] as string);
      await expectTranslated(page, locale, "the cancelled customer screen");
    });
  });
}

test.describe("the counter's language menu", () => {
  test.use({ locale: "en-US", viewport: { width: 390, height: 844 } });

  test("switches the counter at once and is remembered", async ({ page, context }) => {
    await createMerchant(page.request, { name: MERCHANT });
    await page.goto("/pos");
    await expect(page.getByTestId("pos-today")).toContainText("Today: 0 sales");
    await page.getByRole("combobox", { name: "Language" }).selectOption("tr");
    await expect(page.getByTestId("pos-today")).toContainText("Bugün: 0 satış");
    await expect(page.locator("html")).toHaveAttribute("lang", "tr");
    expect((await context.cookies()).find((c) => c.name === LOCALE_COOKIE)?.value).toBe("tr");
    await page.reload();
    await expect(page.getByTestId("pos-today")).toContainText("Bugün: 0 satış");
  });
});
