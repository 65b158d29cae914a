import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { APIRequestContext, Frame, Page } from "@playwright/test";
import { baseURL } from "../playwright.config";
import { expect, test } from "./fixtures";
import {
  BROWSER_PAYER_KEY,
  createMerchant,
  createPayment,
  installWallet,
  payFromDevAccount,
} from "./support/payments";

/**
 * The pay button on another website (issue 35 part 3, decision 035): a shop's page served by this test from a
 * second local origin loads /embed.js from the product, pays in the overlay, and hears the result. A page on an
 * origin the merchant does not list cannot frame the checkout, nor any other page of the product.
 */
// Beside the product's own port, so that several runs at once (each on its own E2E_PORT) do not collide.
const HOST_PORT = Number(process.env.E2E_PORT ?? 5178) + 136;
const SHOP = `http://127.0.0.1:${HOST_PORT}`;
/** The same test server under another name: another origin, one the merchant does not list. */
const STRANGER = `http://localhost:${HOST_PORT}`;

// One host server on one port for the whole file: its tests run one after another, in one worker.
test.describe.configure({ mode: "serial" });

/** The shop's page: the snippet of the developers page, and a log of what the page hears. */
function shopPage(url: URL): string {
  const ref = url.searchParams.get("ref") ?? "";
  const frame = url.searchParams.get("frame");
  const link = url.searchParams.get("link");
  const body = frame
    ? `<iframe title="framed" src="${frame}" style="width:600px;height:600px"></iframe>`
    : link
      ? `<h1>Tea shop</h1><p>Tins of green tea, any day.</p><a data-cpxtb-link="${link}"></a>`
      : `<h1>Tea shop</h1><p>One tin of green tea.</p>
       <button data-cpxtb-payment="${ref}"></button>
       <a href="/other">A link after the button</a>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Tea shop</title>
<link rel="icon" href="data:,"><meta name="viewport" content="width=device-width, initial-scale=1">
<script>
  window.__results = []; window.__statuses = []; window.__messages = [];
  addEventListener("message", (e) => window.__messages.push({ origin: e.origin, data: e.data }));
  document.addEventListener("cpxtb:result", (e) => window.__results.push(e.detail));
  document.addEventListener("cpxtb:status", (e) => window.__statuses.push(e.detail.status));
</script>
<script src="${baseURL}/embed.js" async></script></head>
<body style="font-family:sans-serif;padding:24px">${body}</body></html>`;
}

let server: Server;
test.beforeAll(async () => {
  server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", SHOP);
    response.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    response.end(shopPage(url));
  });
  await new Promise<void>((resolve) => server.listen(HOST_PORT, "127.0.0.1", resolve));
});
test.afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
});

async function merchantWithPayment(request: APIRequestContext, origins: string[]) {
  await createMerchant(request);
  const saved = await request.put("/api/merchant/embed/origins", { data: { origins } });
  expect(saved.status(), await saved.text()).toBe(200);
  return createPayment(request, { currency: "CPXTB", amount: "3.5", description: "Green tea" });
}

