import { copyFile, mkdir, readFile } from "node:fs/promises";
import type { Page } from "@playwright/test";
import { PDFDocument } from "pdf-lib";
import { expect as baseExpect, test } from "./fixtures";
import { openDashboard, payFromSecondDevAccount } from "./support/dashboard";
import { createMerchant, createPayment } from "./support/payments";

// Sign-ins, chain transfers and the indexer: more patience than the default on a loaded machine.
const expect = baseExpect.configure({ timeout: 20_000 });

// One payer account sends the transfers of this file: one test at a time.
test.describe.configure({ mode: "serial", timeout: 120_000 });

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

async function publicView(page: Page, reference: string) {
  return (await page.request.get(`/api/payments/public/${reference}`)).json();
}

async function shot(page: Page, name: string) {
  await page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });
}

for (const viewport of [PHONE, DESKTOP]) {
  test(`New payment at ${viewport.width} px: USD previews its CPXTB, extra fields fold on a phone, the form resets, Payment received says USD and order`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    // Signed in by the request context the page shares its cookies with.
    await createMerchant(page.request);
    await openDashboard(page);

    const phone = viewport.width < 640;
    const more = page.getByRole("button", { name: "More options" });
    const successUrl = page.getByLabel("Success URL (optional)");
    if (phone) {
      await expect(successUrl).toBeHidden();
      await expect(page.getByLabel("Payer email (optional)")).toBeHidden();
      await expect(more).toHaveAttribute("aria-expanded", "false");
      await more.click();
      await expect(successUrl).toBeVisible();
      await expect(page.getByLabel("Expires after (minutes)")).toHaveValue("15");
    } else {
      await expect(more).toBeHidden();
      await expect(successUrl).toBeVisible();
    }

    const price = await (await page.request.get("/api/price")).json();
    await page.getByLabel("Amount").fill("12.50");
    const preview = page.getByTestId("usd-preview");
    await expect(preview).toContainText(/≈ [\d,]+(\.\d+)? CPXTB/);
    await expect(preview).toContainText(`at ${price.usdPerToken} USD per CPXTB`);
    await expect(preview).toContainText("The rate is locked when you create the payment.");
    // CPXTB needs no conversion: no preview.
    await page.getByLabel("Currency").selectOption("CPXTB");
    await expect(preview).toBeHidden();
    await page.getByLabel("Currency").selectOption("USD");
    await expect(preview).toBeVisible();
    const previewed = (await preview.textContent())?.match(/≈ ([\d,]+(?:\.\d+)?) CPXTB/)?.[1];

    const orderId = `A-${Date.now().toString(36)}`;
    await page.getByLabel("Description (optional)").fill("Table 4");
    await page.getByLabel("Order id (optional)").fill(orderId);
    if (phone) await shot(page, `new-payment-${viewport.width}-filled`);
    await page.getByRole("button", { name: "Create payment" }).click();
    const card = page.getByTestId("new-payment");
    await expect(card).toBeVisible();
    await expect(card).toContainText("$12.50 USD");
    // What was previewed is what was made, before the tag's millionths.
    const made =
      (await card
        .getByText(/CPXTB$/)
        .first()
        .textContent()) ?? "";
    expect(made.startsWith(previewed ?? "none")).toBe(true);

    // The next sale starts from a clean form: the order id is not carried over.
    await expect(page.getByLabel("Amount")).toHaveValue("");
    await expect(page.getByLabel("Order id (optional)")).toHaveValue("");
    await expect(page.getByLabel("Description (optional)")).toHaveValue("");
    await expect(page.getByLabel("Currency")).toHaveValue("USD");
    await expect(preview).toBeHidden();
    if (phone) await expect(successUrl).toBeHidden();

    const link = (await card.getByRole("link").first().getAttribute("href")) ?? "";
    const reference = link.split("/pay/")[1]!;
    const view = await publicView(page, reference);
    await payFromSecondDevAccount(page.request, view.receivingAddress, BigInt(view.amountDueBase));
    const notice = page.getByRole("alertdialog", { name: "Payment received" });
    await expect(notice).toBeVisible();
    await expect(notice.getByTestId("notification-usd")).toHaveText("$12.50 USD");
    await expect(notice.getByTestId("notification-order")).toHaveText(`Order ${orderId}`);
    await shot(page, `payment-received-${viewport.width}`);
  });
}

