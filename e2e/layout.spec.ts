import type { Cookie, Locator, Page } from "@playwright/test";
import { expect as baseExpect, test } from "./fixtures";

// Pages, sign-ins and the live channel on a loaded machine: more patience than the default 5 s.
const expect = baseExpect.configure({ timeout: 15_000 });

import { expectLive, payFromSecondDevAccount } from "./support/dashboard";
import { createMerchant, createPayment } from "./support/payments";

/**
 * Phone layout (issue 13): at 320 and 390 px nothing scrolls sideways on any route of the app (client/src/app/
 * router.tsx), signed in with real data (long descriptions, a paid payment), and the main dialogs, the header and
 * a long toast fit the screen.
 */
test.describe.configure({ timeout: 120_000 });

const LONG = "Catering for the Saturday wedding reception, three courses and dessert";

/** The document is no wider than the screen; the message names what sticks out. */
async function expectNoSidewaysScroll(page: Page, what: string) {
  const result = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const offenders = [...document.querySelectorAll("body *")]
      .filter((el) => {
        const r = el.getBoundingClientRect();
        return r.width > 0 && r.height > 0 && r.right > width + 1;
      })
      .slice(0, 5)
      .map(
        (el) =>
          `${el.tagName.toLowerCase()}.${(el.getAttribute("class") ?? "").slice(0, 60)}${el.getAttribute("aria-label") ? ` "${el.getAttribute("aria-label")}"` : ""} in ${el.parentElement?.tagName.toLowerCase()}.${(el.parentElement?.getAttribute("class") ?? "").slice(0, 60)} right=${Math.round(el.getBoundingClientRect().right)}`,
      );
    return { width, scrollWidth: document.scrollingElement?.scrollWidth ?? 0, offenders };
  });
  expect
    .soft(result.scrollWidth, `${what} scrolls sideways: ${result.offenders.join(" | ")}`)
    .toBeLessThanOrEqual(result.width);
}

/** A dialog, sheet or toast lies within the screen and does not scroll sideways inside. */
async function expectFits(page: Page, box: Locator, what: string) {
  const width = page.viewportSize()!.width;
  const rect = await box.boundingBox();
  expect(rect, what).not.toBeNull();
  expect(rect!.x, `${what} starts on screen`).toBeGreaterThanOrEqual(-0.5);
  expect(rect!.x + rect!.width, `${what} ends on screen`).toBeLessThanOrEqual(width + 0.5);
  const inner = await box.evaluate((el) => el.scrollWidth - el.clientWidth);
  expect(inner, `${what} scrolls sideways inside`).toBeLessThanOrEqual(0);
}

/** Every control of the header is fully on screen. */
async function expectHeaderFits(page: Page, what: string) {
  const width = page.viewportSize()!.width;
  const outside = await page
    .locator("header")
    .first()
    .evaluate(
      (header, w) =>
        [...header.querySelectorAll("button, a, output")]
          .filter((el) => {
            const r = el.getBoundingClientRect();
            return r.width > 0 && (r.left < -0.5 || r.right > w + 0.5);
          })
          .map((el) => el.textContent || el.getAttribute("aria-label")),
      width,
    );
  expect.soft(outside, `${what}: header controls off screen`).toEqual([]);
}

async function settle(page: Page) {
  await expect(page.locator("main h1").first()).toBeVisible({ timeout: 20_000 });
  // Skeletons and spinners gone: the page shows its data.
  await expect(page.locator('main [aria-busy="true"], main [data-slot="spinner"]')).toHaveCount(0, {
    timeout: 20_000,
  });
}

/** Waits until the sheet stopped sliding in. */
async function settled(dialog: Locator) {
  await expect(dialog).toBeVisible();
  await dialog.evaluate((el) => Promise.all(el.getAnimations().map((a) => a.finished)));
}

/** The data every test sees, made once per worker: a merchant with long texts, a paid and an open payment. */
let data: { cookies: Cookie[]; paid: string; open: string; slug: string } | null = null;

test.beforeAll(async ({ playwright }) => {
  const request = await playwright.request.newContext({ baseURL: test.info().project.use.baseURL });
  await createMerchant(request, {
    name: "The Corner Coffee House and Bakery of Little Harbour Street",
    description: LONG,
    website: "https://corner-coffee-house-and-bakery.example/menu/seasonal",
  });
  const paid = await createPayment(request, {
    currency: "USD",
    amount: "1.25",
    description: LONG,
    orderId: "ORD-2026-11-24-000000123456789",
  });
  const open = await createPayment(request, {
    currency: "CPXTB",
    amount: "250.5",
    description: "Two dozen almond croissants for the office breakfast meeting",
    orderId: "A-1041",
  });
  await payFromSecondDevAccount(request, paid.receivingAddress, BigInt(paid.amountDueBase));
  await expect
    .poll(async () => (await (await request.get(`/api/payments/public/${paid.reference}`)).json()).status)
    .toBe("completed");
  const { posts } = await (await request.get("/api/blog")).json();
  data = {
    cookies: (await request.storageState()).cookies,
    paid: paid.reference,
    open: open.reference,
    slug: posts[0].slug,
  };
  await request.dispose();
});

