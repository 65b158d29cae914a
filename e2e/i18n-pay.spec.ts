import { readFileSync } from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import type { APIRequestContext, Page } from "@playwright/test";
import { directionOf, LOCALE_COOKIE, LOCALE_NAMES, LOCALES, type Locale } from "../common/src/locales";
import { baseURL } from "../playwright.config";
import { expect, test } from "./fixtures";
import { createMerchant, createPayment, payFromDevAccount } from "./support/payments";

/**
 * The pay page in the payer's language (issue 37): in each of the 9 languages at a phone's width, an open, a partly
 * paid, a paid and an expired payment show no English word of the page's catalog, scroll nowhere sideways, pass
 * axe and say their language and direction on <html>. The server renders it in the browser's language, and the
 * language menu switches at once and is remembered.
 */
const MERCHANT = "Corner Coffee";
const SERIOUS = new Set(["serious", "critical"]);

type Catalog = Record<string, string>;
/** The words the pay page shows: its own catalog and the wallet-less path's. */
const catalog = (locale: Locale): Catalog =>
  Object.assign(
    {},
    ...["pay", "wallet"].map(
      (area) => JSON.parse(readFileSync(`client/src/locales/${locale}/${area}.json`, "utf8")) as Catalog,
    ),
  ) as Catalog;
const CATALOGS = Object.fromEntries(LOCALES.map((l) => [l, catalog(l)])) as Record<Locale, Catalog>;

const words = (text: string) => text.toLowerCase().match(/\p{L}+/gu) ?? [];

/**
 * English words of the pay and wallet catalogs (longer than 3 letters) that `locale`'s own catalog never uses: any of them
 * on the page is a text left in English. Words the translation itself uses ("Transaction" in French, "merchant"
 * and "link" in Indonesian, "Coinbase Wallet") are not counted.
 */
function englishWordsFor(locale: Locale): Set<string> {
  const own = new Set(Object.values(CATALOGS[locale]).flatMap(words));
  const allowed = new Set([...words(MERCHANT), ...words("CPXTB Pay Base USD")]);
  return new Set(
    Object.values(CATALOGS.en)
      .flatMap(words)
      .filter((w) => w.length > 3 && !own.has(w) && !allowed.has(w)),
  );
}

/** The language menu lists each language in its own name ("English" among them). */
const NOT_OURS = ['[data-testid="language-menu"]'];

/** What a person reads on the page (screen-reader-only text included), without the parts above. */
function visibleText(page: Page): Promise<string> {
  return page.evaluate((selectors) => {
    const hidden = selectors.flatMap((s) => [...document.querySelectorAll<HTMLElement>(s)]);
    const before = hidden.map((el) => el.style.display);
    for (const el of hidden) el.style.display = "none";
    // biome-ignore lint/performance/useDomNodeTextContent: what is rendered is what a person reads (not <script> or hidden text)
    const text = document.body.innerText;
    hidden.forEach((el, i) => {
      el.style.display = before[i] ?? "";
    });
    // What a screen reader or a pointer says of the rendered elements: a button's name, a tooltip, an image's text.
    const said = [...document.body.querySelectorAll("*")]
      .filter((e) => !selectors.some((s) => e.closest(s)) && e.getClientRects().length > 0)
      .flatMap((e) =>
        ["aria-label", "title", "placeholder", "alt"].map((name) => e.getAttribute(name) ?? ""),
      );
    return [text, ...said].join("\n");
  }, NOT_OURS);
}

async function expectTranslated(page: Page, locale: Locale, where: string) {
  await expect(page.locator("html")).toHaveAttribute("lang", locale);
  await expect(page.locator("html")).toHaveAttribute("dir", directionOf(locale));
  if (locale !== "en") {
    const english = englishWordsFor(locale);
    const left = [...new Set(words(await visibleText(page)).filter((w) => english.has(w)))];
    expect(left, `English words on ${where} in ${locale}`).toEqual([]);
  }
  const scroll = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(scroll.scroll, `sideways scroll on ${where} in ${locale}`).toBeLessThanOrEqual(scroll.client);
  const results = await new AxeBuilder({ page }).analyze();
  const problems = results.violations
    .filter((v) => SERIOUS.has(v.impact ?? ""))
    .map((v) => `${v.id} (${v.impact}): ${v.help} -> ${v.nodes.map((n) => n.target.join(" ")).join(" | ")}`);
  expect(problems, `axe on ${where} in ${locale}`).toEqual([]);
}

