import { readFile } from "node:fs/promises";
import { PDFDocument } from "pdf-lib";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { expect, test, toast } from "./fixtures";
import {
  BROWSER_PAYER_KEY,
  createMerchant,
  createPayment,
  installWallet,
  PASSWORD,
  payFromDevAccount,
} from "./support/payments";

// One payer account sends every transfer: the tests run one after another so its nonces never race.
test.describe.configure({ mode: "serial" });

/** A time a person would notice, printed and kept with the test's result (the budgets are the benches'). */
function reportLatency(what: string, ms: number) {
  console.log(`${what}: ${ms}`);
  test.info().annotations.push({ type: "latency", description: `${what}: ${ms}` });
}

test("the pay page shows the amount, QR and countdown, and turns paid live when the transfer lands", async ({
  page,
}) => {
  await createMerchant(page.request);
  const payment = await createPayment(page.request, {
    currency: "CPXTB",
    amount: "12.5",
    description: "Two flat whites",
    successUrl: "https://shop.example/thanks",
  });
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto(`/pay/${payment.reference}`);
  // The merchant is the heading, in full; the app's header is hidden on a checkout.
  await expect(page.getByRole("heading", { level: 1, name: "Corner Coffee" })).toBeVisible();
  await expect(page.getByTestId("merchant-name")).toHaveText("Corner Coffee");
  // 12.5 plus the unique micro-CPXTB tag: exact, grouped, at most 6 decimals.
  expect(payment.amountDue).toMatch(/^12\.500\d*$/);
  const shown = payment.amountDue.replace(/0+$/, "");
  await expect(page.getByTestId("amount-due")).toHaveText(`${shown} CPXTB`);
  await expect(page.getByTestId("exact-amount")).toHaveText(shown);
  await expect(page.getByRole("button", { name: `Pay ${shown} CPXTB` })).toBeInViewport();
  const qr = page.getByRole("img", { name: /QR code to pay/ });
  await expect(qr).toHaveAttribute("data-value", payment.paymentUri);
  await expect(qr.locator("svg path")).toHaveCount(1);
  await expect(qr).toBeInViewport();
  await expect(page.getByTestId("countdown")).toHaveText(/Expires in 1[45]:\d\d/);
  await expect(page.getByTestId("payment-status")).toHaveText("Awaiting payment");
  await expect(page.getByTestId("network-warning")).toContainText("Send only CPXTB");
  await expect(page.getByTestId("network-name")).toHaveText("Local development chain");

  // The budget (DESIGN.md): paid on the open page within 1 s of the confirming block. The page itself notes when
  // the status turns (checked every frame); anvil mines the transfer's block, the confirming one here, before
  // answering the send, so the send's return is an upper bound of the block's time.
  const paidSeen = page
    .waitForFunction(
      () => document.querySelector('[data-testid="payment-status"]')?.textContent === "Paid",
      null,
      {
        polling: "raf",
        timeout: 15_000,
      },
    )
    .then(() => Date.now());
  await payFromDevAccount(page.request, payment.receivingAddress, BigInt(payment.amountDueBase));
  const mined = Date.now();
  // Live, without a reload. The 1 s budget (DESIGN.md) is measured by `bench/detection.ts`, not by a timed test
  // that a busy machine would fail; the time seen here is printed beside the result.
  reportLatency("ms from the confirming block to 'Paid' on the pay page", (await paidSeen) - mined);
  await expect(page.getByRole("heading", { name: "Payment Successful" })).toBeVisible();
  await expect(page.getByText("Thank You!")).toBeVisible();
  await expect(page.getByTestId("payment-status")).toHaveText("Paid");
  await expect(page.getByTestId("tx-hash")).toBeVisible();
  await expect(page.getByRole("link", { name: "Return to Merchant" })).toHaveAttribute(
    "href",
    "https://shop.example/thanks",
  );
});

