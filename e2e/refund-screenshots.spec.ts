import { expect, test } from "./fixtures";
import { openDashboard } from "./support/dashboard";
import { overpaidPayment } from "./support/refunds";

/**
 * Visual check of refunds (UI.md): the detail sheet's refund form and result, a refund link page and the payer's
 * refunded pay page at 390 px and 1280 px, light and dark. Not an assertion suite; run with
 * `SCREENSHOTS_DIR=/tmp/shots npx playwright test e2e/refund-screenshots.spec.ts` and look at the files.
 */
const dir = process.env.SCREENSHOTS_DIR;
test.skip(!dir, "set SCREENSHOTS_DIR to take screenshots");
test.describe.configure({ mode: "serial", timeout: 180_000 });

for (const width of [390, 1280]) {
  for (const theme of ["dark", "light"] as const) {
    test(`refund screens at ${width} px, ${theme}`, async ({ page }) => {
      await page.setViewportSize({ width, height: width < 600 ? 844 : 800 });
      await page.addInitScript((t) => window.localStorage.setItem("cpxtb-pay-theme", t), theme);
      const shot = (name: string, fullPage = false) =>
        page.screenshot({ path: `${dir}/${name}-${width}-${theme}.png`, fullPage });
      const { payment } = await overpaidPayment(page, {
        amount: "12.5",
        excess: "1.25",
        description: "Flat white and croissant",
      });
      await openDashboard(page);
      await page.getByRole("button", { name: /Flat white and croissant/ }).click();
      const detail = page.getByRole("dialog", { name: "Payment details" });
      const refunds = detail.getByRole("region", { name: "Refunds" });
      await expect(refunds.getByLabel("Amount to refund (CPXTB)")).toHaveValue("1.25");
      await detail.evaluate((el) => Promise.all(el.getAnimations().map((a) => a.finished)));
      await refunds.scrollIntoViewIfNeeded();
      await shot("refund-form");
      await refunds.getByRole("button", { name: "Send refund from wallet" }).click();
      await expect(refunds.getByRole("status")).toHaveText(/verified on chain and recorded/, {
        timeout: 60_000,
      });
      await refunds.getByRole("button", { name: "Create a refund link" }).click();
      const created = refunds.getByTestId("refund-link-created");
      await expect(created).toBeVisible();
      await refunds.scrollIntoViewIfNeeded();
      await shot("refund-done");
      const url = (await created.locator(".font-mono").textContent())!.trim();
      await page.keyboard.press("Escape");
      await expect(detail).toBeHidden();
      await expect(page.getByRole("button", { name: /Flat white and croissant/ })).toContainText(
        "Partially refunded",
      );
      await shot("refund-history");

      await page.goto(new URL(url).pathname);
      await expect(page.getByRole("heading", { name: "Refund address" })).toBeVisible();
      await expect(page.getByTestId("refund-merchant")).toHaveText("Corner Coffee");
      await shot("refund-link-page");

      await page.goto(`/pay/${payment.reference}`);
      await expect(page.getByTestId("pay-refunds")).toBeVisible();
      await shot("pay-refunded", true);
    });
  }
}
