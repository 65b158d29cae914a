import { readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import { generatePrivateKey } from "viem/accounts";
import type { Locale } from "../common/src/locales";
import { expect, test } from "./fixtures";
import { installWallet } from "./support/wallet";

/**
 * Issue 37: the language can be switched from every page. The checkouts and the counter have their own menu; every
 * page in the app's frame has the site's, in its footer (loaded after hydration, out of the eager JavaScript of
 * `/`). A reader on a translated page switches it at once, the choice is remembered (the next visit opens in it),
 * and on an English-only page the choice waits for the next translated page.
 */
const message = (locale: Locale, area: string, id: string): string =>
  JSON.parse(readFileSync(new URL(`../client/src/locales/${locale}/${area}.json`, import.meta.url), "utf8"))[
    id
  ];
const buyTitle = (locale: Locale) => message(locale, "buy", "buy.page.title");
/** The footer's menu, named in the page's language (the shell speaks it: decision 038). */
const languageMenu = (page: Page, locale: Locale) =>
  page.getByRole("combobox", { name: message(locale, "site", "site.language.label") });

test.use({ locale: "en-US", viewport: { width: 390, height: 844 } });

test("the footer's menu switches a translated page at once and is remembered", async ({ page, context }) => {
  await page.goto("/buy-cpxtb");
  await expect(page.getByRole("heading", { level: 1, name: buyTitle("en") })).toBeVisible();
  const menu = languageMenu(page, "en");
  await expect(menu).toHaveValue("en");

  await menu.selectOption("de");
  await expect(page.getByRole("heading", { level: 1, name: buyTitle("de") })).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("lang", "de");
  expect((await context.cookies()).find((c) => c.name === "cpxtb_lang")?.value).toBe("de");
  // The menu itself, and the shell around the page, now speak German.
  await expect(languageMenu(page, "de")).toHaveValue("de");

  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name: buyTitle("de") })).toBeVisible();
  await expect(languageMenu(page, "de")).toHaveValue("de");

  // Right to left and back, from the same menu.
  await languageMenu(page, "de").selectOption("ar");
  await expect(page.getByRole("heading", { level: 1, name: buyTitle("ar") })).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  await languageMenu(page, "ar").selectOption("en");
  await expect(page.getByRole("heading", { level: 1, name: buyTitle("en") })).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("dir", "ltr");
});

test("on an English-only page the choice is kept for the next translated page", async ({ page }) => {
  await page.goto("/");
  // Home is an English page: its shell (this menu's name included) stays English after the choice.
  const menu = languageMenu(page, "en");
  await expect(menu).toHaveValue("en");
  await menu.selectOption("es");
  await expect(menu).toHaveValue("es");
  await expect(page.locator("html")).toHaveAttribute("lang", "en");

  await page.goto("/buy-cpxtb");
  await expect(page.getByRole("heading", { level: 1, name: buyTitle("es") })).toBeVisible();
  await expect(languageMenu(page, "es")).toHaveValue("es");
});

test("the header's wallet menu reads right to left in Arabic, its network named in Arabic", async ({
  browser,
}) => {
  const context = await browser.newContext({ locale: "ar", viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await installWallet(page, page.request, { privateKey: generatePrivateKey() });
  await page.goto("/buy-cpxtb");
  await expect(page.getByRole("heading", { level: 1, name: buyTitle("ar") })).toBeVisible();
  await page.getByRole("button", { name: message("ar", "shell", "shell.connect") }).click();
  const control = page.getByTestId("wallet-control");
  await expect(control).toHaveAttribute("data-status", "connected");
  await control.getByRole("button").click();
  const menu = page.getByRole("menu", { name: message("ar", "site", "site.wallet.menu") });
  await expect(menu).toBeVisible();
  await expect(menu).toHaveAttribute("dir", "rtl");
  await expect(menu).toHaveCSS("direction", "rtl");
  await expect(menu.getByTestId("wallet-network")).toContainText(
    message("ar", "site", "site.wallet.localChain"),
  );
  // The address stays left to right inside it.
  await expect(menu.getByTestId("wallet-address")).toHaveCSS("direction", "ltr");
  await context.close();
});
