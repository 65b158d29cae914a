import { baseURL } from "../playwright.config";
import { expect, test } from "./fixtures";
import { createMerchant, createPayment } from "./support/payments";

/**
 * Visual check (UI.md) of the social sign-in and managed-wallet screens at 390 px and 1280 px, light and dark.
 * Run with `SCREENSHOTS_DIR=/tmp/shots npx playwright test e2e/social-screenshots.spec.ts` and look at the files.
 */
const dir = process.env.SCREENSHOTS_DIR;
test.skip(!dir, "set SCREENSHOTS_DIR to take screenshots");
test.describe.configure({ timeout: 180_000 });

for (const width of [390, 1280]) {
  for (const theme of ["dark", "light"] as const) {
    test(`social screens at ${width} px, ${theme}`, async ({ page, playwright }) => {
      await page.setViewportSize({ width, height: width < 600 ? 844 : 800 });
      await page.addInitScript((t) => window.localStorage.setItem("cpxtb-pay-theme", t), theme);
      const shot = (name: string, fullPage = true) =>
        page.screenshot({ path: `${dir}/${name}-${width}-${theme}.png`, fullPage });
      const merchant = await playwright.request.newContext({ baseURL });
      await createMerchant(merchant);
      const payment = await createPayment(merchant, { currency: "CPXTB", amount: "7.5" });
      await merchant.dispose();

      await page.goto("/auth");
      await expect(page.getByRole("button", { name: "Continue with Apple" })).toBeVisible({
        timeout: 30_000,
      });
      await shot("auth-social");

      await page.goto(`/easy-payment?ref=${payment.reference}`);
      await expect(page.getByTestId("managed-wallet-sign-in")).toBeVisible({ timeout: 30_000 });
      await shot("easy-payment-signed-out");

      const started = await page.request.get("/api/social-auth/google?redirectUrl=%2F");
      const state = new URL(started.url()).searchParams.get("state")!;
      await page.goto(started.url());
      await shot("dev-sign-in-page", false);
      await page.request.get(
        `/api/social-auth/google/dev/authorize?state=${state}&name=Screen&email=screen-${width}-${theme}@example.test`,
      );
      await page.goto(`/easy-payment?ref=${payment.reference}`);
      await expect(page.getByTestId("managed-wallet")).toBeVisible({ timeout: 30_000 });
      await shot("easy-payment-wallet");
    });
  }
}
