import { readFileSync } from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import type { APIRequestContext, Browser, Page } from "@playwright/test";
import { PDFDict, PDFDocument, PDFName } from "pdf-lib";
import { expect, test } from "./fixtures";
import { createMerchant, createPayment, payFromDevAccount } from "./support/payments";

/**
 * The payer's screens around the pay page in their language (issue 37), at a phone's 390 px: the receipt (and
 * its PDF), the payment link page, the look-up form and an unknown reference. "No English left" is checked
 * against the English catalog: a text of ours on screen is the language's, never its English source.
 */
test.describe.configure({ timeout: 180_000 });

type Catalog = Record<string, string>;
const catalog = (locale: string): Catalog =>
  JSON.parse(readFileSync(new URL(`../client/src/locales/${locale}/pay.json`, import.meta.url), "utf8"));
const english = catalog("en");
/** A language's message by id (the spec fails at once on an id the catalog lacks). */
function wordsOf(locale: string): (id: string) => string {
  const messages = catalog(locale);
  return (id) => {
    const message = messages[id];
    if (message === undefined) throw new Error(`${locale} has no ${id}`);
    return message;
  };
}
const OURS = /^pay\.(receipt|pdf|refund|txHash|lookup|link|error)\./;

async function localePage(browser: Browser, locale: string): Promise<Page> {
  const context = await browser.newContext({ locale, viewport: { width: 390, height: 844 } });
  return context.newPage();
}

/** No English sentence or label of our catalog in `text` (the product name and merchant's words aside). */
function expectNoEnglish(text: string, locale: string) {
  const translated = catalog(locale);
  const left = Object.entries(english)
    .filter(([id, value]) => OURS.test(id) && value !== translated[id])
    // Labels of one or two words are compared as whole lines; sentences anywhere.
    .filter(([, value]) => {
      const plain = value.replace(/\{\w+\}/g, "").trim();
      if (plain.split(/\s+/).length <= 2) return text.split("\n").some((line) => line.trim() === plain);
      return plain.length > 12 && text.includes(plain);
    })
    .map(([id]) => id);
  expect(left, `English left on the ${locale} page`).toEqual([]);
}

/** The text as a person reads it, line by line (innerText: hidden parts left out, blocks on lines of their own). */
function visibleText(page: Page, selector: string): Promise<string> {
  // biome-ignore lint/performance/useDomNodeTextContent: the rendered lines are what is compared
  return page.locator(selector).first().innerText();
}

async function expectNoSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
}

async function expectAccessible(page: Page, where: string) {
  const results = await new AxeBuilder({ page }).analyze();
  const problems = results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map(
      (v) =>
        `${v.id}: ${v.help} -> ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(" "))
          .join(" | ")}`,
    );
  expect(problems, `axe on ${where}`).toEqual([]);
}

async function paidPayment(request: APIRequestContext) {
  await createMerchant(request, { name: "Corner Coffee" });
  const payment = await createPayment(request, {
    currency: "CPXTB",
    amount: "3",
    description: "Flat white",
  });
  const txHash = await payFromDevAccount(request, payment.receivingAddress, BigInt(payment.amountDueBase));
  await expect
    .poll(
      async () =>
        (await request.post(`/api/payments/public/${payment.reference}/tx`, { data: { txHash } })).status(),
      { timeout: 30_000 },
    )
    .toBe(200);
  await expect
    .poll(
      async () => (await (await request.get(`/api/payments/public/${payment.reference}`)).json()).status,
      {
        timeout: 30_000,
      },
    )
    .toBe("completed");
  return payment;
}

