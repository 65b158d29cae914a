import { mkdirSync } from "node:fs";
import { directionOf, LOCALE_NAMES, type Locale, type MessageArea } from "../common/src/locales";
import { expect as baseExpect, test } from "./fixtures";
import { catalogOf, expectTranslated } from "./support/i18n";
import { createMerchant } from "./support/payments";

/**
 * The app's shell in its reader's language (issue 37, decision 038): around a signed-in merchant's page, the skip
 * link, the header's controls, the side menu and the footer speak the page's language, in the server's HTML already
 * (the dashboard's frame) and after hydration (no mismatch: the console guard fails on React's error), in Arabic
 * (right to left: the menu slides in from the right) and German; the footer's language menu switches them too.
 * No English word of the catalogs, <html lang dir>, no sideways scroll, axe clean, in both themes.
 */
const expect = baseExpect.configure({ timeout: 30_000 });

const MERCHANT = "Corner Coffee";
/** What the page shows: the shell's words, the dashboard's, the payment history's and the checkout's. */
const AREAS: readonly MessageArea[] = ["shell", "site", "merchant", "reports", "pay"];
const ALLOWED = `${MERCHANT} CPXTB USD owner@example.com`;
const SHEET = '[data-testid="side-menu"]';
/** The words the server writes into HTML as they are (no markup in them), escaped as React escapes text. */
const inHtml = (text: string) => text.replace(/&/g, "&amp;");

/** Screenshots for the eye, where the full run keeps them (or this test's output folder). */
const shotsDir = () => {
  const dir = process.env.SCREENSHOTS_DIR ?? test.info().outputPath();
  mkdirSync(dir, { recursive: true });
  return dir;
};

for (const locale of ["ar", "de"] as const satisfies readonly Locale[]) {
  test.describe(`in ${LOCALE_NAMES[locale]}`, () => {
    test.use({ locale, viewport: { width: 390, height: 844 } });

    test(`${locale}: the dashboard's header, side menu and footer`, async ({ page }) => {
      test.setTimeout(180_000);
      const t = catalogOf(locale, AREAS);
      const en = catalogOf("en", ["shell", "site"]);
      const { username } = await createMerchant(page.request, { name: MERCHANT });

      // The server's HTML of the dashboard's frame already has the shell in the reader's language.
      const html = await (
        await page.request.get("/merchant", { headers: { "Accept-Language": locale } })
      ).text();
      expect(html).toMatch(
        new RegExp(`<html[^>]* lang="${locale}" dir="${directionOf(locale)}" data-locale-rendered`),
      );
      for (const id of [
        "shell.skip",
        "shell.menu",
        "shell.tagline",
        "shell.privacy",
        "shell.terms",
        "shell.contact",
      ] as const)
        expect(html, id).toContain(inHtml(t[id] as string));
      for (const id of ["shell.skip", "shell.menu", "shell.tagline"] as const)
        expect(html, id).not.toContain(inHtml(en[id] as string));

      await page.goto("/merchant");
      await expect(page.getByRole("heading", { level: 1, name: t["merchant.page.title"] })).toBeVisible({
        timeout: 60_000,
      });
      const footer = page.getByRole("contentinfo");
      await expect(footer.getByRole("link", { name: t["shell.privacy"] })).toBeVisible();
      await expect(page.getByRole("combobox", { name: t["site.language.label"] })).toHaveValue(locale);
      await expect(page.getByTestId("live-users")).toBeVisible();
      await expectTranslated(page, locale, "the dashboard with its header and footer", {
        areas: AREAS,
        allowed: `${ALLOWED} ${username}`,
      });

      // The side menu: every link, group and the account's words; from the reader's start side.
      await page.getByRole("button", { name: t["shell.menu"] }).click();
      const menu = page.locator(SHEET);
      await expect(menu.getByRole("heading", { name: t["site.menu.legal"] })).toBeVisible();
      await expect(menu.getByTestId("menu-username")).toHaveText(username);
      await expect(menu.getByRole("link", { name: t["site.menu.team"] })).toBeVisible();
      await expect(menu.getByRole("button", { name: t["site.menu.close"] })).toBeVisible();
      await expectTranslated(page, locale, "the side menu", {
        areas: AREAS,
        allowed: `${ALLOWED} ${username}`,
        root: SHEET,
      });
      const box = await menu.boundingBox();
      if (directionOf(locale) === "rtl") expect(Math.round((box?.x ?? 0) + (box?.width ?? 0))).toBe(390);
      else expect(box?.x).toBe(0);

      const shots = shotsDir();
      for (const theme of ["dark", "light"] as const) {
        await page.evaluate((value) => localStorage.setItem("cpxtb-pay-theme", value), theme);
        await page.reload();
        await expect(page.getByRole("heading", { level: 1, name: t["merchant.page.title"] })).toBeVisible({
          timeout: 60_000,
        });
        for (const width of [390, 1280]) {
          await page.setViewportSize({ width, height: 844 });
          await page.getByRole("button", { name: t["shell.menu"] }).click();
          await expect(menu.getByRole("heading", { name: t["site.menu.appearance"] })).toBeVisible();
          await page.evaluate(() =>
            Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))),
          );
          await page.screenshot({ path: `${shots}/shell-${locale}-${width}-${theme}-menu.png` });
          await page.keyboard.press("Escape");
          await expect(menu).toHaveCount(0);
          await footer.scrollIntoViewIfNeeded();
          await page.screenshot({ path: `${shots}/shell-${locale}-${width}-${theme}-footer.png` });
        }
        await page.setViewportSize({ width: 390, height: 844 });
        await expectTranslated(page, locale, `the dashboard in the ${theme} theme`, {
          areas: AREAS,
          allowed: `${ALLOWED} ${username}`,
        });
      }
    });
  });
}

