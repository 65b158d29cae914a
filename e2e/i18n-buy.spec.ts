import { readFileSync } from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { formatDecimal, usdShape } from "../common/src/locale-format";
import { LOCALES, type Locale } from "../common/src/locales";
import { expect, test, toast } from "./fixtures";
import { catalogOf } from "./support/i18n";
import { installWallet } from "./support/payments";

/**
 * Issue 37: buying CPXTB and claiming test tokens in the buyer's language, at 390 px. A buyer whose browser speaks
 * Arabic, Portuguese or German gets a quote, creates an order and sees its page; a signed-in one claims test CPXTB:
 * no English word of the "buy" catalog is left, `<html lang dir>` say the language, nothing scrolls sideways and
 * axe finds nothing serious. Every other language: the first screen.
 */
test.describe.configure({ timeout: 180_000 });

type Catalog = Record<string, string>;
const catalog = (locale: Locale): Catalog =>
  JSON.parse(readFileSync(new URL(`../client/src/locales/${locale}/buy.json`, import.meta.url), "utf8"));
const ENGLISH = catalog("en");

/** A message's words between its placeholders (a select counts as a placeholder). */
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

/** The English words of the buy catalog that `locale`'s own words never contain: none may be on screen. */
function englishLeft(locale: Locale): string[] {
  const own = Object.values(catalog(locale)).join("\n");
  const words = Object.values(ENGLISH).flatMap(wordsOf);
  return [...new Set(words)].filter((w) => w.replace(/[^\p{L}]/gu, "").length >= 4 && !own.includes(w));
}

/** `key`'s message in `locale` with its placeholders filled. */
const say = (locale: Locale, key: string, values: Record<string, string> = {}) =>
  catalog(locale)[key]!.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? `{${name}}`);

async function expectInLanguage(page: Page, locale: Locale, where: string) {
  const text = await page
    .locator("main")
    .evaluate((main) =>
      [
        main.textContent,
        ...[...main.querySelectorAll("[aria-label], [placeholder]")].map(
          (x) => `${x.getAttribute("aria-label") ?? ""} ${x.getAttribute("placeholder") ?? ""}`,
        ),
      ].join("\n"),
    );
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

/** The buy page with a quote for 25 USD, in `locale`. */
async function quote(page: Page, locale: Locale) {
  const words = catalog(locale);
  await page.goto("/buy-cpxtb");
  await expect(page.getByRole("heading", { level: 1, name: words["buy.page.title"] })).toBeVisible({
    timeout: 30_000,
  });
  await page.getByLabel(words["buy.form.usdLabel"]!).fill("25");
  await expect(page.getByLabel(words["buy.form.tokensLabel"]!)).toHaveValue("2500");
  await expect(page.getByTestId("quote-tokens")).toContainText("2");
  await expect(page.getByTestId("quote-eth")).toContainText("0.0125 ETH");
}

for (const locale of ["ar", "pt-BR", "de"] as const) {
  test.describe(`${locale}`, () => {
    test.use({ locale, viewport: { width: 390, height: 844 } });

    test(`the buy page, its order and the claim card (${locale})`, async ({ page, consoleGuard }) => {
      const words = catalog(locale);
      await installWallet(page, generatePrivateKey());
      await quote(page, locale);
      const card = page.getByTestId("claim-card");
      await expect(card.getByText(words["buy.claim.signInPrompt"]!)).toBeVisible();
      await expect(page.getByTestId("quote-tokens")).toHaveText(
        locale === "ar" ? "2,500 CPXTB" : "2.500 CPXTB",
      );
      await expectInLanguage(page, locale, "the quote");

      // The order's limits (the server's sentence with its amount in `details`): in the buyer's words, the amount
      // in the locale's currency format, kept left to right in Arabic.
      const usd = (amount: string) => {
        const text = formatDecimal(amount, usdShape(locale), { minDecimals: 2 });
        return locale === "ar" ? `\u2066${text}\u2069` : text;
      };
      consoleGuard.allow(/status of 400 .*\/api\/buy\/quote/);
      const usdField = page.getByLabel(words["buy.form.usdLabel"]!);
      await usdField.fill("0.5");
      await expect(page.getByRole("alert")).toHaveText(
        say(locale, "buy.error.belowMinimum", { amount: usd("1") }),
      );
      await usdField.fill("5000");
      await expect(page.getByRole("alert")).toHaveText(
        say(locale, "buy.error.aboveMaximum", { amount: usd("1000") }),
      );
      await expectInLanguage(page, locale, "the order's limits");
      await page.screenshot({ path: test.info().outputPath(`buy-limit-${locale}.png`), fullPage: true });
      await quote(page, locale);

      await page.getByRole("button", { name: words["buy.form.buyWithEth"] }).click();
      await expect(page).toHaveURL(/\/buy-cpxtb\/orders\/ord_[0-9a-z]{26}$/);
      await expect(page.getByTestId("order-eth")).toHaveText("0.0125 ETH");
      await expect(page.getByTestId("order-status")).toHaveText(words["buy.status.quoted"]!);
      await expect(page.getByTestId("step-paid")).toContainText(words["buy.order.stateWaiting"]!);
      await expect(
        page.getByRole("button", { name: say(locale, "buy.order.payEth", { amount: "0.0125" }) }),
      ).toBeVisible();
      await expectInLanguage(page, locale, "the order");
    });
  });
}

test.describe("a signed-in claim", () => {
  test.use({ locale: "ar", viewport: { width: 390, height: 844 } });

  test("the claim card of a signed-in account with a wallet, in Arabic", async ({ page }) => {
    const words = catalog("ar");
    const key = generatePrivateKey();
    const address = privateKeyToAccount(key).address;
    await installWallet(page, key);
    // Signed in with the wallet on the sign-in page (in Arabic too: the account area); the claim is on the buy page.
    const account = catalogOf("ar", ["account"]);
    await page.goto("/auth");
    await page.getByRole("button", { name: account["account.wallet.signIn"] }).click();
    await expect(toast(page, account["account.toast.signedIn"]!)).toBeVisible();
    await expect(page).toHaveURL(/\/merchant$/);

    await page.goto("/buy-cpxtb");
    const card = page.getByTestId("claim-card");
    await expect(card.getByText(words["buy.claim.title"]!)).toBeVisible({ timeout: 30_000 });
    await expect(card.getByText(`${address.slice(0, 6)}…${address.slice(-4)}`)).toBeVisible();
    // One claim per IP a day (claim.spec.ts claims from this machine): the card is ready, or says when it is.
    await expect(
      card.getByRole("button", { name: say("ar", "buy.claim.claim", { amount: "10" }) }),
    ).toBeVisible();
    if (await card.getByTestId("claim-button").isDisabled())
      await expect(card.getByTestId("claim-next")).toContainText(wordsOf(words["buy.claim.nextAt"]!)[0]!);
    await expectInLanguage(page, "ar", "the claim card");
  });
});

test.describe("every other language: the first screen", () => {
  test.use({ viewport: { width: 390, height: 844 } });
  for (const locale of LOCALES.filter((l) => !["en", "ar", "pt-BR", "de"].includes(l))) {
    test(`the buy page with a quote (${locale})`, async ({ browser }) => {
      const context = await browser.newContext({ locale, viewport: { width: 390, height: 844 } });
      const page = await context.newPage();
      await quote(page, locale);
      await expectInLanguage(page, locale, "the quote");
      await context.close();
    });
  }
});
