import { readFile } from "node:fs/promises";
import type { APIRequestContext, Page } from "@playwright/test";
import { PDFDict, PDFDocument, PDFName } from "pdf-lib";
import { LOCALE_NAMES, type Locale, type MessageArea } from "../common/src/locales";
import { expect as baseExpect, test } from "./fixtures";
import { catalogOf, expectTranslated as expectIn } from "./support/i18n";
import { createMerchant, createPayment, type Payment, payFromDevAccount } from "./support/payments";

/**
 * The merchant's reports and payment history in their reader's language (issue 37): at a phone's width, in Arabic
 * (right to left) and French, a business with one payment paid on the chain and one still open. The report's totals,
 * chart table, presets and a refused range, the PDF in that language, then the history with its statuses and a search
 * that finds nothing: no English word of the catalogs, amounts in the locale's format, no sideways scroll, axe clean,
 * <html lang dir>.
 */
const expect = baseExpect.configure({ timeout: 30_000 });
// The dev payer account sends the transfers: one test of this file at a time.
test.describe.configure({ mode: "serial" });

const MERCHANT = "Corner Coffee";
const PAID = "Espresso";
const OPEN = "Croissant";
/** The words these pages show: their own area and the checkout's status names and errors. */
const AREAS: readonly MessageArea[] = ["reports", "pay", "shell", "site"];
/** The whole page is checked: the app's header and footer around it speak its language too (decision 038). */
const expectTranslated = (page: Page, locale: Locale, where: string) =>
  expectIn(page, locale, where, {
    areas: AREAS,
    allowed: `${MERCHANT} ${PAID} ${OPEN} CPXTB USD`,
    root: "body",
  });

/** A message with its placeholders filled (the messages used here have no plural). */
const fill = (message: string, values: Record<string, string>) =>
  message.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? `{${name}}`);

/** The dev payer is shared with other spec files running at the same time: a nonce taken meanwhile is retried. */
async function pay(request: APIRequestContext, payment: Payment) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await payFromDevAccount(request, payment.receivingAddress, BigInt(payment.amountDueBase));
    } catch (error) {
      if (attempt >= 5 || !/nonce|underpriced|already known/i.test(String(error))) throw error;
    }
  }
}

const stat = (page: Page, id: string) => page.getByTestId(id).locator("dd").first();

for (const [locale, usd] of [
  ["ar", /^\u200f?10\.00\sUS\$$/],
  ["fr", /^10,00\s\$US$/],
] as const) {
  test.describe(`in ${LOCALE_NAMES[locale]}`, () => {
    test.use({ locale, viewport: { width: 390, height: 844 } });

    test(`${locale}: the report and the payment history, with no English left`, async ({ page }) => {
      test.setTimeout(180_000);
      const t = catalogOf(locale, AREAS);
      await createMerchant(page.request, { name: MERCHANT });
      const paid = await createPayment(page.request, { currency: "USD", amount: "10.00", description: PAID });
      const open = await createPayment(page.request, { currency: "USD", amount: "3.00", description: OPEN });
      await pay(page.request, paid);
      await expect
        .poll(
          async () =>
            (await (await page.request.get(`/api/payments/public/${paid.reference}`)).json()).status,
        )
        .toBe("completed");

      // The report: totals in the locale's format, the statuses by their translated names, the chart's table open.
      await page.goto("/reports");
      await expect(page.getByRole("heading", { level: 1, name: t["reports.page.title"] })).toBeVisible();
      await expect(stat(page, "stat-paid")).toHaveText("1");
      await expect(stat(page, "stat-revenue")).toHaveText(usd);
      await expect(page.getByTestId("csv-english")).toHaveText(t["reports.export.csvEnglish"] as string);
      const cards = page.getByTestId("status-cards");
      await expect(cards.locator('[data-status-row="completed"]')).toContainText(
        t["pay.status.completed"] as string,
      );
      await expect(cards.locator('[data-status-row="pending"]')).toContainText(
        t["pay.status.pending"] as string,
      );
      await page.getByText(t["reports.chart.table"] as string).click();
      await expectTranslated(page, locale, "the report");
      await page.screenshot({ path: test.info().outputPath(`reports-${locale}.png`), fullPage: true });

      // The PDF is in the page's language: its title, and (Arabic) the Noto fonts fetched and embedded for it.
      const fonts: string[] = [];
      page.on("request", (request) => {
        if (/\/assets\/noto-sans-.*\.ttf$/.test(request.url()))
          fonts.push(request.url().replace(/^.*\//, ""));
      });
      const [first, last] = ((await page.getByTestId("report").getAttribute("data-range")) ?? "").split("/");
      const [file] = await Promise.all([
        page.waitForEvent("download"),
        page.getByRole("button", { name: t["reports.export.downloadPdf"], exact: true }).click(),
      ]);
      expect(file.suggestedFilename()).toBe(`cpxtb-report-${first}-to-${last}.pdf`);
      const pdf = await PDFDocument.load(await readFile((await file.path())!));
      expect(pdf.getTitle()).toBe(
        fill(t["reports.pdf.documentTitle"] as string, { from: first!, to: last! }),
      );
      const embedded = pdf.context
        .enumerateIndirectObjects()
        .some(([, object]) => object instanceof PDFDict && object.has(PDFName.of("FontFile2")));
      expect(embedded, "Arabic is drawn with embedded Noto; French with the standard fonts").toBe(
        locale === "ar",
      );
      expect(fonts.length > 0).toBe(locale === "ar");

      // Weekly buckets, then a reversed range: refused in the reader's language before any request.
      const weekly = page.getByRole("button", { name: t["reports.chart.weekly"], exact: true });
      await weekly.click();
      await expect(weekly).toHaveAttribute("aria-pressed", "true");
      const to = await page.locator("#report-to").inputValue();
      const after = new Date(Date.parse(`${to}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
      await page.locator("#report-from").fill(after);
      await expect(page.getByRole("alert")).toHaveText(t["reports.range.endBeforeStart"] as string);
      await expect(
        page.getByRole("button", { name: t["reports.preset.custom"], exact: true }),
      ).toHaveAttribute("aria-pressed", "true");
      await expectTranslated(page, locale, "the report with a reversed range");

      // The history: both payments with their statuses, the count, then a search that matches none.
      await page.goto("/payments");
      await expect(
        page.getByRole("heading", { level: 1, name: t["reports.history.pageTitle"] }),
      ).toBeVisible();
      const list = page.getByTestId("recent-payments");
      await expect(list.locator(`[data-reference="${paid.reference}"]`)).toContainText(
        t["pay.status.completed"] as string,
      );
      await expect(list.locator(`[data-reference="${open.reference}"]`)).toContainText(
        t["pay.status.pending"] as string,
      );
      await expect(list.getByRole("link", { name: t["reports.history.openPage"] })).toHaveCount(2);
      await expectTranslated(page, locale, "the payment history");
      await page.screenshot({ path: test.info().outputPath(`payments-${locale}.png`), fullPage: true });

      await page.getByRole("searchbox", { name: t["reports.history.search"] }).fill("Bagel");
      await expect(
        page.getByText(fill(t["reports.history.noMatchQuery"] as string, { query: "Bagel" })),
      ).toBeVisible();
      await expectTranslated(page, locale, "the payment history with no match");
      await page.getByRole("button", { name: t["reports.history.clear"] }).click();
      await expect(list.getByRole("listitem")).toHaveCount(2);
    });
  });
}
