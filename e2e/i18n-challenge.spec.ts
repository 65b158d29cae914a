import { readFileSync } from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import type { Locator, Page } from "@playwright/test";
import type { Locale } from "../common/src/locales";
import { expect, test } from "./fixtures";
import { catalogOf } from "./support/i18n";
import { startOwnServer } from "./support/own-server";

/**
 * Issue 37: the security check a rate-limited visitor meets, in their language, at 390 px. It can appear on any
 * page: a German browser meets it on the English sign-up page (it speaks to that person, so in German), an Arabic
 * one on a pay page. Each time: no English word of the challenge catalog left in the dialog and its toasts, `lang`
 * and `dir` on the dialog, axe finds nothing serious, and solving it sends the refused request again.
 */
test.describe.configure({ timeout: 300_000 });
test.use({ viewport: { width: 390, height: 844 } });

type Catalog = Record<string, string>;
const catalog = (locale: Locale): Catalog =>
  JSON.parse(
    readFileSync(new URL(`../client/src/locales/${locale}/challenge.json`, import.meta.url), "utf8"),
  );
const ENGLISH = catalog("en");

/** A message's words between its placeholders. */
function wordsOf(message: string): string[] {
  return message
    .split(/\{[^}]*\}/)
    .map((part) => part.trim())
    .filter(Boolean);
}

/** The English words of the challenge catalog that `locale`'s own words never contain: none may be on screen. */
function englishLeft(locale: Locale): string[] {
  const own = Object.values(catalog(locale)).join("\n");
  const words = Object.values(ENGLISH).flatMap(wordsOf);
  return [...new Set(words)].filter((w) => w.replace(/[^\p{L}]/gu, "").length >= 4 && !own.includes(w));
}

/** Evaluates the equation the overlay shows: integers, + - × ÷ and parentheses. */
function solve(equation: string): number {
  const tokens = equation.match(/\d+|[-+×÷()]/g) ?? [];
  let i = 0;
  const primary = (): number => {
    if (tokens[i] === "(") {
      i++;
      const v = sum();
      i++;
      return v;
    }
    return Number(tokens[i++]);
  };
  const product = (): number => {
    let v = primary();
    while (tokens[i] === "×" || tokens[i] === "÷") v = tokens[i++] === "×" ? v * primary() : v / primary();
    return v;
  };
  const sum = (): number => {
    let v = product();
    while (tokens[i] === "+" || tokens[i] === "-") v = tokens[i++] === "+" ? v + product() : v - product();
    return v;
  };
  return sum();
}

/** The dialog's and the toasts' words, with their accessible labels. */
async function wordsOnScreen(page: Page): Promise<string> {
  const texts = await page
    .locator("[data-testid=security-verification], [data-slot=toast], [data-slot=toast-viewport]")
    .evaluateAll((elements) =>
      elements.map((e) =>
        [
          e.textContent,
          e.getAttribute("aria-label"),
          ...[...e.querySelectorAll("[aria-label]")].map((x) => x.getAttribute("aria-label")),
        ].join("\n"),
      ),
    );
  // The viewport's region is labelled by the element Radix wraps it in.
  const region = await page
    .locator("[role=region][aria-label]")
    .evaluateAll((els) => els.map((e) => e.getAttribute("aria-label")).join("\n"));
  return `${texts.join("\n")}\n${region}`;
}

