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

/** The stored social-login user's states (spec sections 4 and 8; PRODUCT.md decision 3) on a phone. */
const storedUsers = {
  account: {
    userInfo: { name: "Ada Lovelace", email: "ada@example.com", provider: "google" },
    walletAddress: "0x1111111111111111111111111111111111111111",
    balance: "42.5",
    mode: "account",
  },
  demo: {
    userInfo: { name: "Demo user", email: "", provider: "facebook" },
    walletAddress: "0x2222222222222222222222222222222222222222",
    balance: "500.0",
    mode: "demo",
  },
  emergency: {
    userInfo: { name: "Emergency user", email: "", provider: "apple" },
    walletAddress: "",
    balance: "0",
    mode: "emergency",
  },
};
for (const theme of ["dark", "light"] as const) {
  test(`stored social user states at 390 px, ${theme}`, async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.addInitScript((t) => window.localStorage.setItem("cpxtb-pay-theme", t), theme);
    for (const [name, record] of Object.entries(storedUsers)) {
      await page.goto("/auth");
      await page.evaluate(
        (value) => window.localStorage.setItem("cpxtb_social_user", value),
        JSON.stringify(record),
      );
      await page.reload();
      await expect(page.getByTestId("social-account")).toBeVisible({ timeout: 30_000 });
      await page.screenshot({ path: `${dir}/social-user-${name}-390-${theme}.png`, fullPage: true });
      if (name === "demo") {
        await page.goto("/buy-cpxtb");
        await expect(page.getByTestId("demo-mode-notice")).toBeVisible({ timeout: 30_000 });
        await page.screenshot({ path: `${dir}/buy-demo-390-${theme}.png`, fullPage: true });
      }
    }
    await page.evaluate(() => window.localStorage.removeItem("cpxtb_social_user"));
    await page.goto("/auth?useBasicLogin=true");
    const opened = page.waitForEvent("popup");
    await page.getByRole("button", { name: "Continue with X" }).click({ timeout: 30_000 });
    const popup = await opened;
    await expect(page.getByText("Finish signing in with X in the window that opened.")).toBeVisible();
    await page.screenshot({ path: `${dir}/basic-login-waiting-390-${theme}.png`, fullPage: true });
    await popup.close();
  });
}
