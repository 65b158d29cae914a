import { readFile } from "node:fs/promises";
import { PDFDocument } from "pdf-lib";
import { expect, test, toast } from "./fixtures";
import { createMerchant, createPayment, payFromDevAccount } from "./support/payments";

/**
 * What a payer and a visitor notice around the checkout (issue 13): whom they pay, on which network, how exact
 * the amount must be, a receipt afterwards; plus the small things around it (404, robots.txt, the wallet button
 * without a wallet, focus rings, the auth tabs). At a phone's and a desktop's width.
 */
const LONG_NAME = "Corner Coffee Roasters & Bakery of the Old Harbour";

for (const width of [390, 1280]) {
  test.describe(`at ${width} px`, () => {
    test.beforeEach(async ({ page }) => {
      await page.setViewportSize({ width, height: width < 600 ? 844 : 800 });
    });

    test("the checkout is the merchant's: full name as heading, no app header, the network by name", async ({
      page,
    }) => {
      await createMerchant(page.request, { name: LONG_NAME, website: "https://corner.example" });
      const payment = await createPayment(page.request, { currency: "USD", amount: "12.50" });
      await page.goto(`/pay/${payment.reference}`);
      const heading = page.getByRole("heading", { level: 1 });
      // Generous first waits: a lazy page can take a while to arrive on a loaded machine.
      await expect(heading).toHaveText(LONG_NAME, { timeout: 20_000 });
      // Never cut: the whole name fits inside the heading's box (no ellipsis, no overflow).
      expect(await heading.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
      // The app's header, live count and wallet menu are not on a checkout; the theme toggle is.
      await expect(page.getByRole("button", { name: "Open menu" })).toBeHidden();
      await expect(page.getByTestId("wallet-connect")).toBeHidden();
      await expect(page.getByTestId("top-right-controls")).toBeHidden();
      const header = page.getByTestId("checkout-header");
      await header.getByTestId("theme-toggle").click();
      await expect(page.locator("html")).toHaveClass(/light/);

      await expect(page.getByTestId("network-name")).toHaveText("Local development chain");
      await expect(page.getByTestId("network-warning")).toContainText("on Local development chain");
      await expect(page.getByText(/chain 31337/)).toHaveCount(0);
      // "Send exactly this amount", and why the last digits.
      await expect(page.getByTestId("exact-amount-note")).toHaveText(
        "Send exactly this amount. Its last digits identify your payment: a rounded amount cannot be matched to it.",
      );
      await expect(page.getByTestId("pay-with-wallet")).toBeInViewport();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    });

    test("the copied amount comes with what to do with it", async ({ page, context }) => {
      await context.grantPermissions(["clipboard-read", "clipboard-write"]);
      await createMerchant(page.request);
      const payment = await createPayment(page.request, { currency: "CPXTB", amount: "250.5" });
      await page.goto(`/pay/${payment.reference}`);
      await expect(page.getByRole("button", { name: "Copy Amount" })).toBeVisible({ timeout: 20_000 });
      await page.getByRole("button", { name: "Copy Amount" }).click();
      await expect(toast(page, "Amount copied")).toContainText(
        "Paste it unchanged: its last digits identify your payment.",
      );
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
        payment.amountDue.replace(/0+$/, ""),
      );
    });
  });
}

test("after payment: back to the merchant's website, and a PDF receipt (pay page and status page)", async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await createMerchant(page.request, { website: "https://corner.example/" });
  const payment = await createPayment(page.request, {
    currency: "CPXTB",
    amount: "7",
    description: "Carrot cake",
  });
  const pdfChunks: string[] = [];
  page.on("request", (r) => {
    if (/receipt-pdf|pdf-lib/.test(r.url())) pdfChunks.push(r.url());
  });
  await page.goto(`/pay/${payment.reference}`);
  await expect(page.getByTestId("payment-status")).toHaveText("Awaiting payment", { timeout: 20_000 });
  await payFromDevAccount(page.request, payment.receivingAddress, BigInt(payment.amountDueBase));
  await expect(page.getByRole("heading", { name: "Payment Successful" })).toBeVisible({ timeout: 10_000 });
  await expect(page.getByTestId("merchant-website")).toHaveAttribute("href", "https://corner.example/");
  await expect(page.getByTestId("merchant-website")).toHaveText("Back to Corner Coffee");
  // A paid payment offers no QR code or pay button any more.
  await expect(page.getByRole("img", { name: /QR code to pay/ })).toHaveCount(0);
  await expect(page.getByTestId("pay-with-wallet")).toHaveCount(0);

  expect(pdfChunks, "the PDF code loads only when the receipt is asked for").toEqual([]);
  const download = page.waitForEvent("download");
  await page.getByTestId("download-receipt").click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`receipt-${payment.reference.slice(0, 8)}.pdf`);
  const doc = await PDFDocument.load(await readFile(await file.path()));
  expect(doc.getTitle()).toBe("Receipt - Corner Coffee");
  expect(doc.getSubject()).toBe(`CPXTB payment ${payment.reference}`);
  expect(doc.getPageCount()).toBe(1);

  await page.goto(`/payment/${payment.reference}`);
  await expect(page.getByRole("heading", { level: 1, name: "Corner Coffee" })).toBeVisible({
    timeout: 20_000,
  });
  await expect(page.getByRole("button", { name: "Open menu" })).toBeHidden();
  await expect(page.getByText("Local development chain")).toBeVisible();
  const again = page.waitForEvent("download");
  await page.getByTestId("download-receipt").click();
  expect((await again).suggestedFilename()).toMatch(/^receipt-.+\.pdf$/);
});

