import { expect, test } from "./fixtures";

/**
 * Visual check (UI.md): screenshots at 390 px and 1280 px, light and dark. Not an assertion suite; run with
 * `SCREENSHOTS_DIR=/tmp/shots npx playwright test e2e/screenshots.spec.ts` and look at the files.
 */
const dir = process.env.SCREENSHOTS_DIR;
test.skip(!dir, "set SCREENSHOTS_DIR to take screenshots");

for (const width of [390, 1280]) {
  for (const theme of ["dark", "light"] as const) {
    test(`screens at ${width} px, ${theme}`, async ({ page, consoleGuard }) => {
      await page.setViewportSize({ width, height: width < 600 ? 844 : 800 });
      await page.addInitScript((t) => window.localStorage.setItem("cpxtb-pay-theme", t), theme);
      const shot = (name: string, fullPage = false) =>
        page.screenshot({ path: `${dir}/${name}-${width}-${theme}.png`, fullPage });

      await page.goto("/");
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await expect(page.locator("[data-ready=true]")).toHaveCount(1);
      await shot("home", true);

      await page.getByRole("button", { name: "Open menu" }).click();
      await expect.poll(async () => (await page.getByRole("dialog").boundingBox())?.x).toBe(0);
      await shot("menu");
      await page.keyboard.press("Escape");

      // An unknown path is answered 404 (with the app's "not found" page), which Chromium logs.
      consoleGuard.allow(/status of 404 .*\/no-such-page\)$/);
      await page.goto("/no-such-page");
      await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
      await shot("not-found");

      await page.goto("/merchant");
      await expect(page).toHaveURL(/\/auth$/);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await shot("merchant-redirect");

      await page.goto("/payments");
      await expect(page.getByTestId("sign-in-prompt")).toBeVisible();
      await shot("payments");

      await page.goto("/buy-cpxtb");
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await shot("buy");

      await page.goto("/auth");
      await page.getByRole("tab", { name: "Register" }).click();
      await page.getByRole("button", { name: "Create account" }).click();
      await expect(page.getByText("Username must be at least 3 characters")).toBeVisible();
      await shot("auth-register-errors", true);

      await page.goto("/forgot-password");
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await shot("forgot-password");

      const username = `shots_${width}_${theme}_${Date.now().toString(36)}`;
      const created = await page.request.post("/api/register", {
        data: { username, password: "a long screenshot passphrase", email: `${username}@example.test` },
      });
      expect(created.status()).toBe(201);
      await page.goto("/profile");
      await expect(page.getByText("This device")).toBeVisible();
      await shot("profile", true);
    });
  }
}