async function expectChallengeIn(page: Page, locale: Locale, overlay: Locator) {
  const words = catalog(locale);
  await expect(overlay).toHaveAttribute("lang", locale);
  await expect(overlay).toHaveAttribute("dir", locale === "ar" ? "rtl" : "ltr");
  await expect(overlay.getByText(words["challenge.prompt"] ?? "", { exact: true })).toBeVisible();
  await expect(page.getByText(words["challenge.toast.checkText"] ?? "", { exact: true })).toBeVisible();
  const text = await wordsOnScreen(page);
  const left = englishLeft(locale).filter((w) => text.includes(w));
  expect(left, `${locale}: English words left`).toEqual([]);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `${locale}: no horizontal scroll`).toBeLessThanOrEqual(0);
  const results = await new AxeBuilder({ page }).analyze();
  const problems = results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.help} -> ${v.nodes.slice(0, 4).map((n) => n.target.join(" "))}`);
  expect(problems, `axe (${locale})`).toEqual([]);
}

/** Empty, then wrong (a fresh challenge one level up), then right: the overlay goes. */
async function solveIn(overlay: Locator, locale: Locale) {
  const words = catalog(locale);
  const input = overlay.getByRole("spinbutton", { name: words["challenge.answerLabel"] });
  await expect(input).toBeFocused();
  const submit = overlay.getByRole("button", { name: words["challenge.submit"] });
  await submit.click();
  await expect(overlay.getByRole("alert")).toHaveText(words["challenge.errors.empty"] ?? "");

  const first = (await overlay.getByTestId("challenge-equation").textContent()) ?? "";
  await input.fill(String(solve(first) + 1));
  await input.press("Enter");
  await expect(overlay.getByRole("alert")).toHaveText(words["challenge.errors.incorrect"] ?? "");
  await expect(overlay.getByText(words["challenge.levels.basic"] ?? "", { exact: true })).toBeVisible();

  const second = (await overlay.getByTestId("challenge-equation").textContent()) ?? "";
  await input.fill(String(solve(second)));
  await submit.click();
  await expect(overlay).toBeHidden();
}

test.describe("German browser on the sign-up page", () => {
  test.use({ locale: "de-DE" });

  test("the sign-up's security check is in German, and solving it completes the sign-up", async ({
    page,
    consoleGuard,
  }) => {
    consoleGuard.allow(
      /status of 429|status of 400|WebSocket connection to .* failed|ERR_CONNECTION_REFUSED/,
    );
    const server = await startOwnServer({ RATE_LIMIT_GENERAL: "40/60s", RATE_LIMIT_AUTH: "40/60s" });
    try {
      // The sign-up page speaks German too (the account area): its words from its catalog.
      const account = catalogOf("de", ["account"]);
      await page.goto(`${server.url}/auth`);
      await page.getByRole("tab", { name: account["account.auth.registerTab"] }).click();
      const form = page.getByRole("form", { name: account["account.register.formLabel"] });
      const username = `chde${Date.now().toString(36)}`;
      await form.getByLabel(account["account.register.username"]!).fill(username);
      await form
        .getByLabel(account["account.register.password"]!, { exact: true })
        .fill("a long enough passphrase 42");
      await form.getByLabel(account["account.register.confirm"]!).fill("a long enough passphrase 42");
      for (let i = 0; i < 100; i++) {
        const res = await page.request.post(`${server.url}/api/register`, {
          data: {},
          headers: { origin: server.url },
        });
        if (res.status() === 429) break;
      }
      await form.getByRole("button", { name: account["account.register.submit"] }).click();

      const overlay = page.getByRole("dialog", { name: catalog("de")["challenge.title"] });
      await expect(overlay).toBeVisible();
      await expect(overlay).toContainText("Sicherheitsstufe: Leicht");
      await expectChallengeIn(page, "de", overlay);
      await solveIn(overlay, "de");

      await expect(page).toHaveURL(/\/merchant$/, { timeout: 10_000 });
      const me = await page.request.get(`${server.url}/api/user`);
      expect((await me.json()).username).toBe(username);
    } finally {
      await page.close();
      await server.stop();
    }
  });
});

test.describe("Arabic browser on a pay page", () => {
  test.use({ locale: "ar" });

  test("the pay page's security check is in Arabic, right to left, and solving it loads the page", async ({
    page,
    consoleGuard,
  }) => {
    consoleGuard.allow(
      /status of 429|status of 400|status of 404|WebSocket connection to .* failed|ERR_CONNECTION_REFUSED/,
    );
    const server = await startOwnServer({ RATE_LIMIT_PUBLIC: "3/60s" });
    try {
      const unknown = `${server.url}/pay/AAAAAAAAAAAAAAAAAAAAAA`;
      for (let i = 0; i < 3; i++) expect((await page.request.get(unknown)).status()).toBe(404);
      await page.goto(unknown);
      const overlay = page.getByRole("dialog", { name: catalog("ar")["challenge.title"] });
      await expect(overlay).toBeVisible({ timeout: 30_000 });
      await expectChallengeIn(page, "ar", overlay);
      await solveIn(overlay, "ar");
      // The refused read was sent again: the page says what it found (no such payment).
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible({ timeout: 15_000 });
    } finally {
      await page.close();
      await server.stop();
    }
  });
});
