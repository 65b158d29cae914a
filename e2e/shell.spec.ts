import type { Page } from "@playwright/test";
import { directionOf, type Locale } from "../common/src/locales";
import { expect, test } from "./fixtures";
import { catalogOf } from "./support/i18n";
import { createMerchant } from "./support/payments";

const APP = "CPXTB Pay";

// Spec section 2 routes, with the heading and document title each one shows to a signed-out visitor.
const ROUTES: { path: string; heading: string | RegExp; title: string }[] = [
  { path: "/", heading: /Get paid in crypto/, title: `Accept CPXTB payments · ${APP}` },
  { path: "/blog", heading: "Blog", title: `Blog · ${APP}` },
  { path: "/blog/some-article", heading: "Article not found", title: `Post not found · ${APP}` },
  { path: "/about", heading: "About CPXTB Pay", title: `About the platform · ${APP}` },
  { path: "/about-us", heading: "About Us", title: `About us · ${APP}` },
  { path: "/contact", heading: "Contact Us", title: `Contact Us · ${APP}` },
  { path: "/privacy-policy", heading: "Privacy Policy", title: `Privacy Policy · ${APP}` },
  { path: "/terms-of-service", heading: "Terms of Service", title: `Terms of Service · ${APP}` },
  { path: "/legal-documents", heading: "Legal Documents", title: `Legal Documents · ${APP}` },
  { path: "/auth", heading: "Sign in or create an account", title: `Sign in · ${APP}` },
  { path: "/forgot-password", heading: "Forgot your password?", title: `Forgot password · ${APP}` },
  { path: "/reset-password", heading: "Choose a new password", title: `Reset password · ${APP}` },
  { path: "/profile", heading: "My Profile", title: `My Profile · ${APP}` },
  { path: "/payment", heading: "Find a payment", title: `Find a payment · ${APP}` },
  { path: "/payment/AAAAAAAAAAAAAAAAAAAAAA", heading: "Payment status", title: `Payment status · ${APP}` },
  { path: "/easy-payment", heading: "Easy Payment", title: `Easy Payment · ${APP}` },
  { path: "/social-login-test", heading: "Social Login Test", title: `Social Login Test · ${APP}` },
  { path: "/pay/AAAAAAAAAAAAAAAAAAAAAA", heading: "CPXTB Pay", title: `Pay · ${APP}` },
  { path: "/buy-cpxtb", heading: "Buy CPXTB Tokens", title: `Buy CPXTB Tokens · ${APP}` },
  { path: "/reports", heading: "Reports & Analytics", title: `Reports & Analytics · ${APP}` },
  { path: "/payments", heading: "Payment History", title: `Payment History · ${APP}` },
  { path: "/webhooks", heading: "Webhooks", title: `Webhooks · ${APP}` },
  { path: "/developers", heading: "Developers", title: `Developers · ${APP}` },
  { path: "/audit-log", heading: "Audit log", title: `Audit log · ${APP}` },
  { path: "/settings", heading: "Settings", title: `Settings · ${APP}` },
  { path: "/presentation", heading: "Platform Presentation", title: `Platform Presentation · ${APP}` },
  { path: "/no/such/page", heading: "Page not found", title: `Page not found · ${APP}` },
];

const MAIN_LINKS = [
  ["/", "Home"],
  ["/merchant", "Merchant Dashboard"],
  ["/buy-cpxtb", "Buy CPXTB Tokens"],
  ["/payments", "Payment History"],
  ["/reports", "Reports & Analytics"],
  ["/webhooks", "Webhooks"],
  ["/developers", "Developers"],
  ["/audit-log", "Audit Log"],
  ["/settings", "Settings"],
  ["/blog", "Blog"],
  ["/contact", "Contact Us"],
  ["/presentation", "Platform Presentation"],
];
const LEGAL_LINKS = ["/about-us", "/privacy-policy", "/terms-of-service", "/legal-documents"];

const htmlClass = (page: Page) => page.evaluate(() => document.documentElement.className.trim());