async function signedIn(page: Page, width: number) {
  await page.setViewportSize({ width, height: 740 });
  await page.context().addCookies(data!.cookies);
  return data!;
}

// Every route of client/src/app/router.tsx; {paid}, {open} and {slug} are filled in with the real data.
const ROUTES = [
  "/",
  "/blog",
  "/blog/{slug}",
  "/about",
  "/about-us",
  "/contact",
  "/privacy-policy",
  "/terms-of-service",
  "/legal-documents",
  "/auth",
  "/forgot-password",
  "/reset-password",
  "/profile",
  "/merchant",
  "/payment",
  "/payment/{paid}",
  "/easy-payment?ref={open}",
  "/social-login-test",
  "/pay/{open}",
  "/pay/{paid}",
  "/buy-cpxtb",
  "/reports",
  "/payments",
  "/webhooks",
  "/settings",
  "/presentation",
  "/no/such/page",
];

for (const width of [320, 390]) {
  test.describe(`at ${width} px, signed in`, () => {
    for (const route of ROUTES) {
      test(`${route} does not scroll sideways`, async ({ page, consoleGuard }) => {
        // An unknown path is answered 404 (with the app's "not found" page), which Chromium logs.
        if (route === "/no/such/page") consoleGuard.allow(/status of 404 .*\/no\/such\/page\)$/);
        const d = await signedIn(page, width);
        const path = route.replace("{paid}", d.paid).replace("{open}", d.open).replace("{slug}", d.slug);
        await page.goto(path);
        await settle(page);
        await expectNoSidewaysScroll(page, path);
        await expectHeaderFits(page, path);
      });
    }

    test("the dashboard's dialogs, a toast and the payment news fit", async ({ page }) => {
      await signedIn(page, width);
      await page.goto("/merchant");
      await settle(page);
      await expect(page.getByTestId("recent-payments")).toContainText("almond croissants");

      await page.getByRole("button", { name: "Open menu" }).click();
      const menu = page.getByRole("dialog");
      await settled(menu);
      await expectFits(page, menu, "side menu");
      await page.keyboard.press("Escape");
      await expect(menu).toBeHidden();

      await page.getByRole("button", { name: "Edit business" }).click();
      const edit = page.getByRole("dialog", { name: "Edit business" });
      await settled(edit);
      await expectFits(page, edit, "Edit business");
      await expect(edit.getByRole("button", { name: "Close without saving" })).toBeInViewport({ ratio: 1 });
      await page.keyboard.press("Escape");
      await expect(edit).toBeHidden();

      await page
        .getByTestId("recent-payments")
        .getByRole("button", { name: /Catering/ })
        .click();
      const detail = page.getByRole("dialog", { name: "Payment details" });
      await settled(detail);
      await expect(detail.getByTestId("detail-status")).toHaveText("Paid");
      await expectFits(page, detail, "Payment details");
      await expect(detail.getByRole("button", { name: "Close payment details" })).toBeInViewport({
        ratio: 1,
      });
      await page.keyboard.press("Escape");
      await expect(detail).toBeHidden();

      await page.evaluate(
        (text) => window.__cpxtbToast?.({ title: "Payment link copied", description: text }),
        LONG,
      );
      const toast = page.getByRole("region", { name: /Notifications/ }).getByRole("listitem");
      await expect(toast).toBeVisible();
      await expectFits(page, toast, "toast");
      await expectNoSidewaysScroll(page, "/merchant with a toast");

      await expectLive(page);
      const news = await createPayment(page.request, {
        currency: "CPXTB",
        amount: "3.5",
        description: "A slice of lemon drizzle cake with whipped cream",
      });
      await payFromSecondDevAccount(page.request, news.receivingAddress, BigInt(news.amountDueBase));
      const notice = page.getByRole("alertdialog", { name: "Payment received" });
      await expect(notice).toBeVisible();
      await expectFits(page, notice, "Payment received");
      await expectNoSidewaysScroll(page, "/merchant with Payment received");
    });
  });
}