test("a paid payment's detail offers its receipt link, not Share/QR/Poster", async ({ page }) => {
  await createMerchant(page.request);
  const payment = await createPayment(page.request, { currency: "CPXTB", amount: "5", description: "Scone" });
  await payFromDevAccount(page.request, payment.receivingAddress, BigInt(payment.amountDueBase));
  await expect
    .poll(
      async () => (await (await page.request.get(`/api/payments/public/${payment.reference}`)).json()).status,
    )
    .toBe("completed");
  await page.goto("/merchant");
  await page.getByTestId("recent-payments").getByRole("button", { name: /Scone/ }).click();
  const detail = page.getByRole("dialog", { name: "Payment details" });
  await expect(detail.getByTestId("detail-status")).toHaveText("Paid", { timeout: 20_000 });
  await expect(detail.getByRole("heading", { name: "Receipt" })).toBeVisible();
  await expect(
    detail.getByRole("link", { name: new RegExp(`/payment/${payment.reference}$`) }),
  ).toBeVisible();
  for (const name of ["QR as PNG", "QR as SVG", "Poster (PDF)"]) {
    await expect(detail.getByRole("button", { name })).toHaveCount(0);
  }
  await expect(detail.getByRole("img", { name: /QR code to pay/ })).toHaveCount(0);
});

test("unknown paths answer 404 with the not-found page; robots.txt names the sitemap", async ({
  page,
  request,
  consoleGuard,
}) => {
  consoleGuard.allow(/status of 404/);
  const response = await page.goto("/no/such/page");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible({
    timeout: 20_000,
  });
  // An unknown payment's page is a 404 too, with its explanation in the HTML (decision 017).
  const unknownPayment = await request.get("/pay/AAAAAAAAAAAAAAAAAAAAAA");
  expect(unknownPayment.status()).toBe(404);
  expect(await unknownPayment.text()).toContain("Payment not found");

  const robots = await request.get("/robots.txt");
  expect(robots.status()).toBe(200);
  expect(robots.headers()["content-type"]).toMatch(/^text\/plain/);
  const text = await robots.text();
  expect(text).toMatch(/^User-agent: \*$/m);
  expect(text).toMatch(/^Sitemap: http:\/\/127\.0\.0\.1:\d+\/sitemap\.xml$/m);
  expect((await request.get(new URL(text.match(/^Sitemap: (.+)$/m)![1]!).pathname)).status()).toBe(200);
});

for (const width of [390, 1280]) {
  test(`without a wallet, Connect Wallet gives advice and the button keeps its icon (${width} px)`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 800 });
    await page.goto("/about");
    const button = page.getByTestId("wallet-connect");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible({ timeout: 20_000 });
    await button.click();
    await expect(toast(page, "Connection Failed")).toContainText(
      "Install one (such as MetaMask or Coinbase Wallet) and reload this page, or pay by scanning the payment's QR code with a wallet app on your phone.",
    );
    await expect(page.getByText("Provider not found.")).toHaveCount(0);
    await expect(button).toHaveAttribute("data-status", "disconnected");
    await expect(button.locator("svg")).toBeVisible();
    await expect(button).toHaveAccessibleName("Connect Wallet");
    const box = await button.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(width);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  });
}

test("filled buttons show a focus ring apart from their own colour; auth tab panels are no tab stop", async ({
  page,
}) => {
  await page.goto("/auth");
  await expect(page.getByRole("tab", { name: "Sign in" })).toBeVisible({ timeout: 20_000 });
  const signIn = page.getByRole("button", { name: "Sign in", exact: true });
  await signIn.focus();
  await page.keyboard.press("Shift+Tab");
  await page.keyboard.press("Tab");
  await expect(signIn).toBeFocused();
  // Two shadows: the background-coloured offset, then the ring outside it (read once the ring's transition is
  // over, as a person sees it: mid-way its widths are fractions).
  await expect
    .poll(() => signIn.evaluate((el) => getComputedStyle(el).boxShadow))
    .toMatch(/0px 0px 0px 2px,.*0px 0px 0px 5px/);

  const tab = page.getByRole("tab", { name: "Sign in" });
  await tab.focus();
  await page.keyboard.press("Tab");
  // The next stop is the form's first field, not the panel around it.
  await expect(page.getByRole("tabpanel")).not.toBeFocused();
  await expect(page.getByLabel("Username or email")).toBeFocused();
});
