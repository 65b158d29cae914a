import AxeBuilder from "@axe-core/playwright";
import type { APIRequestContext, Page } from "@playwright/test";
import { CLIENT_ROUTES } from "../common/src/client-routes";
import { expect, test } from "./fixtures";
import { expectContrast } from "./support/contrast";
import {
  BROWSER_PAYER_KEY,
  createMerchant,
  createPayment,
  installWallet,
  type Payment,
  payFromDevAccount,
} from "./support/payments";

/**
 * axe-core over every route of the client's route table (signed out and signed in, with real data) and the main
 * dialogs: no serious or critical violation, in the dark and the light theme. The report names each rule and the
 * first elements that break it.
 */
const SERIOUS = new Set(["serious", "critical"]);

async function expectAccessible(page: Page, where: string) {
  const results = await new AxeBuilder({ page }).analyze();
  const problems = results.violations
    .filter((v) => SERIOUS.has(v.impact ?? ""))
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} -> ${v.nodes
          .slice(0, 4)
          .map((n) => n.target.join(" "))
          .join(" | ")}`,
    );
  expect(problems, `axe on ${where}`).toEqual([]);
}

async function setTheme(page: Page, theme: "dark" | "light") {
  await page.evaluate((t) => window.localStorage.setItem("cpxtb-pay-theme", t), theme);
}

/** The page has shown its content: a main heading, no loading placeholder left. */
async function settled(page: Page) {
  // Generous: on a loaded machine a lazy page can take a while to arrive.
  await expect(page.locator("main h1").first()).toBeVisible({ timeout: 20_000 });
  await expect(page.locator("main [aria-busy=true]")).toHaveCount(0, { timeout: 20_000 });
  // Animations finish (a fading element's contrast is not its final one).
  await page.evaluate(() =>
    Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))),
  );
}

/** The page at `path` in `themes` (axe is slow: each analysis takes seconds on a busy machine). */
async function checkPage(
  page: Page,
  path: string,
  themes: readonly ("dark" | "light")[] = ["dark", "light"],
) {
  for (const theme of themes) {
    await setTheme(page, theme);
    await page.goto(path);
    await settled(page);
    await expectAccessible(page, `${path} (${theme})`);
  }
}

/** Every route with its parameters filled in: a post, a payment, an unknown order, and an unknown path. */
async function concretePaths(request: APIRequestContext, payment: Payment): Promise<string[]> {
  const { posts } = await (await request.get("/api/blog")).json();
  const slug = posts[0].slug as string;
  return [
    ...CLIENT_ROUTES.map((route) =>
      route
        .replace(":slug", slug)
        .replace(":reference", payment.reference)
        .replace(":paymentReference", payment.reference)
        // A well-formed order id that no order has: the page's "Order not found" state (the API answers 404).
        .replace(":id", `ord_${"0".repeat(26)}`)
        // A well-formed refund link that does not exist: the page's "Refund link not found" state (404).
        .replace(":token", "A".repeat(43)),
    ),
    `/easy-payment?ref=${payment.reference}`,
    "/no/such/page",
  ];
}

// Signed out in the dark theme at 1280 px, signed in in the light theme at 390 px: every route in both themes and
// both widths, at half the cost of every combination; and each route's contrast in the other theme as well, so
// every route's colours are checked in both themes (the error states: errors-and-wallets.spec.ts).
test.describe("axe: every route", () => {
  test.describe.configure({ timeout: 120_000 });
  for (const signedIn of [false, true]) {
    for (const route of [...CLIENT_ROUTES, "/easy-payment?ref", "/no/such/page"]) {
      test(`${route} ${signedIn ? "signed in" : "signed out"}`, async ({ page, request, consoleGuard }) => {
        consoleGuard.allow(/status of 404/); // the unknown path is answered 404 (with the not-found page)
        await page.setViewportSize(signedIn ? { width: 390, height: 844 } : { width: 1280, height: 800 });
        // The data: a merchant with a payment (made by the signed-in user when signed in).
        const owner = signedIn ? page.request : request;
        await createMerchant(owner, { website: "https://corner.example" });
        const payment = await createPayment(owner, {
          currency: "USD",
          amount: "12.50",
          description: "Two flat whites and a very long description of the order",
        });
        const paths = await concretePaths(request, payment);
        const index = [...CLIENT_ROUTES, "/easy-payment?ref", "/no/such/page"].indexOf(route);
        await page.goto("/");
        await checkPage(page, paths[index]!, [signedIn ? "light" : "dark"]);
        // The other theme's colours too (the contrast rule alone: the rest does not depend on the theme).
        const other = signedIn ? "dark" : "light";
        await setTheme(page, other);
        await page.goto(paths[index]!);
        await settled(page);
        await expectContrast(page, `${paths[index]} (${other})`);
      });
    }
  }
});

test.describe("axe: dialogs and panels", () => {
  test.describe.configure({ timeout: 180_000 });

  test("the side menu, signed out and signed in", async ({ page }) => {
    for (const signedIn of [false, true]) {
      if (signedIn) await createMerchant(page.request);
      await page.goto("/");
      await settled(page);
      await page.getByRole("button", { name: "Open menu" }).click();
      const menu = page.getByRole("dialog");
      await expect(menu).toBeVisible();
      if (signedIn) await expect(menu.getByText("Signed in as")).toBeVisible();
      await menu.evaluate((el) => Promise.all(el.getAnimations().map((a) => a.finished)));
      await expectAccessible(page, `side menu (${signedIn ? "signed in" : "signed out"})`);
      await page.keyboard.press("Escape");
    }
  });

  test("the dashboard's payment detail (open and paid) and Edit business", async ({ page }) => {
    await createMerchant(page.request, { website: "https://corner.example" });
    await createPayment(page.request, { currency: "CPXTB", amount: "3", description: "Open one" });
    const paid = await createPayment(page.request, {
      currency: "CPXTB",
      amount: "4",
      description: "Paid one",
    });
    await payFromDevAccount(page.request, paid.receivingAddress, BigInt(paid.amountDueBase));
    for (const theme of ["dark", "light"] as const) {
      await page.goto("/");
      await setTheme(page, theme);
      await page.goto("/merchant");
      const list = page.getByTestId("recent-payments");
      await expect(list.locator("li")).toHaveCount(2);
      await expect(list.locator(`li[data-reference="${paid.reference}"]`)).toContainText("Paid");
      for (const [name, status] of [
        ["Open one", "Awaiting payment"],
        ["Paid one", "Paid"],
      ] as const) {
        await list.getByRole("button", { name: new RegExp(name) }).click();
        const detail = page.getByRole("dialog", { name: "Payment details" });
        await expect(detail.getByTestId("detail-status")).toHaveText(status);
        await detail.evaluate((el) => Promise.all(el.getAnimations().map((a) => a.finished)));
        await expectAccessible(page, `payment detail: ${status} (${theme})`);
        await page.keyboard.press("Escape");
        await expect(detail).toBeHidden();
      }
      await page.getByRole("button", { name: "Edit business" }).click();
      const sheet = page.getByRole("dialog", { name: "Edit business" });
      await expect(sheet.getByLabel("Business name")).toBeVisible();
      await sheet.evaluate((el) => Promise.all(el.getAnimations().map((a) => a.finished)));
      await expectAccessible(page, `Edit business (${theme})`);
      await page.keyboard.press("Escape");
    }
  });

  test("the paid checkout and the connected wallet's panel", async ({ page, request }) => {
    await createMerchant(request, { website: "https://corner.example" });
    const payment = await createPayment(request, { currency: "USD", amount: "2.00", description: "Tea" });
    await payFromDevAccount(request, payment.receivingAddress, BigInt(payment.amountDueBase));
    await page.goto(`/pay/${payment.reference}`);
    await expect(page.getByRole("heading", { name: "Payment Successful" })).toBeVisible();
    await checkPage(page, `/pay/${payment.reference}`);
    await checkPage(page, `/payment/${payment.reference}`);

    await installWallet(page, BROWSER_PAYER_KEY);
    for (const theme of ["dark", "light"] as const) {
      await setTheme(page, theme);
      await page.goto("/about");
      await settled(page);
      await page.getByTestId("wallet-connect").click();
      const control = page.getByTestId("wallet-control");
      await expect(control).toHaveAttribute("data-status", "connected");
      await control.getByRole("button", { name: /Wallet 0x/ }).click();
      await expect(page.getByTestId("wallet-balance")).toHaveText(/Balance: [\d,]+(\.\d+)? CPXTB/);
      await expectAccessible(page, `wallet panel (${theme})`);
    }
  });
});