test("Already paid? a transaction hash pasted on the pay page turns the payment Paid", async ({ page }) => {
  await createMerchant(page.request);
  const payment = await createPayment(page.request, { currency: "CPXTB", amount: "7" });
  await page.goto(`/pay/${payment.reference}`);
  // The first page load on a loaded machine may take longer than expect's default.
  await expect(page.getByTestId("payment-status")).toHaveText("Awaiting payment", { timeout: 20_000 });
  await page.getByText("Already paid? Paste the transaction hash").click();
  const field = page.getByLabel("Transaction hash");
  await field.fill("0x1234");
  await page.getByRole("button", { name: "Check transaction" }).click();
  await expect(page.getByText(/Enter the transaction hash: 0x followed by 64/)).toBeVisible();
  // Paid from an exchange: a rounded amount (without the unique tag) that the indexer cannot attribute.
  const due = BigInt(payment.amountDueBase);
  const cent = 10n ** 16n;
  const hash = await payFromDevAccount(page.request, payment.receivingAddress, due + cent - (due % cent));
  await field.fill(hash);
  await page.getByRole("button", { name: "Check transaction" }).click();
  await expect(page.getByTestId("payment-status")).toHaveText("Paid");
  await expect(page.getByRole("heading", { name: "Payment Successful" })).toBeVisible();
  await expect(page.getByText(/CPXTB more than due/)).toBeVisible();
});

test("an unknown reference says so and asks not to pay", async ({ page }) => {
  await page.goto("/pay/AAAAAAAAAAAAAAAAAAAAAAAAAA");
  await expect(page.getByRole("heading", { name: "Payment not found" })).toBeVisible();
});

