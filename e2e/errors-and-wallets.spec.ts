import type { Page } from "@playwright/test";
import { expect, test, toast } from "./fixtures";
import { expectContrast } from "./support/contrast";
import { createMerchant, PASSWORD } from "./support/payments";

test.describe.configure({ timeout: 180_000 });

async function setTheme(page: Page, theme: "dark" | "light") {
  await page.evaluate((t) => window.localStorage.setItem("cpxtb-pay-theme", t), theme);
}

/**
 * Every screen whose form shows errors, with its errors shown, in both themes: the inline error text (once 3.23:1
 * in the dark theme) and everything around it reach WCAG AA. The route-by-route axe run
 * (accessibility.spec.ts) covers the screens at rest.
 */
for (const theme of ["dark", "light"] as const) {
  test(`error states reach AA contrast (${theme})`, async ({ page }) => {
    await page.goto("/");
    await setTheme(page, theme);

    // Sign in: the wrong password, at the form and in the toast.
    await page.goto("/auth");
    const login = page.getByRole("form", { name: "Sign in" });
    await login.getByLabel("Username or email").fill(`nobody_${Date.now().toString(36)}`);
    await login.getByLabel("Password").fill("not the right password");
    await login.getByRole("button", { name: "Sign in" }).click();
    await expect(login.getByRole("alert")).toHaveText("Incorrect username or password.");
    await expect(toast(page, "Login failed")).toBeVisible();
    await expectContrast(page, `/auth sign-in error (${theme})`);

    // Register: every field wrong.
    await page.getByRole("tab", { name: "Register" }).click();
    const register = page.getByRole("form", { name: "Register" });
    await register.getByLabel("Username").fill("a b");
    await register.getByLabel("Password", { exact: true }).fill("short");
    await register.getByLabel("Confirm password").fill("different");
    await register.getByRole("button", { name: "Create account" }).click();
    await expect(register.getByText("The passwords do not match.")).toBeVisible();
    await expectContrast(page, `/auth register errors (${theme})`);

    // Contact: sent empty.
    await page.goto("/contact");
    await page.getByRole("button", { name: "Send message" }).click();
    await expect(page.getByText("Name is required.")).toBeVisible();
    await expectContrast(page, `/contact errors (${theme})`);

    // Forgot password: not an email.
    await page.goto("/forgot-password");
    await page.getByLabel(/Email/).fill("not an email");
    await page.getByRole("button", { name: "Send reset link" }).click();
    await expect(page.getByText("Enter a valid email address.")).toBeVisible();
    await expectContrast(page, `/forgot-password error (${theme})`);

    // Register the business: sent empty (signed in, no business yet).
    const username = `err_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
    expect((await page.request.post("/api/register", { data: { username, password: PASSWORD } })).ok()).toBe(
      true,
    );
    await page.goto("/merchant");
    await page.getByRole("button", { name: "Sign with wallet and register" }).click();
    await expect(page.getByText("The business name needs 2 to 100 characters.")).toBeVisible();
    await expectContrast(page, `/merchant registration errors (${theme})`);

    // A reset link that does not exist.
    await page.goto(`/reset-password?token=${"A".repeat(43)}`);
    await expect(page.getByText("This reset link cannot be used")).toBeVisible();
    await expectContrast(page, `/reset-password unknown link (${theme})`);

    // A payment page for a reference no payment has.
    await page.goto(`/pay/${"A".repeat(22)}`);
    await expect(page.getByText("Payment not found")).toBeVisible();
    await expectContrast(page, `/pay unknown reference (${theme})`);
  });

  test(`the business's forms show their errors at AA contrast (${theme})`, async ({ page }) => {
    await page.goto("/");
    await setTheme(page, theme);
    await createMerchant(page.request);

    // New payment: sent empty.
    await page.goto("/merchant");
    await page.getByRole("button", { name: "Create payment" }).click();
    await expect(page.getByText("Enter an amount in USD with at most 2 decimals, like 12.50.")).toBeVisible();
    await expectContrast(page, `/merchant new payment error (${theme})`);

    // A key without a name.
    await page.goto("/developers");
    await page.getByRole("button", { name: "Create key" }).click();
    await expect(page.getByText("Give the key a name.")).toBeVisible();
    await expectContrast(page, `/developers key error (${theme})`);

    // An endpoint without a URL.
    await page.goto("/webhooks");
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await expect(page.getByText("Enter the URL.")).toBeVisible();
    await expectContrast(page, `/webhooks endpoint error (${theme})`);
  });
}

for (const width of [390, 1280]) {
  test(`/profile explains the two kinds of wallet (${width} px)`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    const { address } = await createMerchant(page.request, { name: "Corner Coffee" });
    await page.goto("/profile");
    const ideas = page.getByRole("region", { name: "Two kinds of wallet" });
    await expect(ideas).toContainText("Your business’s receiving wallet");
    await expect(ideas).toContainText("proven yours by a signature");
    const receiving = ideas.getByTestId("receiving-wallet");
    await expect(receiving).toContainText("Corner Coffee:");
    await expect(receiving).toContainText(`${address.slice(0, 6)}…${address.slice(-4)}`);
    await expect(receiving).toContainText("proven");
    await expect(ideas).toContainText("Wallets linked for sign-in");
    // It comes before the linked wallets it explains.
    const section = page.getByRole("heading", { name: "Wallets linked for sign-in", exact: true });
    await expect(section).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    for (const theme of ["dark", "light"] as const) {
      await setTheme(page, theme);
      await page.reload();
      await expect(ideas).toBeVisible();
      await ideas.scrollIntoViewIfNeeded();
      await page.screenshot({ path: test.info().outputPath(`profile-wallets-${width}-${theme}.png`) });
    }
  });
}
