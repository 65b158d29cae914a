import { readFileSync } from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import type { APIRequest, Browser, Locator, Page } from "@playwright/test";
import { LOCALES, type Locale } from "../common/src/locales";
import { baseURL } from "../playwright.config";
import { expect, test, toast } from "./fixtures";
import { createMerchant, createPayment, type Payment, payFromDevAccount } from "./support/payments";
import { recordShown } from "./support/social";

/**
 * Issue 37: the wallet-less path from a pay page in every language, at 390 px. A payer whose browser speaks
 * Arabic, Portuguese or German taps "No wallet?", signs in with the development Google page, sees their managed
 * wallet's card (what is missing, how to fund it), the funds arrive and they pay: no English word of the wallet
 * catalog is left, nothing scrolls sideways, axe finds nothing serious. Every other language: the first screens.
 */
test.describe.configure({ timeout: 180_000 });

type Catalog = Record<string, string>;
const catalog = (locale: Locale): Catalog =>
  JSON.parse(readFileSync(new URL(`../client/src/locales/${locale}/wallet.json`, import.meta.url), "utf8"));
const ENGLISH = catalog("en");

/** A message's words between its placeholders (a select or plural counts as a placeholder). */
function wordsOf(message: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = "";
  for (const char of message) {
    if (char === "{") {
      if (depth === 0) {
        parts.push(current);
        current = "";
      }
      depth++;
    } else if (char === "}") depth--;
    else if (depth === 0) current += char;
  }
  parts.push(current);
  return parts.map((part) => part.trim()).filter(Boolean);
}

/** The English words of the wallet catalog that `locale`'s own words never contain: none may be on screen. */
function englishLeft(locale: Locale): string[] {
  const own = Object.values(catalog(locale)).join("\n");
  const words = Object.values(ENGLISH).flatMap(wordsOf);
  // Short pieces ("(", ".", "CPXTB") are punctuation or names, the same in every language.
  return [...new Set(words)].filter((w) => w.replace(/[^\p{L}]/gu, "").length >= 4 && !own.includes(w));
}

/** The path's parts of the page (the pay page's own words belong to the "pay" catalog). */
const OURS =
  "[data-testid=managed-wallet-sign-in], [data-testid=managed-wallet], [data-testid=demo-mode-notice]";