test.describe("switching language", () => {
  test.use({ locale: "de-DE", viewport: { width: 390, height: 844 } });

  test("the footer's menu switches the shell with the page, and / keeps its English shell", async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const de = catalogOf("de", AREAS);
    const fr = catalogOf("fr", AREAS);
    const en = catalogOf("en", AREAS);
    const { username } = await createMerchant(page.request, { name: MERCHANT });
    await page.goto("/payments");
    await expect(
      page.getByRole("heading", { level: 1, name: de["reports.history.pageTitle"] }),
    ).toBeVisible();
    await expect(page.getByRole("button", { name: de["shell.menu"] })).toBeVisible();

    await page.getByRole("combobox", { name: de["site.language.label"] }).selectOption("fr");
    await expect(
      page.getByRole("heading", { level: 1, name: fr["reports.history.pageTitle"] }),
    ).toBeVisible();
    const footer = page.getByRole("contentinfo");
    await expect(footer.getByRole("link", { name: fr["shell.terms"] })).toBeVisible();
    await expect(page.getByRole("button", { name: fr["shell.menu"] })).toBeVisible();
    await expect(page.getByRole("combobox", { name: fr["site.language.label"] })).toHaveValue("fr");
    await page.getByRole("button", { name: fr["shell.menu"] }).click();
    await expect(page.locator(SHEET).getByRole("link", { name: fr["site.menu.reports"] })).toBeVisible();
    await expectTranslated(page, "fr", "the payment history after a switch", {
      areas: AREAS,
      allowed: `${ALLOWED} ${username}`,
    });

    // Home is an English page (its words, its shell): the menu's link leads there, and the shell is English.
    await page.locator(SHEET).getByRole("link", { name: fr["site.menu.home"] }).click();
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await expect(page.getByRole("button", { name: en["shell.menu"] })).toBeVisible();
    await expect(footer.getByRole("link", { name: en["shell.privacy"] })).toBeVisible();
  });

  test("a content page stays English with the reader's shell around it", async ({ page }) => {
    const de = catalogOf("de", ["shell", "site", "content"]);
    // The blog's HTML is the same English for everyone (cached); the shell turns German once hydrated.
    await page.goto("/blog");
    await expect(page.getByTestId("english-only-notice")).toHaveText(
      de["content.englishOnly.notice"] as string,
    );
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    const header = page.getByRole("banner");
    await expect(header).toHaveAttribute("lang", "de");
    await expect(page.getByRole("button", { name: de["shell.menu"] })).toBeVisible();
    await expect(
      page.getByRole("contentinfo").getByRole("link", { name: de["shell.privacy"] }),
    ).toBeVisible();
  });
});

test.describe("the not-found page", () => {
  test.use({ locale: "ar", viewport: { width: 390, height: 844 } });

  test("speaks its reader's language, the shell around it too, with the path left to right", async ({
    page,
    consoleGuard,
  }) => {
    // The page itself is answered 404 (shell.spec.ts).
    consoleGuard.allow(/status of 404/);
    const t = catalogOf("ar", ["shell", "site"]);
    await page.goto("/no/such/page");
    await expect(page.getByRole("heading", { level: 1, name: t["site.notFound.title"] })).toBeVisible();
    await expect(page.locator("main code")).toHaveText("/no/such/page");
    await expect(page.locator("main code")).toHaveAttribute("dir", "ltr");
    await expect(page.getByRole("link", { name: t["site.notFound.home"] })).toHaveAttribute("href", "/");
    await expectTranslated(page, "ar", "the not-found page", {
      areas: ["shell", "site"],
      allowed: "no such page",
    });
  });
});