/** A fixed-price payment link of the merchant `request` is signed in as. */
async function createLink(request: APIRequestContext) {
  const response = await request.post("/api/merchant/links", {
    data: { title: "Tin of green tea", pricing: "fixed", currency: "CPXTB", amount: "2.5" },
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as { id: string; slug: string };
}

const results = (page: Page) =>
  page.evaluate(() => (window as unknown as { __results: unknown[] }).__results);

/** The frame the product's page was asked into, once the browser has decided what it shows. */
async function frameShowing(page: Page, path: string): Promise<Frame> {
  let found: Frame | undefined;
  await expect
    .poll(() => {
      found = page.frames().find((f) => f !== page.mainFrame() && f.url() !== "about:blank");
      return found?.url() ?? "";
    })
    .not.toBe("");
  expect(found, path).toBeDefined();
  return found as Frame;
}

test("a shop's page embeds the button, pays in the overlay and hears paid through postMessage", async ({
  page,
}) => {
  const payment = await merchantWithPayment(page.request, [SHOP]);
  await installWallet(page, BROWSER_PAYER_KEY);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${SHOP}/?ref=${payment.reference}`);

  const button = page.getByRole("button", { name: "Pay with CPXTB" });
  await expect(button).toBeVisible();
  await button.click();
  const dialog = page.getByRole("dialog", { name: "Pay with CPXTB" });
  await expect(dialog).toBeVisible();
  const checkout = page.frameLocator('iframe[title="CPXTB checkout"]');
  await expect(checkout.getByRole("heading", { level: 1, name: "Corner Coffee" })).toBeVisible();
  // The checkout reports its status once it knows this page is one its merchant lists.
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { __statuses: string[] }).__statuses))
    .toEqual(["pending"]);

  const shown = payment.amountDue.replace(/0+$/, "");
  await checkout.getByRole("button", { name: `Pay ${shown} CPXTB` }).click();
  await expect(checkout.getByRole("heading", { name: "Payment Successful" })).toBeVisible({
    timeout: 30_000,
  });
  await expect
    .poll(() => results(page))
    .toEqual([{ result: "paid", reference: payment.reference, status: "completed" }]);
  // It came as a message from the checkout's own origin, which the script checked before passing it on.
  const messages = await page.evaluate(
    () => (window as unknown as { __messages: { origin: string; data: { type: string } }[] }).__messages,
  );
  expect(messages.length).toBeGreaterThan(0);
  for (const message of messages) expect(message.origin).toBe(baseURL);
  expect(messages.map((m) => m.data.type)).toContain("result");

  // Closing afterwards says so too, and gives the focus back to the button.
  await page.getByRole("button", { name: "Close the payment" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(button).toBeFocused();
  await expect.poll(async () => (await results(page)).length).toBe(2);
  expect((await results(page))[1]).toMatchObject({ result: "closed", status: "completed" });
});

test("a shop's page embeds a payment link's button: Pay continues in the overlay and the page hears paid", async ({
  page,
}) => {
  await merchantWithPayment(page.request, [SHOP]);
  const link = await createLink(page.request);
  await installWallet(page, BROWSER_PAYER_KEY);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${SHOP}/?link=${link.slug}`);

  const button = page.getByRole("link", { name: "Pay with CPXTB" });
  await expect(button).toHaveAttribute("href", `${baseURL}/l/${link.slug}`);
  await button.click();
  await expect(page.getByRole("dialog", { name: "Pay with CPXTB" })).toBeVisible();
  const checkout = page.frameLocator('iframe[title="CPXTB checkout"]');
  await expect(checkout.getByTestId("link-title")).toHaveText("Tin of green tea");
  await checkout.getByTestId("link-pay").click();
  // A fresh request of the link, its pay page in the same overlay, reporting to this page.
  await expect(checkout.getByTestId("pay-page")).toBeVisible();
  const made = (await (await page.request.get(`/api/merchant/payments?linkId=${link.id}`)).json()).items as {
    reference: string;
  }[];
  expect(made).toHaveLength(1);
  const reference = made[0]!.reference;
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { __statuses: string[] }).__statuses))
    .toEqual(["pending"]);
  await checkout.getByRole("button", { name: /^Pay [\d.,]+ CPXTB$/ }).click();
  await expect(checkout.getByRole("heading", { name: "Payment Successful" })).toBeVisible({
    timeout: 30_000,
  });
  await expect.poll(() => results(page)).toEqual([{ result: "paid", reference, status: "completed" }]);
  await page.getByRole("button", { name: "Close the payment" }).click();
  await expect.poll(async () => (await results(page)).length).toBe(2);
  expect((await results(page))[1]).toMatchObject({ result: "closed", reference, status: "completed" });
});

test("the developers page gives a payment link's snippet, and its live preview opens the link in the overlay", async ({
  page,
}) => {
  await merchantWithPayment(page.request, [SHOP]);
  const link = await createLink(page.request);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/developers");
  const section = page.getByRole("region", { name: "Pay button for your website" });
  await section.getByLabel("The button sells").selectOption({ label: "Payment link: Tin of green tea" });
  const snippet = section.getByTestId("embed-snippet");
  await expect(snippet).toContainText(`<a data-cpxtb-link="${link.slug}">Pay with CPXTB</a>`);
  await expect(snippet).toContainText(`<script src="${baseURL}/embed.js" async></script>`);
  await expect(section.getByLabel("Payment reference")).toHaveCount(0);
  const preview = section.getByTestId("embed-preview");
  const button = preview.getByRole("link", { name: "Pay with CPXTB" });
  // The real /embed.js made it: the link's page as its address, the overlay on a click.
  await expect(button).toHaveAttribute("aria-haspopup", "dialog");
  await expect(button).toHaveAttribute("href", `${baseURL}/l/${link.slug}`);
  await section.screenshot({ path: test.info().outputPath("developers-link-snippet.png") });
  await button.click();
  const checkout = page.frameLocator('iframe[title="CPXTB checkout"]');
  await expect(checkout.getByTestId("link-title")).toHaveText("Tin of green tea");
  await page.getByRole("button", { name: "Close the payment" }).click();
  await expect(preview.getByTestId("embed-preview-events")).toHaveText("Your page heard: closed.");
  // Back to one payment request: its reference's snippet.
  await section.getByLabel("The button sells").selectOption({ label: "One payment request (its reference)" });
  await expect(snippet).toContainText("data-cpxtb-payment=");
});