/** The theme a page's switch offers ("Dark" or "Light": the other one than the page's). */
const themeToSwitchTo = async (page: Page): Promise<"Dark" | "Light"> =>
  (await page.evaluate(() => document.documentElement.classList.contains("dark"))) ? "Light" : "Dark";

/** True once the app owns the server's markup (main.tsx removes the marker in hydration's commit). */
const hydrated = (page: Page) =>
  page.waitForFunction(() => !document.getElementById("root")?.hasAttribute("data-server-rendered"));

type PublicView = { status: string; amountToPayBase: string };
const publicView = async (request: APIRequestContext, reference: string): Promise<PublicView> =>
  (await request.get(`/api/payments/public/${reference}`)).json();

async function waitForStatus(request: APIRequestContext, reference: string, status: string, timeout: number) {
  await expect
    .poll(async () => (await publicView(request, reference)).status, {
      timeout,
      intervals: [500, 1000, 2000],
    })
    .toBe(status);
}

const refs = { open: "", partial: "", paid: "", expired: "" };

// One merchant and its four payments for every language; the expired one takes its minute once per worker.
test.beforeAll(async ({ playwright }) => {
  test.setTimeout(240_000);
  const request = await playwright.request.newContext({ baseURL });
  await createMerchant(request, { name: MERCHANT, website: "https://corner.example" });
  const [open, partial, paid, expired] = await Promise.all([
    createPayment(request, { currency: "CPXTB", amount: "25", orderId: "A-1001" }),
    createPayment(request, { currency: "CPXTB", amount: "40" }),
    createPayment(request, { currency: "CPXTB", amount: "7" }),
    createPayment(request, { currency: "CPXTB", amount: "3", expiresInMinutes: 1 }),
  ]);
  if (!open || !partial || !paid || !expired) throw new Error("payments not created");
  Object.assign(refs, {
    open: open.reference,
    partial: partial.reference,
    paid: paid.reference,
    expired: expired.reference,
  });
  await payFromDevAccount(request, paid.receivingAddress, BigInt(paid.amountDueBase));
  // Half, without the payment's tag: it counts once the payer names its transaction.
  const half = await payFromDevAccount(request, partial.receivingAddress, BigInt(partial.amountDueBase) / 2n);
  const named = await request.post(`/api/payments/public/${partial.reference}/tx`, {
    data: { txHash: half },
  });
  expect(named.ok(), await named.text()).toBe(true);
  await Promise.all([
    waitForStatus(request, paid.reference, "completed", 60_000),
    waitForStatus(request, partial.reference, "partial", 60_000),
    waitForStatus(request, expired.reference, "expired", 150_000),
  ]);
  await request.dispose();
});

for (const locale of LOCALES) {
  test.describe(`in ${LOCALE_NAMES[locale]}`, () => {
    test.use({ locale, viewport: { width: 390, height: 844 } });

    test(`${locale}: open, partly paid, paid and expired, with no English left`, async ({ page }) => {
      // Five pages, each through axe: generous on a busy machine.
      test.setTimeout(240_000);
      const t = CATALOGS[locale];
      const states = [
        ["open", refs.open, t["pay.status.pending"]],
        ["partly paid", refs.partial, t["pay.status.partial"]],
        ["paid", refs.paid, t["pay.status.completed"]],
        ["expired", refs.expired, t["pay.status.expired"]],
      ] as const;
      for (const [state, reference, status] of states) {
        await page.goto(`/pay/${reference}`);
        await expect(page.getByRole("heading", { level: 1 })).toHaveText(MERCHANT, { timeout: 20_000 });
        await expect(page.getByTestId("payment-status")).toHaveText(status as string);
        if (state === "open") {
          await expect(page.getByTestId("exact-amount-note")).toContainText(
            t["pay.view.sendExactly"] as string,
          );
          await expect(page.getByTestId("countdown")).toBeVisible();
        }
        if (state === "partly paid")
          await expect(page.getByText(t["pay.view.leftToPay"] as string, { exact: true })).toBeVisible();
        if (state === "paid")
          await expect(page.getByRole("heading", { name: t["pay.view.success.title"] })).toBeVisible();
        if (state === "expired")
          await expect(page.getByRole("heading", { name: t["pay.view.expired.title"] })).toBeVisible();
        await expect(page.getByRole("combobox", { name: t["pay.language.label"] })).toHaveValue(locale);
        await expectTranslated(page, locale, `the ${state} pay page`);
      }
      // The open payment at its easiest address: the same page, its theme switch named in the payer's words too.
      await page.goto(`/easy-payment?ref=${refs.open}`);
      await expect(page.getByTestId("payment-status")).toHaveText(t["pay.status.pending"] as string, {
        timeout: 20_000,
      });
      await expect(
        page.getByRole("button", { name: t[`pay.header.theme${await themeToSwitchTo(page)}`] }),
      ).toBeVisible();
      await expectTranslated(page, locale, "the open payment on /easy-payment");
    });
  });
}