async function expectInLanguage(page: Page, locale: Locale, where: string, { ours = true } = {}) {
  const texts = await page
    .locator(OURS)
    .evaluateAll((elements) =>
      elements.map((e) =>
        [
          e.textContent,
          ...[...e.querySelectorAll("[aria-label]")].map((x) => x.getAttribute("aria-label")),
        ].join("\n"),
      ),
    );
  const text = texts.join("\n");
  if (ours) expect(text.trim(), `${where}: the path's words are on screen`).not.toBe("");
  const left = englishLeft(locale).filter((w) => text.includes(w));
  expect(left, `${where} (${locale}): English words left`).toEqual([]);
  await expect(page.locator("html")).toHaveAttribute("lang", locale);
  await expect(page.locator("html")).toHaveAttribute("dir", locale === "ar" ? "rtl" : "ltr");
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `${where} (${locale}): no horizontal scroll`).toBeLessThanOrEqual(0);
  const results = await new AxeBuilder({ page }).analyze();
  const problems = results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.help} -> ${v.nodes.slice(0, 4).map((n) => n.target.join(" "))}`);
  expect(problems, `axe on ${where} (${locale})`).toEqual([]);
}

/** Each static part of `key`'s message in `locale` is in `locator` (amounts are the formatter's business). */
async function expectMessage(locator: Locator, locale: Locale, key: string) {
  for (const part of wordsOf(catalog(locale)[key]!)) await expect(locator).toContainText(part);
}

const fill = (message: string, values: Record<string, string>) =>
  message.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? `{${name}}`);

async function newPayment(request: APIRequest): Promise<Payment> {
  const merchant = await request.newContext({ baseURL });
  await createMerchant(merchant);
  const payment = await createPayment(merchant, { currency: "CPXTB", amount: "3.5" });
  await merchant.dispose();
  return payment;
}

async function openPage(browser: Browser, locale: Locale, consoleMessages: string[]) {
  const context = await browser.newContext({ locale, viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await page.addInitScript(() => window.localStorage.setItem("cpxtb-pay-e2e", "1"));
  page.on("console", (message) => {
    if (message.type() !== "error") return;
    // Signed out, /api/user answers 401; an account without a business, /api/merchant 404 (as in fixtures.ts).
    if (/status of 401/.test(message.text())) return;
    if (/status of 404/.test(message.text()) && /\/api\/(merchant|wallet)$/.test(message.location().url))
      return;
    consoleMessages.push(`${message.text()} (${message.location().url})`);
  });
  page.on("pageerror", (error) => consoleMessages.push(error.message));
  return { context, page };
}

/** "No wallet?" on the pay page, then the four sign-in buttons, in `locale`. */
async function openSignIn(page: Page, locale: Locale, reference: string) {
  const words = catalog(locale);
  await page.goto(`/pay/${reference}`);
  const noWallet = page.getByRole("button", { name: words["wallet.payOptions.noWallet"], exact: true });
  await expect(noWallet).toBeVisible({ timeout: 30_000 });
  await noWallet.click();
  for (const provider of ["Google", "Facebook", "X", "Apple"]) {
    await expect(
      page.getByRole("button", {
        name: fill(words["wallet.signIn.continueWith"]!, { provider }),
        exact: true,
      }),
    ).toBeVisible();
  }
  await expect(page.getByTestId("social-sign-in")).toContainText(words["wallet.signIn.custodialNote"]!);
}

test.describe("the first screens of the wallet-less path", () => {
  let payment: Payment;
  test.beforeAll(async ({ playwright }) => {
    payment = await newPayment(playwright.request);
  });

  for (const locale of LOCALES.filter((l) => l !== "en")) {
    test(`${locale}: "No wallet?" and the sign-in buttons`, async ({ browser }) => {
      const errors: string[] = [];
      const { context, page } = await openPage(browser, locale, errors);
      await openSignIn(page, locale, payment.reference);
      await expectInLanguage(page, locale, "sign-in buttons");
      await context.close();
      expect(errors, "console errors").toEqual([]);
    });
  }
});

for (const locale of ["ar", "pt-BR", "de"] as const) {
  test(`${locale}: the whole path: sign in, see what is missing, funds arrive, pay from the managed wallet`, async ({
    browser,
    playwright,
  }) => {
    const words = catalog(locale);
    const payment = await newPayment(playwright.request);
    const errors: string[] = [];
    const { context, page } = await openPage(browser, locale, errors);
    await openSignIn(page, locale, payment.reference);

    // Real login (the default): the button says it is redirecting, then the development provider page.
    // (Recorded by the page: the 1.5 s it shows can be over before a busy test process looks.)
    const redirecting = await recordShown(
      page,
      fill(words["wallet.signIn.redirectingTo"]!, { provider: "Google" }),
    );
    await page
      .getByRole("button", { name: fill(words["wallet.signIn.continueWith"]!, { provider: "Google" }) })
      .click();
    await expect(page.getByRole("heading", { name: "Sign in with Google (development)" })).toBeVisible({
      timeout: 15_000,
    });
    await expect.poll(redirecting).toBe(true);
    await page.getByLabel("Name").fill(`Payer ${locale}`);
    await page.getByLabel("Email").fill(`payer-${locale.toLowerCase()}-${Date.now()}@example.com`);
    // Back on the pay page, the sign-in completes and the page loads once more (two loads).
    let loads = 0;
    page.on("load", () => loads++);
    await page.getByRole("button", { name: "Continue" }).click();
    await expect.poll(() => loads, { timeout: 30_000 }).toBe(2);
    await expect(page).toHaveURL(new RegExp(`/pay/${payment.reference}$`));

    // Back on the same payment, with the managed wallet's card: what is missing and how to add it.
    const card = page.getByTestId("managed-wallet");
    await expect(card).toBeVisible({ timeout: 30_000 });
    await expect(card.getByRole("heading", { name: words["wallet.checkout.title"] })).toBeVisible();
    await expectMessage(card.getByTestId("managed-missing"), locale, "wallet.checkout.missing");
    await expectMessage(card.getByTestId("managed-buy-note"), locale, "wallet.checkout.boughtNote");
    await expectMessage(card, locale, "wallet.checkout.payTurnsOn");
    const pay = card.getByTestId("managed-pay");
    await expect(pay).toBeDisabled();
    await expectMessage(pay, locale, "wallet.checkout.pay");
    const wallet = await (await page.request.get("/api/wallet")).json();
    await expect(card.getByTestId("managed-address")).toHaveText(wallet.address);
    await expect(card.getByTestId("managed-address")).toHaveAttribute("dir", "ltr");
    // The network the address is on, in the payer's words (payerNetworkName), as the pay page says it.
    const payWords = JSON.parse(
      readFileSync(new URL(`../client/src/locales/${locale}/pay.json`, import.meta.url), "utf8"),
    ) as Catalog;
    await expect(card).toContainText(payWords["pay.view.localChain"]!);
    await expect(card).not.toContainText("Local development chain");
    await expectInLanguage(page, locale, "managed wallet, funds missing");

    // Tokens arrive on chain: Pay turns on by itself; paying says the transfer is on its way.
    await payFromDevAccount(page.request, wallet.address, 5n * 10n ** 18n);
    await expect(pay).toBeEnabled({ timeout: 30_000 });
    await expect(card.getByTestId("managed-missing")).toHaveCount(0);
    await expectInLanguage(page, locale, "managed wallet, ready to pay");
    // Paid: the pay page shows its own paid screen in place of the card (the "pay" catalog's words).
    await pay.click();
    await expect
      .poll(
        async () =>
          (await (await page.request.get(`/api/payments/public/${payment.reference}`)).json())
            .amountReceivedBase,
        { timeout: 60_000 },
      )
      .toBe(payment.amountDueBase);
    await expect(card).toHaveCount(0, { timeout: 30_000 });
    await expectInLanguage(page, locale, "paid from the managed wallet", { ours: false });
    await context.close();
    expect(errors, "console errors").toEqual([]);
  });
}

/** A sign-in that comes back refused says why, in the payer's language, and completes nothing. */
for (const locale of ["de", "ar"] as const) {
  test(`${locale}: cancelled at the provider, back on the same payment and told so; an expired sign-in, on /auth`, async ({
    browser,
    playwright,
  }) => {
    const words = catalog(locale);
    const payment = await newPayment(playwright.request);
    const errors: string[] = [];
    const { context, page } = await openPage(browser, locale, errors);
    await openSignIn(page, locale, payment.reference);
    await page
      .getByRole("button", { name: fill(words["wallet.signIn.continueWith"]!, { provider: "Google" }) })
      .click();
    await expect(page.getByRole("heading", { name: "Sign in with Google (development)" })).toBeVisible({
      timeout: 15_000,
    });
    // "Cancel" on the provider's page: the provider answers error=access_denied, as Google does.
    await page.getByRole("link", { name: "Cancel" }).click();
    await expect(page).toHaveURL(new RegExp(`/pay/${payment.reference}$`), { timeout: 30_000 });
    await expect(toast(page, words["wallet.return.cancelled.title"]!)).toContainText(
      fill(words["wallet.return.cancelled.text"]!, { provider: "Google" }),
      { timeout: 30_000 },
    );
    await expect(page.locator("html")).toHaveAttribute("lang", locale);
    await page.screenshot({ path: test.info().outputPath(`sign-in-cancelled-${locale}-390.png`) });
    // Nothing was completed with the cancelled flow: still signed out.
    expect((await page.request.get("/api/user")).status()).toBe(401);

    // A sign-in whose flow is unknown (expired, used, or never started here): /auth says so, no JSON page.
    await page.goto("/api/social-auth/google/callback?state=unknown-state&code=whatever");
    await expect(page).toHaveURL(/\/auth$/, { timeout: 30_000 });
    await expect(toast(page, words["wallet.return.expired.title"]!)).toContainText(
      fill(words["wallet.return.expired.text"]!, { provider: "Google" }),
      { timeout: 30_000 },
    );
    await expect(page.locator("body")).not.toContainText('"error"');

    // A start that cannot go on (linking without a session): back on the payment, told so, no JSON page.
    await page.goto(
      `/api/social-auth/google?link=true&redirectUrl=${encodeURIComponent(`/pay/${payment.reference}`)}`,
    );
    await expect(page).toHaveURL(new RegExp(`/pay/${payment.reference}$`), { timeout: 30_000 });
    await expect(toast(page, words["wallet.return.failed.title"]!)).toContainText(
      fill(words["wallet.return.failed.text"]!, { provider: "Google" }),
      { timeout: 30_000 },
    );
    await expect(page.locator("body")).not.toContainText('"error"');
    await context.close();
    expect(errors, "console errors").toEqual([]);
  });
}

/**
 * A social sign-in the server refuses when the page asks who signed in (the browser came back from the provider
 * without a session): the toast says so in the payer's language, never the server's English sentence (issue 37).
 */
test("de: a refused social sign-in on the checkout says so in German", async ({ browser, playwright }) => {
  const words = catalog("de");
  const payment = await newPayment(playwright.request);
  const errors: string[] = [];
  const { context, page } = await openPage(browser, "de", errors);
  // A real login to finish: the page asks the server who signed in, and nobody did (401).
  await page.addInitScript(() => window.sessionStorage.setItem("cpxtb_social_pending_login", "google"));
  // The answer is held until the checkout shows its sign-in offer, whose words the toast then speaks.
  let release = () => {};
  const shown = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route("**/api/social-auth/google", async (route) => {
    if (route.request().method() === "POST") await shown;
    await route.continue();
  });
  await page.goto(`/pay/${payment.reference}`);
  await expect(
    page.getByRole("button", { name: words["wallet.payOptions.noWallet"], exact: true }),
  ).toBeVisible({ timeout: 30_000 });
  release();
  const refused = toast(page, words["wallet.toast.socialFailed"]!);
  await expect(refused).toContainText(
    fill(words["wallet.toast.socialNotFinished"]!, { provider: "Google" }),
    {
      timeout: 30_000,
    },
  );
  await expect(refused).not.toContainText("Sign in with google");
  await expect(page.locator("html")).toHaveAttribute("lang", "de");
  expect((await page.request.get("/api/user")).status()).toBe(401);
  await context.close();
  expect(errors, "console errors").toEqual([]);
});
