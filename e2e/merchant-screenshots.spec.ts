import { expect, test } from "./fixtures";
import { createMerchant, createPayment, payFromDevAccount } from "./support/payments";

/**
 * Visual check of the merchant dashboard (UI.md): history, payment detail, edit form and a branded pay page at
 * 390 px and 1280 px, light and dark. Not an assertion suite; run with
 * `SCREENSHOTS_DIR=/tmp/shots npx playwright test e2e/merchant-screenshots.spec.ts` and look at the files.
 */
const dir = process.env.SCREENSHOTS_DIR;
test.skip(!dir, "set SCREENSHOTS_DIR to take screenshots");
// One payer account sends the transfers: one test at a time.
test.describe.configure({ mode: "serial" });

for (const width of [390, 1280]) {
  for (const theme of ["dark", "light"] as const) {
    test(`merchant screens at ${width} px, ${theme}`, async ({ page }) => {
      await page.setViewportSize({ width, height: width < 600 ? 844 : 800 });
      await page.addInitScript((t) => window.localStorage.setItem("cpxtb-pay-theme", t), theme);
      const shot = (name: string, fullPage = false) =>
        page.screenshot({ path: `${dir}/${name}-${width}-${theme}.png`, fullPage });
      // A sheet slides in: take it once it stands still.
      const settled = (dialog: ReturnType<typeof page.getByRole>) =>
        dialog.evaluate((el) => Promise.all(el.getAnimations().map((a) => a.finished)));

      await createMerchant(page.request, { brandColor: "#0f766e", description: "Coffee and cake" });
      const latte = await createPayment(page.request, {
        currency: "USD",
        amount: "4.50",
        description: "Oat latte",
        orderId: "A-1041",
      });
      await createPayment(page.request, { currency: "CPXTB", amount: "120", description: "Carrot cake" });
      await createPayment(page.request, { currency: "USD", amount: "12.00", orderId: "A-1043" });
      await payFromDevAccount(page.request, latte.receivingAddress, BigInt(latte.amountDueBase));
      await expect
        .poll(
          async () =>
            (await (await page.request.get(`/api/payments/public/${latte.reference}`)).json()).status,
        )
        .toBe("completed");

      await page.goto("/merchant");
      await expect(page.getByTestId("recent-payments").locator("li")).toHaveCount(3);
      await shot("merchant-dashboard", true);

      await page.getByRole("button", { name: /Oat latte/ }).click();
      const detail = page.getByRole("dialog", { name: "Payment details" });
      await expect(detail.getByTestId("detail-status")).toHaveText("Paid");
      await settled(detail);
      await shot("merchant-payment-detail");
      await detail.evaluate((el) => el.scrollTo(0, el.scrollHeight));
      await shot("merchant-payment-detail-end");
      await page.keyboard.press("Escape");

      await page.getByLabel("Search payments").fill("zzz");
      await expect(page.getByText("No payment matches")).toBeVisible();
      await shot("merchant-history-empty");
      await page.getByLabel("Search payments").fill("");

      await page.getByRole("button", { name: "Edit business" }).click();
      await expect(page.getByRole("dialog", { name: "Edit business" })).toBeVisible();
      await settled(page.getByRole("dialog", { name: "Edit business" }));
      await shot("merchant-edit");
      await page.keyboard.press("Escape");

      const open = await createPayment(page.request, {
        currency: "CPXTB",
        amount: "8",
        description: "Scone",
      });
      await page.goto(`/pay/${open.reference}`);
      await expect(page.getByTestId("pay-with-wallet")).toBeVisible();
      await shot("pay-branded");
    });
  }
}