for (const [locale, header] of [
  ["pt-BR", "pt-BR,pt;q=0.9,en;q=0.5"],
  ["ar", "ar-EG,ar;q=0.9"],
] as const) {
  test.describe(`Accept-Language: ${header}`, () => {
    test.use({ locale, viewport: { width: 390, height: 844 } });

    test(`the server renders the pay page in ${locale}, and it hydrates without a warning`, async ({
      page,
    }) => {
      const t = CATALOGS[locale];
      const response = await page.request.get(`/pay/${refs.open}`, {
        headers: { "Accept-Language": header },
      });
      expect(response.status()).toBe(200);
      expect(response.headers()["content-language"]).toBe(locale);
      expect(response.headers().vary ?? "").toMatch(/Accept-Language/i);
      const html = await response.text();
      expect(html).toMatch(new RegExp(`<html[^>]*\\blang="${locale}"`));
      expect(html).toMatch(new RegExp(`<html[^>]*\\bdir="${directionOf(locale)}"`));
      expect(html).toContain(t["pay.status.pending"]);
      expect(html).toContain(t["pay.view.sendExactly"]);

      // The browser's own request says the same language (the context's locale); the console guard fails the
      // test on a hydration mismatch.
      await page.goto(`/pay/${refs.open}`);
      await hydrated(page);
      await expect(page.getByTestId("payment-status")).toHaveText(t["pay.status.pending"] as string);
      await expectTranslated(page, locale, "the server-rendered pay page");
    });
  });
}

test.describe("the language menu", () => {
  test.use({ locale: "en-US", viewport: { width: 390, height: 844 } });

  test("switches the words at once and is remembered on reload", async ({ page, context }) => {
    await page.goto(`/pay/${refs.open}`);
    await expect(page.getByTestId("payment-status")).toHaveText("Awaiting payment", { timeout: 20_000 });
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    // The menu answers once the page's code has taken over the server's HTML.
    await hydrated(page);
    await page.getByRole("combobox", { name: "Language" }).selectOption("fr");
    await expect(page.getByTestId("payment-status")).toHaveText("En attente de paiement");
    await expect(page.getByTestId("exact-amount-note")).toContainText("Envoyez exactement ce montant.");
    await expect(page.locator("html")).toHaveAttribute("lang", "fr");
    const cookie = (await context.cookies()).find((c) => c.name === LOCALE_COOKIE);
    expect(cookie?.value).toBe("fr");

    await page.reload();
    await expect(page.getByTestId("payment-status")).toHaveText("En attente de paiement");
    await hydrated(page);
    await expect(page.getByRole("combobox", { name: "Langue" })).toHaveValue("fr");
    // The narrowest phone, right to left.
    await page.setViewportSize({ width: 320, height: 700 });
    await page.getByRole("combobox", { name: "Langue" }).selectOption("ar");
    await expect(page.getByTestId("payment-status")).toHaveText("بانتظار الدفع");
    await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
    await expectTranslated(page, "ar", "the pay page switched to Arabic");
  });

  test("a pay page opened in the app takes the merchant's language when the payer chose none", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 320, height: 700 });
    await createMerchant(page.request, { name: MERCHANT, payLanguage: "de" });
    const payment = await createPayment(page.request, { currency: "CPXTB", amount: "5" });
    // The look-up page is not rendered by the server: the app is running when the pay page opens.
    await page.goto("/payment");
    await expect(page.getByRole("heading", { level: 1, name: "Find a payment" })).toBeVisible({
      timeout: 20_000,
    });
    // Navigated to in the app, so not rendered by the server.
    await page.evaluate((url) => {
      window.history.pushState(null, "", url);
      window.dispatchEvent(new PopStateEvent("popstate"));
    }, `/pay/${payment.reference}`);
    await expect(page.getByTestId("payment-status")).toHaveText("Zahlung ausstehend", { timeout: 20_000 });
    await expectTranslated(page, "de", "the pay page opened in the app");
    // Not remembered as the payer's choice.
    expect((await page.context().cookies()).find((c) => c.name === LOCALE_COOKIE)).toBeUndefined();
  });
});