async function openMenu(page: Page) {
  await page.getByRole("button", { name: "Open menu" }).click();
  const menu = page.getByRole("dialog");
  await expect(menu).toBeVisible();
  return menu;
}

test.describe("routes", () => {
  for (const route of ROUTES) {
    test(`${route.path} renders its screen`, async ({ page, consoleGuard }) => {
      // The server answers an unknown post or path with 404 (and the app's not-found state).
      if (route.path === "/blog/some-article" || route.path === "/no/such/page")
        consoleGuard.allow(/status of 404/);
      await page.goto(route.path);
      await expect(page.getByRole("heading", { level: 1, name: route.heading })).toBeVisible();
      await expect(page).toHaveTitle(route.title);
    });
  }

  test("/merchant sends a signed-out visitor to /auth", async ({ page }) => {
    await page.goto("/merchant");
    await expect(page).toHaveURL(/\/auth$/);
    await expect(page.getByRole("heading", { level: 1, name: "Sign in or create an account" })).toBeVisible();
  });

  for (const path of ["/payments", "/reports", "/webhooks", "/developers", "/audit-log", "/profile"]) {
    test(`${path} asks a signed-out visitor to sign in`, async ({ page }) => {
      await page.goto(path);
      const prompt = page.getByTestId("sign-in-prompt");
      await expect(prompt).toBeVisible();
      await prompt.getByRole("link", { name: "Sign in / Register" }).click();
      await expect(page).toHaveURL(/\/auth$/);
    });
  }

  test("the not-found page answers 404, names the path and leads home", async ({ page, consoleGuard }) => {
    consoleGuard.allow(/status of 404/);
    const response = await page.goto("/definitely-missing");
    expect(response?.status()).toBe(404);
    await expect(page.getByText("/definitely-missing")).toBeVisible();
    await page.getByRole("link", { name: "Back to home" }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test("/ preloads the merchant and buy pages and the backdrop in idle time", async ({ page }) => {
    const requested: string[] = [];
    page.on("request", (request) => requested.push(new URL(request.url()).pathname));
    await page.goto("/");
    // Idle time comes late on a loaded machine (CI runs two browsers beside the server and the chain).
    await expect
      .poll(
        () =>
          ["merchant-", "buy-cpxtb-", "backdrop.svg"].filter((part) =>
            requested.some((u) => u.includes(part)),
          ),
        { timeout: 15_000 },
      )
      .toHaveLength(3);
  });
});

test.describe("side menu", () => {
  test("has the spec's links, groups and labels in order", async ({ page }) => {
    await page.goto("/");
    const menu = await openMenu(page);

    const main = menu.getByRole("navigation", { name: "Main" }).getByRole("link");
    await expect(main).toHaveText(MAIN_LINKS.map(([, label]) => label as string));
    for (const [index, [href]] of MAIN_LINKS.entries())
      await expect(main.nth(index)).toHaveAttribute("href", href!);

    await expect(menu.locator("[data-menu-group] > h2")).toHaveText([
      "Legal & Information",
      "Appearance",
      "Account",
    ]);

    const legal = menu.getByRole("navigation", { name: "Legal & Information" }).getByRole("link");
    await expect(legal).toHaveCount(LEGAL_LINKS.length);
    for (const [index, href] of LEGAL_LINKS.entries())
      await expect(legal.nth(index)).toHaveAttribute("href", href);

    const appearance = menu.locator('[data-menu-group="menu-appearance"]').getByRole("button");
    await expect(appearance).toHaveText(["Light", "Dark"]);

    const account = menu.locator('[data-menu-group="menu-account"]');
    await expect(account.getByRole("link", { name: "Sign in / Register" })).toHaveAttribute("href", "/auth");
    await expect(account.getByText("Signed in as")).toHaveCount(0);
  });

  test("closes on navigation", async ({ page }) => {
    await page.goto("/");
    const menu = await openMenu(page);
    await menu.getByRole("link", { name: "Blog" }).click();
    await expect(page).toHaveURL(/\/blog$/);
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect(page.getByRole("heading", { level: 1, name: "Blog" })).toBeVisible();
  });

  test("closes with Escape and gives focus back to the menu button", async ({ page }) => {
    await page.goto("/about");
    await page.getByRole("button", { name: "Open menu" }).focus();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("dialog")).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Open menu" })).toBeFocused();
  });

  test("is 300 px wide on a 390 px phone", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/");
    const menu = await openMenu(page);
    await expect(menu).toHaveAttribute("data-state", "open");
    // Wait for the slide-in to finish before measuring.
    await expect.poll(async () => (await menu.boundingBox())?.x).toBe(0);
    const box = await menu.boundingBox();
    expect(box?.width).toBe(300);
  });
});

test.describe("theme", () => {
  test("is dark by default", async ({ page }) => {
    await page.goto("/");
    expect(await htmlClass(page)).toBe("dark");
    await expect(page.getByRole("button", { name: "Switch to light theme" })).toBeVisible();
  });

  test("the toggle switches and the choice survives a reload", async ({ page }) => {
    await page.goto("/");
    // A tap before hydration is held and replayed once the app is there (decision 017): wait for what it shows.
    await page.getByRole("button", { name: "Switch to light theme" }).click();
    await expect.poll(() => htmlClass(page)).toBe("light");
    await expect.poll(() => page.evaluate(() => localStorage.getItem("cpxtb-pay-theme"))).toBe("light");
    await page.reload();
    expect(await htmlClass(page)).toBe("light");
    await page.getByRole("button", { name: "Switch to dark theme" }).click();
    await expect.poll(() => htmlClass(page)).toBe("dark");
  });

  test("the menu's Light and Dark buttons apply and save the theme", async ({ page }) => {
    await page.goto("/");
    let menu = await openMenu(page);
    await menu.getByRole("button", { name: "Light" }).click();
    await expect.poll(() => htmlClass(page)).toBe("light");
    await expect(menu.getByRole("button", { name: "Light" })).toHaveAttribute("aria-pressed", "true");
    await page.reload();
    expect(await htmlClass(page)).toBe("light");
    menu = await openMenu(page);
    await menu.getByRole("button", { name: "Dark" }).click();
    await expect.poll(() => htmlClass(page)).toBe("dark");
  });

  test("system follows the OS preference, live", async ({ page }) => {
    await page.emulateMedia({ colorScheme: "light" });
    await page.goto("/");
    await page.evaluate(() => localStorage.setItem("cpxtb-pay-theme", "system"));
    await page.reload();
    expect(await htmlClass(page)).toBe("light");
    await page.emulateMedia({ colorScheme: "dark" });
    await expect.poll(() => htmlClass(page)).toBe("dark");
    await page.emulateMedia({ colorScheme: "light" });
    await expect.poll(() => htmlClass(page)).toBe("light");
  });

  test("an invalid stored value falls back to dark", async ({ page }) => {
    await page.goto("/");
    await page.evaluate(() => localStorage.setItem("cpxtb-pay-theme", "sepia"));
    await page.reload();
    expect(await htmlClass(page)).toBe("dark");
  });

  test("is applied before any app script runs (no flash)", async ({ page, consoleGuard }) => {
    consoleGuard.allow(/Failed to load resource/);
    // No app script ever runs: the stored theme is there before the page's first script, and every module is
    // refused (a page loaded first and then reloaded could still be fetching a lazy chunk when they start to be).
    await page.route("**/assets/*.js", (route) => route.abort());
    await page.addInitScript(() => localStorage.setItem("cpxtb-pay-theme", "light"));
    await page.goto("/");
    expect(await htmlClass(page)).toBe("light");
    await expect(page.locator('meta[name="theme-color"]')).toHaveAttribute("content", "#fbfbfe");
  });
});

test.describe("toasts", () => {
  const raise = (page: Page, title: string) =>
    page.evaluate((t) => window.__cpxtbToast?.({ title: t, description: `${t} details` }), title);

  test("a new toast replaces the previous one; Escape dismisses", async ({ page }) => {
    await page.goto("/");
    await expect.poll(() => page.evaluate(() => typeof window.__cpxtbToast)).toBe("function");
    await raise(page, "First notice");
    const region = page.getByRole("region", { name: /Notifications/ });
    await expect(region.getByText("First notice", { exact: true })).toBeVisible();
    await raise(page, "Second notice");
    await expect(region.getByText("Second notice", { exact: true })).toBeVisible();
    await expect(region.getByText("First notice", { exact: true })).toHaveCount(0);
    await expect(region.getByRole("listitem")).toHaveCount(1);

    await page.keyboard.press("F8");
    await expect(region.getByRole("list")).toBeFocused();
    await page.keyboard.press("Tab");
    await page.keyboard.press("Escape");
    await expect(region.getByText("Second notice", { exact: true })).toHaveCount(0);
  });
});

test.describe("error screen", () => {
  test("a render error shows the generic error screen, and Try again reloads", async ({
    page,
    consoleGuard,
  }) => {
    consoleGuard.allow(/__throw=render test hook/);
    await page.goto("/about?__throw=render");
    const alert = page.getByRole("alert");
    await expect(alert.getByRole("heading", { name: "Something went wrong" })).toBeVisible();
    await expect(alert.getByText("Render error requested by the __throw=render test hook")).toBeVisible();
    // The shell stays usable around the broken page.
    await expect(page.getByRole("button", { name: "Open menu" })).toBeVisible();
    const reloaded = page.waitForEvent("load");
    await alert.getByRole("button", { name: "Try again" }).click();
    await reloaded;
  });

  test("a page chunk that fails to load shows the error screen", async ({ page, consoleGuard }) => {
    consoleGuard.allow(
      /Failed to load resource|Failed to fetch dynamically imported module|error loading dynamically/i,
    );
    await page.route(/\/assets\/contact-[^/]*\.js$/, (route) => route.abort());
    await page.goto("/contact");
    await expect(page.getByRole("heading", { name: "Something went wrong" })).toBeVisible();
    // Said in words, not as the browser's message about a module.
    await expect(page.getByTestId("error-message")).toHaveText(
      "This page could not be loaded. Check your connection, then try again.",
    );
  });
});

/**
 * The error screen and the menu's sign-out toast in the frame's language (issue 37): German and Arabic, the error
 * screen with its own `lang` and `dir` (the page that set `<html lang>` is the one that failed).
 */
for (const locale of ["de", "ar"] as const satisfies readonly Locale[]) {
  test.describe(`error screen and sign-out in ${locale}`, () => {
    test.use({ locale, viewport: { width: 390, height: 844 } });
    const t = catalogOf(locale, ["shell", "site"]);

    test(`${locale}: a translated page's render error is said in the reader's words`, async ({
      page,
      consoleGuard,
    }) => {
      consoleGuard.allow(/__throw=render test hook/);
      await page.goto("/auth?__throw=render");
      const alert = page.getByRole("alert").filter({ has: page.getByRole("heading") });
      await expect(alert.getByRole("heading", { name: t["shell.errorTitle"] })).toBeVisible();
      await expect(alert).toHaveAttribute("lang", locale);
      await expect(alert).toHaveAttribute("dir", directionOf(locale));
      await expect(alert.getByRole("button", { name: t["site.error.tryAgain"] })).toBeVisible();
      await expect(page.getByRole("button", { name: t["shell.menu"] })).toBeVisible();
    });

    test(`${locale}: signing out from the menu says so in the reader's words`, async ({ page }) => {
      test.setTimeout(120_000);
      const merchant = catalogOf(locale, ["merchant"]);
      await createMerchant(page.request);
      await page.goto("/merchant");
      await expect(
        page.getByRole("heading", { level: 1, name: merchant["merchant.page.title"] }),
      ).toBeVisible({
        timeout: 60_000,
      });
      await page.getByRole("button", { name: t["shell.menu"] }).click();
      await page.getByTestId("side-menu").getByRole("button", { name: t["site.menu.signOut"] }).click();
      await expect(page.getByText(t["site.menu.signedOut"] as string, { exact: true })).toBeVisible();
      await expect(page.getByText(t["site.menu.signedOutText"] as string, { exact: true })).toBeVisible();
      await expect(page.getByText("Logout successful")).toHaveCount(0);
    });
  });
}