for (const viewport of [PHONE, DESKTOP]) {
  test(`the pay page at ${viewport.width} px: order id, USD of a CPXTB amount, clock countdown, what remains of a partial, two columns on a desktop, receipt`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    await createMerchant(page.request);
    const orderId = `ORD-${Date.now().toString(36)}`;
    const payment = await createPayment(page.request, {
      currency: "CPXTB",
      amount: "40",
      description: "Hand-thrown bowl, blue glaze",
      orderId,
    });
    await page.goto(`/pay/${payment.reference}`);
    await expect(page.getByTestId("amount-due")).toBeVisible();
    await expect(page.getByTestId("order-id")).toHaveText(orderId);
    await expect(page.getByText("Hand-thrown bowl, blue glaze")).toBeInViewport();
    // A CPXTB amount has no locked rate: its value at today's price.
    await expect(page.getByTestId("current-usd")).toHaveText(/^≈ \$[\d,]+\.\d\d USD at today's rate$/);
    // The running countdown has a clock, not the crossed-out timer of "expired".
    await expect(page.getByTestId("countdown").locator("svg.lucide-clock")).toHaveCount(1);
    await expect(page.getByTestId("countdown").locator("svg.lucide-timer-off")).toHaveCount(0);
    await expect(page.getByText("Secure Payment Processing")).toHaveCount(0);

    const summary = (await page.getByTestId("pay-summary").boundingBox())!;
    const means = (await page.getByTestId("pay-means").boundingBox())!;
    if (viewport.width >= 1024) {
      // What and whom beside how to pay.
      expect(means.x).toBeGreaterThan(summary.x + summary.width - 1);
      expect(Math.abs(means.y - summary.y)).toBeLessThan(4);
      await expect(page.getByRole("img", { name: /QR code to pay/ })).toBeInViewport();
    } else {
      expect(means.y).toBeGreaterThan(summary.y + summary.height - 1);
      await expect(page.getByRole("img", { name: /QR code to pay/ })).toBeInViewport();
    }
    await shot(page, `pay-open-${viewport.width}`);
    // And in the light theme (dark is the default).
    await page.evaluate(() => window.localStorage.setItem("cpxtb-pay-theme", "light"));
    await page.reload();
    await expect(page.getByTestId("order-id")).toHaveText(orderId);
    await shot(page, `pay-open-${viewport.width}-light`);

    // A part arrives: the headline asks for what remains.
    const half = BigInt(payment.amountDueBase) / 2n;
    const partHash = await payFromSecondDevAccount(page.request, payment.receivingAddress, half);
    // An amount without the payment's tag is credited when the payer names its transaction.
    await page.getByText("Already paid? Paste the transaction hash").click();
    await page.getByLabel("Transaction hash").fill(partHash);
    await page.getByRole("button", { name: "Check transaction" }).click();
    await expect(page.getByTestId("payment-status")).toHaveText("Partly paid");
    // The part was unmatched until its hash was given: no notice of it stays once it counts.
    await expect(page.getByTestId("unmatched-transfer")).toHaveCount(0);
    const partial = await publicView(page, payment.reference);
    const remaining = partial.amountToPay.replace(/0+$/, "").replace(/\.$/, "");
    await expect(page.getByText("Left to pay")).toBeVisible();
    await expect(page.getByTestId("amount-due")).toHaveText(`${remaining} CPXTB`);
    await shot(page, `pay-partial-${viewport.width}`);

    await payFromSecondDevAccount(page.request, payment.receivingAddress, BigInt(partial.amountToPayBase));
    await expect(page.getByRole("heading", { name: "Payment Successful" })).toBeVisible();
    await expect(page.getByTestId("order-id")).toContainText(orderId);
    const paid = await publicView(page, payment.reference);
    if (paid.amountReceivedUsd) await expect(page.getByText(/^Worth \$[\d,]+\.\d\d USD/)).toBeVisible();
    await shot(page, `pay-paid-${viewport.width}`);

    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: "Download receipt (PDF)" }).click();
    const file = await (await download).path();
    const doc = await PDFDocument.load(await readFile(file));
    expect(doc.getSubject()).toBe(`CPXTB payment ${payment.reference}`);
    // Kept beside the screenshots, to be rendered and looked at (pdftoppm).
    await mkdir(test.info().outputDir, { recursive: true });
    await copyFile(file, test.info().outputPath(`receipt-${viewport.width}.pdf`));

    // The receipt page names the order too.
    await page.goto(`/payment/${payment.reference}`);
    await expect(page.getByTestId("order-id")).toHaveText(orderId);
  });
}

for (const viewport of [PHONE, DESKTOP]) {
  test(`an unmatched transfer at ${viewport.width} px: the open pay page mentions its amount only; the dashboard proposes the nearest payment or dismisses it`, async ({
    page,
    context,
  }) => {
    await page.setViewportSize(viewport);
    const merchant = await createMerchant(page.request, { toleranceBps: 0 });
    const near = await createPayment(page.request, { currency: "CPXTB", amount: "10", description: "Near" });
    await createPayment(page.request, { currency: "CPXTB", amount: "50", description: "Far" });
    await page.goto(`/pay/${near.reference}`);
    await expect(page.getByTestId("amount-due")).toBeVisible();
    await expect(page.getByTestId("countdown")).toBeVisible();

    // Fractions of the tag's digits apart from anything asked: it matches no payment.
    const wrong = 9_000_285n * 10n ** 12n;
    const hash = await payFromSecondDevAccount(page.request, merchant.address, wrong);
    const notice = page.getByTestId("unmatched-transfer");
    await expect(notice).toHaveText(
      /We saw a transfer of 9\.000285 CPXTB that does not match this payment\. If it was yours, paste its transaction hash\./,
    );
    // Never whose it was.
    await expect(notice).not.toContainText("0x");
    await expect(page.getByTestId("payment-status")).toHaveText("Awaiting payment");
    await notice.getByRole("button", { name: "Paste the transaction hash" }).click();
    await expect(page.getByLabel("Transaction hash")).toBeFocused();
    await shot(page, `pay-unmatched-${viewport.width}`);

    const dashboard = await context.newPage();
    await dashboard.setViewportSize(viewport);
    await openDashboard(dashboard);
    const item = dashboard.getByTestId("inbox-transfer").filter({ hasText: "9.000285 CPXTB" });
    await expect(item).toBeVisible();
    const options = item
      .getByRole("combobox", { name: "Payment to assign this transfer to" })
      .locator("option");
    await expect(options.first()).toHaveText(/^10\.\d+ · Near$/);
    await expect(options.nth(1)).toHaveText(/^50\.\d+ · Far$/);
    await item.scrollIntoViewIfNeeded();
    await shot(dashboard, `inbox-${viewport.width}`);
    await item.getByRole("button", { name: "Not a payment" }).click();
    await expect(item).toHaveCount(0);
    expect(typeof hash).toBe("string");
    await dashboard.close();
  });
}