test("a paid payment's receipt speaks German, Chinese and Arabic at 390 px, and so does its PDF", async ({
  page,
  browser,
}) => {
  const payment = await paidPayment(page.request);
  for (const [locale, dir] of [
    ["de", "ltr"],
    ["zh-CN", "ltr"],
    ["ar", "rtl"],
  ] as const) {
    const words = wordsOf(locale);
    const payer = await localePage(browser, locale);
    await payer.goto(`/payment/${payment.reference}`);
    await expect(
      payer.getByRole("heading", { name: words("pay.receipt.receipt"), exact: true }),
    ).toBeVisible();
    await expect(payer.locator("html")).toHaveAttribute("lang", locale);
    await expect(payer.locator("html")).toHaveAttribute("dir", dir);
    await expect(payer.getByText(words("pay.receipt.amountDue"), { exact: true })).toBeVisible();
    await expect(payer.getByText(words("pay.receipt.reference"), { exact: true })).toBeVisible();
    const download = payer.getByTestId("download-receipt");
    await expect(download).toHaveText(words("pay.receipt.download"));
    // The status badge is payment-status.tsx's, translated with the pay page's own words (not this spec's).
    const badge = (await payer.getByTestId("payment-status").textContent())?.trim();
    const text = (await visibleText(payer, "main, body"))
      .split("\n")
      .filter((line) => line.trim() !== badge)
      .join("\n");
    expectNoEnglish(text, locale);
    await expectNoSidewaysScroll(payer);
    await expectAccessible(payer, `receipt in ${locale}`);

    // Chinese and Arabic are written with Noto subsets fetched for the PDF only; German with the standard fonts.
    const fonts: string[] = [];
    payer.on("request", (request) => {
      if (/\/assets\/noto-sans-.*\.ttf$/.test(request.url())) fonts.push(request.url().replace(/^.*\//, ""));
    });
    expect(fonts).toEqual([]);
    const [file] = await Promise.all([payer.waitForEvent("download"), download.click()]);
    expect(file.suggestedFilename()).toMatch(/^receipt-.+\.pdf$/);
    const bytes = readFileSync(await file.path());
    expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    const pdf = await PDFDocument.load(bytes);
    expect(pdf.getTitle()).toBe(words("pay.pdf.documentTitle").replace("{merchant}", "Corner Coffee"));
    expect(pdf.getPageCount()).toBe(1);
    const embedded = pdf.context
      .enumerateIndirectObjects()
      .some(([, object]) => object instanceof PDFDict && object.has(PDFName.of("FontFile2")));
    if (locale === "de") {
      expect(fonts).toEqual([]);
      expect(embedded).toBe(false);
    } else {
      expect(fonts.length).toBeGreaterThan(0);
      expect(fonts.every((name) => name.startsWith(locale === "ar" ? "noto-sans-" : "noto-sans-sc-"))).toBe(
        true,
      );
      expect(embedded).toBe(true);
    }
    await payer.context().close();
  }
});

test("a payment link's page in Brazilian Portuguese and Arabic: every word of ours translated, errors too", async ({
  page,
  browser,
}) => {
  await createMerchant(page.request, { name: "Tip Jar Café" });
  const response = await page.request.post("/api/merchant/links", {
    data: { title: "Tip the barista", pricing: "open", currency: "USD", minAmount: "2.00" },
  });
  expect(response.status(), await response.text()).toBe(201);
  const link = (await response.json()) as { slug: string };

  for (const [locale, dir] of [
    ["pt-BR", "ltr"],
    ["ar", "rtl"],
  ] as const) {
    const words = wordsOf(locale);
    const payer = await localePage(browser, locale);
    await payer.goto(`/l/${link.slug}`);
    // The merchant's words stay as they are.
    await expect(payer.getByTestId("link-title")).toHaveText("Tip the barista");
    await expect(payer.locator("html")).toHaveAttribute("lang", locale);
    await expect(payer.locator("html")).toHaveAttribute("dir", dir);
    const amount = payer.getByLabel(words("pay.link.amountLabel").replace("{unit}", "USD"));
    await expect(amount).toHaveValue("2.00");
    await expect(payer.getByTestId("link-pay")).toHaveText(words("pay.link.pay"));
    await expect(payer.getByText(words("pay.link.poweredBy"))).toBeVisible();
    await expect(payer.getByText(words("pay.link.payHint"))).toBeVisible();
    // The header's theme switch is named in the payer's words too (it was English).
    await expect(
      payer
        .getByRole("button", { name: words("pay.header.themeDark"), exact: true })
        .or(payer.getByRole("button", { name: words("pay.header.themeLight"), exact: true })),
    ).toBeVisible();
    expectNoEnglish(await visibleText(payer, "body"), locale);
    await expectNoSidewaysScroll(payer);
    await expectAccessible(payer, `link page in ${locale}`);

    await amount.fill("1.50");
    await payer.getByTestId("link-pay").click();
    await expect(payer.getByTestId("link-error")).toHaveText(
      words("pay.error.linkMinAmount").replace("{amount}", "2.00").replace("{currency}", "USD"),
    );
    await payer.context().close();
  }
});

test("the look-up form and an unknown reference, in German and Arabic", async ({ browser }) => {
  for (const locale of ["de", "ar"] as const) {
    const words = wordsOf(locale);
    const payer = await localePage(browser, locale);
    await payer.goto("/easy-payment");
    await expect(
      payer.getByRole("heading", { name: words("pay.lookup.easyTitle"), exact: true }),
    ).toBeVisible();
    await expect(payer.locator("html")).toHaveAttribute("lang", locale);
    const field = payer.getByLabel(words("pay.lookup.label"));
    await field.fill("not a reference");
    await payer.getByRole("button", { name: words("pay.lookup.open") }).click();
    await expect(payer.getByRole("alert")).toHaveText(words("pay.lookup.invalid"));
    expectNoEnglish(await visibleText(payer, "main"), locale);
    await expectNoSidewaysScroll(payer);
    await expectAccessible(payer, `/easy-payment in ${locale}`);

    await payer.goto(`/payment/${"z".repeat(26)}`);
    await expect(payer.getByRole("alert")).toContainText(words("pay.receipt.notFound"));
    await expect(payer.getByRole("alert")).toContainText(words("pay.receipt.notFoundHint"));
    await expect(payer.getByRole("link", { name: words("pay.receipt.lookUpAnother") })).toBeVisible();
    await expectNoSidewaysScroll(payer);
    await payer.context().close();
  }
});
