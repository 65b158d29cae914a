import type { Page } from "@playwright/test";
import { LOCALE_NAMES, type Locale, type MessageArea } from "../common/src/locales";
import { expect as baseExpect, test } from "./fixtures";
import { payFromSecondDevAccount } from "./support/dashboard";
import { catalogOf, expectTranslated as expectIn } from "./support/i18n";
import { createMerchant, createPayment } from "./support/payments";

/**
 * The merchant dashboard in its reader's language (issue 37): at a phone's width, in Arabic (right to left) and
 * German, a business set up, a payment request made with the form (its amount checked first), one paid on the
 * local chain, the business's edit form, and the paid payment's detail panel on the dashboard and on /payments,
 * where a hash that is in no block gets the server's refusal in the reader's words. No English word of the catalogs
 * in what the merchant reads, <html lang dir>, no sideways scroll, axe clean.
 */
const expect = baseExpect.configure({ timeout: 30_000 });
// The dashboard specs' payer account sends the transfer (they retry on a nonce clash): one test at a time.
test.describe.configure({ mode: "serial" });

const MERCHANT = "Corner Coffee";
const PAID = "Espresso";
const OPEN = "Croissant";
/** The words the dashboard shows: its own, the payment history's ("reports") and the checkout's statuses and errors. */
const AREAS: readonly MessageArea[] = ["merchant", "reports", "pay", "shell", "site"];
const ALLOWED = `${MERCHANT} ${PAID} ${OPEN} CPXTB USD owner@example.com`;
/** The whole page (its header and footer speak its language too, decision 038), or the open sheet, is checked. */
const expectTranslated = (page: Page, locale: Locale, where: string, root = "body", allowed = "") =>
  expectIn(page, locale, where, { areas: AREAS, allowed: `${ALLOWED} ${allowed}`, root });
const SHEET = '[role="dialog"]';

/** A message with its placeholders filled (the messages used here have no plural). */
const fill = (message: string, values: Record<string, string>) =>
  message.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? `{${name}}`);

