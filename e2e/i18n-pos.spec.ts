import type { Page } from "@playwright/test";
import { LOCALE_COOKIE, LOCALE_NAMES, type Locale } from "../common/src/locales";
import { expect as baseExpect, test } from "./fixtures";
import { catalog as catalogOf, englishWordsFor, expectTranslated as expectIn } from "./support/i18n";
import { createMerchant } from "./support/payments";

/**
 * The counter in its reader's language (issue 37): at a phone's width, in Arabic (right to left) and German, the
 * cashier's screen with products, a cart and an amount typed, then the customer's screen of the request: no English
 * word of the counter's or the checkout's catalogs, no sideways scroll, axe clean, <html lang dir> right.
 */
const expect = baseExpect.configure({ timeout: 30_000 });
const MERCHANT = "Corner Coffee";
const PRODUCT = "Flat white";
/** The words the counter shows: its own catalog and the checkout's it reuses. */
const AREAS = ["pos", "pay"];
const catalog = (locale: Locale) => catalogOf(locale, AREAS);

/** No English word of those catalogs but the names the test gave its data (see support/i18n.ts). */
const expectTranslated = (page: Page, locale: Locale, where: string) =>
  expectIn(page, locale, where, englishWordsFor(locale, AREAS, `${MERCHANT} ${PRODUCT} Beans CPXTB Pay USD`));

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