test("the overlay is a dialog: focus stays inside, Escape closes it, the page behind is out of reach", async ({
  page,
}) => {
  const payment = await merchantWithPayment(page.request, [SHOP]);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${SHOP}/?ref=${payment.reference}`);
  const button = page.getByRole("button", { name: "Pay with CPXTB" });
  await button.click();
  const dialog = page.getByRole("dialog", { name: "Pay with CPXTB" });
  await expect(page.getByRole("button", { name: "Close the payment" })).toBeFocused();
  await expect(page.frameLocator('iframe[title="CPXTB checkout"]').getByTestId("pay-page")).toBeVisible();
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { __statuses: string[] }).__statuses))
    .toEqual(["pending"]);
  // The page behind is inert: its link is not reachable while the dialog is open.
  await expect(page.getByText("A link after the button")).toHaveAttribute("inert", "");
  // Shift+Tab from the first control wraps to the last (the checkout's frame), never to the page behind.
  await page.getByRole("link", { name: "Open in new tab" }).focus();
  await page.keyboard.press("Shift+Tab");
  await expect(page.locator('iframe[title="CPXTB checkout"]')).toBeFocused();
  await page.getByRole("button", { name: "Close the payment" }).focus();
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await expect(button).toBeFocused();
  await expect
    .poll(() => results(page))
    .toEqual([{ result: "closed", reference: payment.reference, status: "pending" }]);
  await expect(page.getByText("A link after the button")).not.toHaveAttribute("inert", "");

  // Escape pressed inside the checkout closes it too (the checkout asks this page, which checks who asks).
  await button.click();
  const checkout = page.frameLocator('iframe[title="CPXTB checkout"]');
  await expect.poll(async () => (await results(page)).length).toBe(1);
  await checkout.getByRole("heading", { level: 1, name: "Corner Coffee" }).click();
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { __statuses: string[] }).__statuses.length))
    .toBeGreaterThan(1);
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
});

test("on a phone the checkout opens as its own page, which tells the shop's page it was paid", async ({
  page,
}) => {
  const payment = await merchantWithPayment(page.request, [SHOP]);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${SHOP}/?ref=${payment.reference}`);
  const [checkout] = await Promise.all([
    page.waitForEvent("popup"),
    page.getByRole("button", { name: "Pay with CPXTB" }).click(),
  ]);
  await expect(checkout.getByRole("heading", { level: 1, name: "Corner Coffee" })).toBeVisible();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await payFromDevAccount(page.request, payment.receivingAddress, BigInt(payment.amountDueBase));
  await expect(checkout.getByRole("heading", { name: "Payment Successful" })).toBeVisible({
    timeout: 30_000,
  });
  await expect
    .poll(() => results(page))
    .toContainEqual({
      result: "paid",
      reference: payment.reference,
      status: "completed",
    });
});

test("a page on an origin the merchant does not list cannot frame the checkout, nor the dashboard", async ({
  page,
  consoleGuard,
}) => {
  // Chromium reports each refusal on the console: that is the point of this test.
  consoleGuard.allow(/Refused to (frame|display)|frame-ancestors|X-Frame-Options/);
  // The fixture's start script (localStorage) runs in the browser's error page of each refused frame too.
  consoleGuard.allow(/Failed to read the 'localStorage' property/);
  const payment = await merchantWithPayment(page.request, [SHOP]);
  const link = await createLink(page.request);
  await page.setViewportSize({ width: 1280, height: 900 });

  // The button on a stranger's page: the overlay opens, the browser refuses the checkout inside it.
  await page.goto(`${STRANGER}/?ref=${payment.reference}`);
  await page.getByRole("button", { name: "Pay with CPXTB" }).click();
  const refused = await frameShowing(page, "embed");
  await expect.poll(() => refused.url()).toMatch(/^chrome-error:/);
  expect(await page.frameLocator('iframe[title="CPXTB checkout"]').getByTestId("pay-page").count()).toBe(0);
  const messages = await page.evaluate(() => (window as unknown as { __messages: unknown[] }).__messages);
  expect(messages).toEqual([]);

  // Framing the product's pages directly: the embed route from the stranger, the dashboard and the plain
  // checkout from anywhere, even from the listed shop.
  for (const [host, path] of [
    [STRANGER, `/pay/${payment.reference}?embed=1&origin=${encodeURIComponent(STRANGER)}`],
    [SHOP, "/merchant"],
    [SHOP, "/developers"],
    [SHOP, `/pay/${payment.reference}`],
    // A payment link's page: the same rule as the checkout's.
    [STRANGER, `/l/${link.slug}?embed=1&origin=${encodeURIComponent(STRANGER)}`],
    [SHOP, `/l/${link.slug}`],
  ] as const) {
    await page.goto(`${host}/?frame=${encodeURIComponent(`${baseURL}${path}`)}`);
    const frame = await frameShowing(page, path);
    await expect.poll(() => frame.url(), path).toMatch(/^chrome-error:/);
  }
  // The listed shop may frame the embed route itself (the control: the refusals above are the headers' doing).
  await page.goto(
    `${SHOP}/?frame=${encodeURIComponent(`${baseURL}/pay/${payment.reference}?embed=1&origin=${encodeURIComponent(SHOP)}`)}`,
  );
  await expect(page.frameLocator('iframe[title="framed"]').getByTestId("pay-page")).toBeVisible();
  await page.goto(
    `${SHOP}/?frame=${encodeURIComponent(`${baseURL}/l/${link.slug}?embed=1&origin=${encodeURIComponent(SHOP)}`)}`,
  );
  await expect(page.frameLocator('iframe[title="framed"]').getByTestId("link-title")).toHaveText(
    "Tin of green tea",
  );
});