for (const locale of ["ar", "de"] as const) {
  test.describe(`in ${LOCALE_NAMES[locale]}`, () => {
    test.use({ locale, viewport: { width: 390, height: 844 } });

    test(`${locale}: the dashboard, a new payment, the edit form and a paid payment's details`, async ({
      page,
      consoleGuard,
    }) => {
      test.setTimeout(240_000);
      const t = catalogOf(locale, AREAS);
      await createMerchant(page.request, { name: MERCHANT });
      const paid = await createPayment(page.request, { currency: "CPXTB", amount: "4.5", description: PAID });

      // The dashboard, rendered by the server in the reader's language and hydrated in it: its <title> too, the
      // server's the same as the page's after hydration (every title the document had is recorded: none English).
      const title = `${t["merchant.page.title"]} · CPXTB Pay`;
      const html = await (
        await page.request.get("/merchant", { headers: { "accept-language": locale } })
      ).text();
      expect(html).toContain(`<title>${title}</title>`);
      await page.addInitScript(() => {
        const seen: string[] = [];
        (window as unknown as { titles: string[] }).titles = seen;
        new MutationObserver(() => {
          if (document.title && seen.at(-1) !== document.title) seen.push(document.title);
        }).observe(document, { subtree: true, childList: true, characterData: true });
      });
      await page.goto("/merchant");
      await expect(page.getByRole("heading", { level: 1, name: t["merchant.page.title"] })).toBeVisible({
        timeout: 60_000,
      });
      await expect(page).toHaveTitle(title);
      await expect(page.getByTestId("detection-status")).toHaveText(
        t["merchant.detection.active"] as string,
        {
          timeout: 60_000,
        },
      );

      // A payment request: the amount is checked in the reader's words first, then the payment is made.
      await page.getByRole("button", { name: t["merchant.create.submit"] }).click();
      await expect(page.getByText(t["merchant.create.invalid.amountUsd"] as string)).toBeVisible();
      await page.getByLabel(t["merchant.create.amount"] as string, { exact: true }).fill("3.00");
      await expect(page.getByTestId("usd-preview")).toContainText("CPXTB");
      await page.getByLabel(t["merchant.create.description"] as string).fill(OPEN);
      await page.getByRole("button", { name: t["merchant.create.submit"] }).click();
      const created = page.getByTestId("new-payment");
      await expect(created).toBeFocused();
      await expect(created.getByTestId("new-payment-status")).toHaveText(t["pay.status.pending"] as string);
      await expect(created.getByRole("button", { name: t["merchant.created.detailsPoster"] })).toBeVisible();

      // The other payment is paid on the local chain: the dashboard hears it and says so.
      await payFromSecondDevAccount(page.request, paid.receivingAddress, BigInt(paid.amountDueBase));
      const notice = page.getByTestId("payment-notification");
      await expect(notice).toContainText(t["merchant.notification.received"] as string);
      await expect(notice).toContainText(fill(t["merchant.notification.whatPaid"] as string, { what: PAID }));
      await expectTranslated(page, locale, "the payment notification");
      await notice.getByRole("button", { name: t["merchant.notification.dismiss"] }).click();
      const list = page.getByTestId("recent-payments");
      const paidRow = list.locator(`[data-reference="${paid.reference}"]`);
      await expect(paidRow).toContainText(t["pay.status.completed"] as string);
      await expectTranslated(page, locale, "the dashboard");
      expect(await page.evaluate(() => (window as unknown as { titles: string[] }).titles)).toEqual([title]);
      await page.screenshot({ path: test.info().outputPath(`merchant-${locale}.png`), fullPage: true });
      // For the eye: a desktop's width (the list and the inbox side by side), then the light theme, in which the
      // rest is checked (the dark one was above).
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.screenshot({
        path: test.info().outputPath(`merchant-${locale}-desktop.png`),
        fullPage: true,
      });
      await page.setViewportSize({ width: 390, height: 844 });
      await page.evaluate(() => localStorage.setItem("cpxtb-pay-theme", "light"));
      await page.reload();
      await expect(paidRow).toContainText(t["pay.status.completed"] as string, { timeout: 60_000 });
      await expectTranslated(page, locale, "the dashboard in the light theme");
      await page.screenshot({ path: test.info().outputPath(`merchant-${locale}-light.png`), fullPage: true });

      // The business's edit form, in a sheet.
      await page.getByRole("button", { name: t["merchant.dashboard.editBusiness"] }).click();
      const edit = page.getByRole("dialog", { name: t["merchant.edit.title"] });
      await expect(edit.getByLabel(t["merchant.business.name"] as string)).toHaveValue(MERCHANT);
      // The payment page's language is picked from the languages by their own names ("English" among them).
      await expectTranslated(page, locale, "the edit form", SHEET, Object.values(LOCALE_NAMES).join(" "));
      await page.screenshot({ path: test.info().outputPath(`merchant-edit-${locale}.png`), fullPage: true });
      await edit.getByRole("button", { name: t["merchant.edit.cancel"], exact: true }).click();
      await expect(edit).toBeHidden();

      // The paid payment's details: amounts, the receipt's link, its transaction and timeline.
      await paidRow.getByRole("button").first().click();
      const detail = page.getByRole("dialog", { name: t["merchant.detail.title"] });
      await expect(detail.getByTestId("detail-status")).toHaveText(t["pay.status.completed"] as string);
      await expect(detail.getByTestId("detail-transfers")).toContainText(
        t["merchant.transfers.byAmount"] as string,
      );
      await expect(detail.getByTestId("detail-closed-link")).toHaveText(
        t["merchant.closed.paidText"] as string,
      );
      await expectTranslated(page, locale, "the payment's details", SHEET);
      await page.screenshot({
        path: test.info().outputPath(`merchant-detail-${locale}.png`),
        fullPage: true,
      });
      await detail.getByRole("button", { name: t["merchant.detail.close"] }).click();
      await expect(detail).toBeHidden();

      // The same panel on /payments (the history's page), no longer an English island: a hash in no block is
      // refused by the server, in the reader's words.
      await page.goto("/payments");
      await expect(
        page.getByRole("heading", { level: 1, name: t["reports.history.pageTitle"] }),
      ).toBeVisible();
      await page
        .getByTestId("recent-payments")
        .locator(`[data-reference="${paid.reference}"]`)
        .getByRole("button")
        .first()
        .click();
      const panel = page.getByRole("dialog", { name: t["merchant.detail.title"] });
      // The refused hash is the server's 404 (not in a block): expected, and said on the page.
      consoleGuard.allow(/status of 404 .*\/api\/merchant\/payments\/[^/]+\/tx/);
      await expect(panel).not.toHaveAttribute("lang", "en");
      await panel
        .getByRole("textbox", { name: t["merchant.common.transactionHash"] })
        .fill(`0x${"ab".repeat(32)}`);
      await panel.getByRole("button", { name: t["merchant.verify.submit"], exact: true }).click();
      await expect(panel.getByTestId("verify-error")).toHaveText(
        `${t["merchant.verify.notVerified"]} ${t["pay.error.txNotMined"]}`,
      );
      await expectTranslated(page, locale, "the payment's details on /payments with a refused hash", SHEET);
    });
  });
}