test("an expired payment says so and Regenerate Payment opens a new one", async ({ page }) => {
  test.setTimeout(120_000);
  await createMerchant(page.request);
  const payment = await createPayment(page.request, { currency: "USD", amount: "3.00", expiresInMinutes: 1 });
  await page.goto(`/pay/${payment.reference}`);
  await expect(page.getByTestId("amount-due")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Payment Expired" })).toBeVisible({ timeout: 75_000 });
  await expect(page.getByTestId("payment-status")).toHaveText("Expired");
  // Opened again, the page arrives expired from the server: no countdown or QR to pay first (issue 14).
  const expiredHtml = await (await page.request.get(`/pay/${payment.reference}`)).text();
  expect(expiredHtml).toContain("Payment Expired");
  expect(expiredHtml).not.toContain('data-slot="qr-code"');
  expect(expiredHtml).not.toContain('data-testid="countdown"');
  await page.getByRole("button", { name: "Regenerate Payment" }).click();
  await expect(page).not.toHaveURL(new RegExp(payment.reference));
  await expect(page).toHaveURL(/\/pay\/[A-Za-z0-9_-]{22,}$/);
  await expect(page.getByTestId("payment-status")).toHaveText("Awaiting payment");
  // A fresh window: the default expiry of a new payment (15 minutes), not the old one's minute.
  await expect(page.getByTestId("countdown")).toHaveText(/Expires in 1[45]:\d\d/);
});

test("a payment is found by reference and its receipt shows its status", async ({ page }) => {
  await createMerchant(page.request);
  const payment = await createPayment(page.request, { currency: "CPXTB", amount: "7" });
  await page.goto("/payment");
  await page.getByLabel("Payment reference or link").fill("not a reference");
  await page.getByRole("button", { name: "Find payment" }).click();
  await expect(page.getByRole("alert")).toContainText("Enter the reference");
  await page.getByLabel("Payment reference or link").fill(`https://x.example/pay/${payment.reference}`);
  await page.getByRole("button", { name: "Find payment" }).click();
  await expect(page).toHaveURL(new RegExp(`/payment/${payment.reference}$`));
  await expect(page.getByRole("heading", { name: "Corner Coffee" })).toBeVisible();
  await expect(page.getByTestId("payment-status")).toHaveText("Awaiting payment");
  await payFromDevAccount(page.request, payment.receivingAddress, BigInt(payment.amountDueBase));
  await expect(page.getByTestId("payment-status")).toHaveText("Paid");
  await expect(page.getByTestId("amount-received")).toHaveText(
    `${payment.amountDue.replace(/0+$/, "")} CPXTB`,
  );
});

test("/easy-payment opens a payment from its reference, ready to pay; a bad reference is explained", async ({
  page,
}) => {
  await createMerchant(page.request);
  const payment = await createPayment(page.request, { currency: "CPXTB", amount: "3" });
  await page.goto("/easy-payment?ref=not-a-reference");
  await expect(page.getByRole("alert")).toContainText("does not carry a valid payment reference");
  await page.getByLabel("Payment reference or link").fill(payment.reference);
  await page.getByRole("button", { name: "Open payment" }).click();
  await expect(page).toHaveURL(new RegExp(`/easy-payment\\?ref=${payment.reference}$`));
  await expect(page.getByRole("heading", { level: 1, name: "Corner Coffee" })).toBeVisible();
  await expect(page.getByTestId("payment-status")).toHaveText("Awaiting payment");
  await expect(page.getByRole("button", { name: /Pay .* CPXTB/ })).toBeVisible();
});

test("a new user is asked to register the business first", async ({ page }) => {
  const username = `pay_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  expect((await page.request.post("/api/register", { data: { username, password: PASSWORD } })).ok()).toBe(
    true,
  );
  await page.goto("/merchant");
  await expect(page.getByRole("heading", { name: "Register your business" })).toBeVisible();
  await page.getByRole("button", { name: "Sign with wallet and register" }).click();
  await expect(page.getByText("The business name needs 2 to 100 characters.")).toBeVisible();
});

test("the dashboard creates a payment with link and QR and shows it paid live, with the notification", async ({
  page,
}) => {
  await createMerchant(page.request);
  await page.goto("/merchant");
  await expect(page.getByText("Automatic Payment Detection Active")).toBeVisible();
  await expect(page.getByText("No payments yet.")).toBeVisible();
  await page.getByLabel("Amount").fill("4.25");
  await page.getByLabel("Currency").selectOption("CPXTB");
  await page.getByLabel("Description (optional)").fill("Croissant");
  await page.getByRole("button", { name: "Create payment" }).click();
  const created = page.getByTestId("new-payment");
  await expect(created.getByRole("img", { name: "QR code of the new payment" })).toBeVisible();
  const link = await created.getByRole("link").textContent();
  const reference = link!.split("/pay/")[1]!;
  const row = page.getByTestId("recent-payments").locator(`li[data-reference="${reference}"]`);
  await expect(row).toContainText("Awaiting payment");
  await expect(row).toContainText("Croissant");

  const pub = await (await page.request.get(`/api/payments/public/${reference}`)).json();
  // Live on the dashboard too, without a reload (the time is printed; the budget is measured by the bench).
  const paidSeen = page
    .waitForFunction(
      (ref) => document.querySelector(`li[data-reference="${ref}"]`)?.textContent?.includes("Paid") === true,
      reference,
      { polling: "raf", timeout: 15_000 },
    )
    .then(() => Date.now());
  await payFromDevAccount(page.request, pub.receivingAddress, BigInt(pub.amountDueBase));
  const mined = Date.now();
  reportLatency("ms from the confirming block to 'Paid' on the dashboard", (await paidSeen) - mined);
  await expect(row).toContainText("Paid");
  const notification = page.getByTestId("payment-notification");
  await expect(notification).toContainText("Payment received");
  await notification.getByRole("button", { name: "Dismiss" }).click();
  await expect(notification).toBeHidden();
});

test("the business is registered in the dashboard with a wallet signature", async ({ page }) => {
  await installWallet(page, generatePrivateKey());
  const username = `pay_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  expect((await page.request.post("/api/register", { data: { username, password: PASSWORD } })).ok()).toBe(
    true,
  );
  await page.goto("/merchant");
  await page.getByLabel("Business name").fill("Harbour Books");
  await page.getByLabel("Contact email").fill("books@example.com");
  await page.getByRole("button", { name: "Sign with wallet and register" }).click();
  await expect(page.getByText("Harbour Books")).toBeVisible();
  await expect(page.getByRole("heading", { name: "New payment" })).toBeVisible();
});

test("Pay with wallet sends the exact amount from the browser wallet and the page turns paid", async ({
  page,
}) => {
  await createMerchant(page.request);
  const payment = await createPayment(page.request, { currency: "CPXTB", amount: "3" });
  await installWallet(page, BROWSER_PAYER_KEY);
  await page.goto(`/pay/${payment.reference}`);
  const shown = payment.amountDue.replace(/0+$/, "");
  await page.getByRole("button", { name: `Pay ${shown} CPXTB` }).click();
  await expect(page.getByRole("heading", { name: "Payment Successful" })).toBeVisible({ timeout: 10_000 });
  const after = await (await page.request.get(`/api/payments/public/${payment.reference}`)).json();
  expect(after.amountReceivedBase).toBe(payment.amountDueBase);
  expect(after.status).toBe("completed");
});

test("a wallet without enough CPXTB is told Insufficient Balance and nothing is sent", async ({ page }) => {
  await createMerchant(page.request);
  const payment = await createPayment(page.request, { currency: "CPXTB", amount: "2" });
  await installWallet(page, generatePrivateKey());
  await page.goto(`/pay/${payment.reference}`);
  await page.getByTestId("pay-with-wallet").click();
  await expect(page.getByRole("alert")).toContainText("Insufficient Balance");
  await expect(page.getByTestId("payment-status")).toHaveText("Awaiting payment");
});

test("the business is edited: details, payment page look, and a new wallet proven by its signature", async ({
  page,
}) => {
  const newWallet = generatePrivateKey();
  await installWallet(page, newWallet);
  const { address: oldAddress } = await createMerchant(page.request);
  await page.goto("/merchant");
  await page.getByRole("button", { name: "Edit business" }).click();
  const sheet = page.getByRole("dialog", { name: "Edit business" });
  await expect(sheet.getByTestId("current-wallet")).toHaveText(oldAddress);
  await sheet.getByLabel("Business name").fill("Corner Coffee & Cake");
  await sheet.getByLabel("Brand colour (optional)").fill("teal");
  await sheet.getByRole("button", { name: "Save changes" }).click();
  await expect(sheet.getByText("Enter a colour like #1a7f5a")).toBeVisible();
  await sheet.getByLabel("Brand colour (optional)").fill("#0F766E");
  await sheet.getByText("Always dark").click();
  await sheet.getByLabel("Receive at the wallet connected in my browser instead").check();
  await sheet.getByRole("button", { name: "Save changes" }).click();
  await expect(toast(page, "Business details saved")).toBeVisible();
  await expect(sheet).toBeHidden();
  await expect(page.getByTestId("business-name")).toHaveText("Corner Coffee & Cake");
  const saved = await (await page.request.get("/api/merchant")).json();
  expect(saved).toMatchObject({ name: "Corner Coffee & Cake", brandColor: "#0f766e", pageTheme: "dark" });
  expect(saved.walletAddress).not.toBe(oldAddress);
  expect(saved.walletAddress).toBe(privateKeyToAccount(newWallet).address);

  // The pay page wears the new look: dark theme, the brand colour on the pay button with readable text.
  const payment = await createPayment(page.request, { currency: "CPXTB", amount: "2" });
  expect(payment.receivingAddress).toBe(saved.walletAddress);
  await page.goto(`/pay/${payment.reference}`);
  await expect(page.getByTestId("pay-page")).toHaveClass(/\bdark\b/);
  const button = page.getByTestId("pay-with-wallet");
  await expect(button).toHaveCSS("background-color", "rgb(15, 118, 110)");
  await expect(button).toHaveCSS("color", "rgb(255, 255, 255)");
});

test("history: search, status filter and pages; the detail shows the timeline, verifies a hash, saves QR and poster", async ({
  page,
  consoleGuard,
}) => {
  test.setTimeout(60_000);
  // The refused verification below (unknown hash) is a 404 answer, which Chromium logs.
  consoleGuard.allow(/status of 404/);
  await createMerchant(page.request);
  const espresso = await createPayment(page.request, {
    currency: "CPXTB",
    amount: "5",
    description: "Espresso",
    orderId: "E-1",
  });
  for (let i = 0; i < 20; i++) {
    await createPayment(page.request, { currency: "USD", amount: `${i + 1}.00`, orderId: `BULK-${i}` });
  }
  const posterChunks: string[] = [];
  page.on("request", (request) => {
    if (/\/assets\/poster-[^/]+\.js$/.test(request.url())) posterChunks.push(request.url());
  });
  await page.goto("/merchant");
  const list = page.getByTestId("recent-payments");
  await expect(list.locator("li")).toHaveCount(20);
  await expect(page.getByText("20 payments shown")).toBeVisible();
  await page.getByRole("button", { name: "Show more" }).click();
  await expect(list.locator("li")).toHaveCount(21);
  await expect(page.getByRole("button", { name: "Show more" })).toBeHidden();

  await page.getByLabel("Search payments").fill("espr");
  await expect(list.locator("li")).toHaveCount(1);
  await expect(list.locator(`li[data-reference="${espresso.reference}"]`)).toContainText("Espresso");
  await page.getByLabel("Status").selectOption("completed");
  await expect(page.getByText("No payment matches “espr” with the status Paid.")).toBeVisible();
  await page.getByRole("button", { name: "Clear search and filter" }).click();
  // Back to the whole list as it was, both pages.
  await expect(list.locator("li")).toHaveCount(21);
  await page.getByLabel("Search payments").fill(espresso.reference);
  await expect(list.locator("li")).toHaveCount(1);

  await list.getByRole("button", { name: /Espresso/ }).click();
  const detail = page.getByRole("dialog", { name: "Payment details" });
  await expect(detail.getByTestId("detail-status")).toHaveText("Awaiting payment");
  await expect(detail.getByTestId("detail-link")).toHaveText(new RegExp(`/pay/${espresso.reference}$`));
  await expect(detail.getByRole("img", { name: /QR code to pay/ })).toHaveAttribute(
    "data-value",
    espresso.paymentUri,
  );
  await expect(detail.getByTestId("detail-timeline")).toContainText("created");

  // A hash the chain does not know: the server's own words, not a status code.
  await detail.getByRole("textbox", { name: "Transaction hash" }).fill(`0x${"ab".repeat(32)}`);
  await detail.getByRole("button", { name: "Verify" }).click();
  await expect(detail.getByTestId("verify-error")).toContainText(
    "This transaction is not in a block yet. Try again once it is mined.",
  );
  // 4 CPXTB without the tag: the indexer cannot match it; the hash ties it to this payment (partial).
  const config = await (await page.request.get("/api/chain-config")).json();
  const hash = await payFromDevAccount(
    page.request,
    espresso.receivingAddress,
    4n * 10n ** BigInt(config.token.decimals),
  );
  await expect
    .poll(async () => (await (await page.request.get("/api/merchant/inbox")).json()).items.length)
    .toBe(1);
  await detail.getByRole("textbox", { name: "Transaction hash" }).fill(hash);
  await detail.getByRole("button", { name: "Verify" }).click();
  await expect(detail.getByTestId("verify-result")).toHaveText(
    "Transaction verified. The payment is now: Partly paid.",
  );
  await expect(detail.getByTestId("detail-status")).toHaveText("Partly paid");
  await expect(detail.getByTestId("detail-received")).toHaveText("4 CPXTB");
  await expect(detail.getByTestId("detail-timeline")).toContainText(hash);
  await expect(detail.getByTestId("detail-transfers")).toContainText("by transaction hash");
  await expect(detail.getByTestId("verify-error")).toBeHidden();
  await expect(list.locator(`li[data-reference="${espresso.reference}"]`)).toContainText("Partly paid");

  const png = page.waitForEvent("download");
  await detail.getByRole("button", { name: "QR as PNG" }).click();
  const pngFile = await (await png).path();
  expect((await readFile(pngFile)).subarray(1, 4).toString()).toBe("PNG");
  const svg = page.waitForEvent("download");
  await detail.getByRole("button", { name: "QR as SVG" }).click();
  expect((await svg).suggestedFilename()).toMatch(/^cpxtb-payment-.+\.svg$/);
  expect(await readFile(await (await svg).path(), "utf8")).toMatch(/^<svg [^>]*viewBox/);

  expect(posterChunks, "pdf-lib loads only when a poster is asked for").toEqual([]);
  const pdf = page.waitForEvent("download");
  await detail.getByRole("button", { name: "Poster (PDF)" }).click();
  const pdfFile = await pdf;
  expect(pdfFile.suggestedFilename()).toMatch(/^cpxtb-poster-.+\.pdf$/);
  const doc = await PDFDocument.load(await readFile(await pdfFile.path()));
  expect(doc.getTitle()).toBe("Payment poster - Corner Coffee");
  expect(doc.getSubject()).toBe(`CPXTB payment ${espresso.reference}`);
  expect(posterChunks).toHaveLength(1);
});

test("the owner sees a payment on /payments; another merchant's dashboard lists and finds none", async ({
  page,
}) => {
  await createMerchant(page.request);
  const mine = await createPayment(page.request, { currency: "CPXTB", amount: "1", description: "Secret" });
  // The owner finds it on the Payment History page too, with its detail.
  await page.goto("/payments");
  await page
    .getByTestId("recent-payments")
    .getByRole("button", { name: /Secret/ })
    .click();
  await expect(page.getByRole("dialog", { name: "Payment details" }).getByTestId("detail-status")).toHaveText(
    "Awaiting payment",
  );
  await page.context().clearCookies();
  await createMerchant(page.request);
  await page.goto("/merchant");
  await expect(page.getByText("No payments yet.")).toBeVisible();
  await page.getByLabel("Search payments").fill(mine.reference);
  await expect(page.getByText(`No payment matches “${mine.reference}”.`)).toBeVisible();
  const direct = await page.request.get(`/api/merchant/payments/${mine.id}`);
  expect(direct.status()).toBe(404);
});