// Visual check (UI.md): the overlay at 1280 px and the checkout as a phone's page at 390 px, light and dark, and the
// developers page's pay button section. Only with SCREENSHOTS_DIR (then look at the files).
const shots = process.env.SCREENSHOTS_DIR;
for (const width of [390, 1280]) {
  for (const theme of ["dark", "light"] as const) {
    test(`screenshots of the pay button at ${width} px, ${theme}`, async ({ page }) => {
      test.skip(!shots, "set SCREENSHOTS_DIR to take screenshots");
      await page.emulateMedia({ colorScheme: theme });
      await page.addInitScript((t) => window.localStorage.setItem("cpxtb-pay-theme", t), theme);
      await page.setViewportSize({ width, height: width < 600 ? 844 : 800 });
      const payment = await merchantWithPayment(page.request, [SHOP]);
      await page.goto("/developers");
      const section = page.getByRole("region", { name: "Pay button for your website" });
      await expect(section.getByTestId("embed-snippet")).toContainText(payment.reference, {
        timeout: 60_000,
      });
      await section.screenshot({ path: `${shots}/embed-developers-${width}-${theme}.png` });
      await page.goto(`${SHOP}/?ref=${payment.reference}`);
      if (width < 600) {
        const [checkout] = await Promise.all([
          page.waitForEvent("popup"),
          page.getByRole("button", { name: "Pay with CPXTB" }).click(),
        ]);
        await checkout.emulateMedia({ colorScheme: theme });
        await checkout.setViewportSize({ width, height: 844 });
        await expect(checkout.getByTestId("pay-page")).toBeVisible();
        await checkout.screenshot({ path: `${shots}/embed-phone-${width}-${theme}.png` });
      } else {
        await page.getByRole("button", { name: "Pay with CPXTB" }).click();
        const checkout = page.frameLocator('iframe[title="CPXTB checkout"]');
        await expect(checkout.getByRole("img", { name: /QR code/ })).toBeVisible();
        await page.screenshot({ path: `${shots}/embed-overlay-${width}-${theme}.png` });
      }
    });
  }
}

test("a payer whose browser reads Arabic gets the button and the overlay in Arabic, right to left", async ({
  browser,
}) => {
  const context = await browser.newContext({ locale: "ar", viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const payment = await merchantWithPayment(page.request, [SHOP]);
  const words = JSON.parse(
    readFileSync(new URL("../client/src/locales/ar/embed.json", import.meta.url), "utf8"),
  ) as Record<string, string>;
  await page.goto(`${SHOP}/?ref=${payment.reference}`);
  const button = page.getByRole("button", { name: words["embed.button"] });
  await expect(button).toBeVisible();
  await expect(button).toHaveAttribute("lang", "ar");
  await button.click();
  const dialog = page.getByRole("dialog", { name: words["embed.button"] });
  await expect(dialog).toBeVisible();
  await expect(dialog).toHaveAttribute("dir", "rtl");
  await expect(dialog.getByRole("link", { name: words["embed.openInTab"] })).toBeVisible();
  await expect(page.getByRole("button", { name: words["embed.close"] })).toBeFocused();
  // The checkout inside picks the same language from the same browser.
  const checkout = page.frameLocator(`iframe[title="${words["embed.frameTitle"]}"]`);
  await expect(checkout.locator("html")).toHaveAttribute("lang", "ar");
  await expect(checkout.getByRole("heading", { level: 1, name: "Corner Coffee" })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath("embed-overlay-ar.png") });
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await context.close();
});
