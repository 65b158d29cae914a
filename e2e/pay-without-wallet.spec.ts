import { readFile } from "node:fs/promises";
import { parse } from "eth-url-parser";
import { baseURL } from "../playwright.config";
import { expect, test } from "./fixtures";
import { type Catalog, catalogOf, fillIn, selectCase } from "./support/i18n";
import { createMerchant, createPayment, payFromDevAccount } from "./support/payments";
import { signInOnDevPage } from "./support/social";

/** The profile's list of sends speaks the "wallet" catalog: its English words (the source). */
const en: Catalog = catalogOf("en", ["wallet"]);
const confirmed = selectCase(en["wallet.sends.state"]!, "confirmed");

/**
 * Issue 34: the link a merchant shares is the way in for a payer without a wallet, on a phone. The page offers
 * an `ethereum:` link for the installed wallet app, and "No wallet? Continue with Google" leads back to the same
 * payment with a managed wallet that shows what is missing and pays once the funds are there.
 * `SCREENSHOTS_DIR=/tmp/shots` also saves the managed-wallet card at 390 px, light and dark.
 */
test.describe.configure({ timeout: 180_000 });
test.use({ viewport: { width: 390, height: 844 } });

const TOKEN = 10n ** 18n;

async function chainConfig(request: import("@playwright/test").APIRequestContext) {
  return (await request.get("/api/chain-config")).json();
}

test("the wallet-app link carries the token, the merchant's address and what is left to pay", async ({
  page,
  playwright,
}) => {
  const merchant = await playwright.request.newContext({ baseURL });
  const { address } = await createMerchant(merchant);
  const payment = await createPayment(merchant, { currency: "CPXTB", amount: "6" });
  await merchant.dispose();
  const config = await chainConfig(page.request);

  await page.goto(`/pay/${payment.reference}`);
  const link = page.getByRole("link", { name: "Open in wallet app" });
  await expect(link).toBeVisible();
  const full = parse((await link.getAttribute("href"))!);
  expect(full).toMatchObject({
    scheme: "ethereum",
    target_address: config.token.address,
    chain_id: String(config.chainId),
    function_name: "transfer",
    parameters: { address, uint256: payment.amountDueBase },
  });

  // 2 CPXTB arrive (tied to the payment by its hash): the link now asks for what remains, as the QR code does.
  const hash = await payFromDevAccount(page.request, address, 2n * TOKEN);
  await expect
    .poll(
      async () =>
        (
          await page.request.post(`/api/payments/public/${payment.reference}/tx`, { data: { txHash: hash } })
        ).status(),
      { timeout: 30_000 },
    )
    .toBe(200);
  await expect(page.getByTestId("payment-status")).toHaveText("Partly paid", { timeout: 30_000 });
  const current = await (await page.request.get(`/api/payments/public/${payment.reference}`)).json();
  const left = BigInt(current.amountToPayBase);
  expect(left).toBeLessThan(BigInt(payment.amountDueBase));
  expect(left).toBeGreaterThanOrEqual(BigInt(payment.amountDueBase) - 2n * TOKEN);
  await expect
    .poll(async () => parse((await link.getAttribute("href"))!).parameters?.uint256)
    .toBe(left.toString());
  const partial = parse((await link.getAttribute("href"))!);
  expect(partial).toMatchObject({ target_address: config.token.address, parameters: { address } });
  await expect(page.getByRole("img", { name: /QR code to pay/ })).toHaveAttribute(
    "data-value",
    current.paymentUri,
  );
});

test("no wallet: Continue with Google, back on the same payment, see what is missing, funds arrive, Pay turns on, Paid", async ({
  page,
  playwright,
}) => {
  const merchant = await playwright.request.newContext({ baseURL });
  const { address } = await createMerchant(merchant);
  const payment = await createPayment(merchant, { currency: "CPXTB", amount: "7.5" });
  await merchant.dispose();
  const shown = payment.amountDue.replace(/\.?0+$/, "");

  await page.goto(`/pay/${payment.reference}`);
  await expect(page.getByRole("link", { name: "Open in wallet app" })).toHaveAttribute(
    "href",
    payment.paymentUri,
  );
  const social = page.getByRole("button", { name: "No wallet? Continue with Google / Facebook / X / Apple" });
  await social.click({ timeout: 30_000 });
  for (const name of ["Google", "Facebook", "X", "Apple"]) {
    await expect(page.getByRole("button", { name: `Continue with ${name}`, exact: true })).toBeVisible();
  }
  await signInOnDevPage(page, "Wanda Walletless", `wanda-${Date.now()}@example.com`);
  await expect(page).toHaveURL(new RegExp(`/pay/${payment.reference}$`));

  const card = page.getByTestId("managed-wallet");
  await expect(card).toBeVisible({ timeout: 30_000 });
  const wallet = await (await page.request.get("/api/wallet")).json();
  await expect(card.getByTestId("managed-address")).toHaveText(wallet.address);
  await expect(card.getByTestId("managed-balance")).toHaveText("0 CPXTB");
  await expect(card.getByTestId("managed-missing")).toContainText(`You need ${shown} more CPXTB`);
  // Buying from the card delivers to this wallet (the server takes its address from the session), and says so.
  await expect(card.getByTestId("managed-buy")).toHaveAttribute(
    "href",
    `/buy-cpxtb?to=managed&return=${encodeURIComponent(`/pay/${payment.reference}`)}&tokens=${shown}`,
  );
  await expect(card.getByTestId("managed-buy-note")).toContainText("Bought CPXTB arrives in this wallet");
  // The address as a QR code too (for a wallet or exchange app on another device).
  await expect(card.getByRole("img", { name: /QR code of your CPXTB wallet's address/ })).toHaveAttribute(
    "data-value",
    wallet.address,
  );
  await expect(card.getByTestId("managed-qr").locator("svg path")).toHaveCount(1);
  const pay = page.getByRole("button", { name: `Pay ${shown} CPXTB from my wallet` });
  await expect(pay).toBeDisabled();
  await expect(page.getByText(`Pay turns on when your wallet holds ${shown} CPXTB.`)).toBeVisible();
  // One Pay button: the managed wallet's replaces the browser-wallet one.
  await expect(page.getByTestId("pay-with-wallet")).toHaveCount(0);

  const dir = process.env.SCREENSHOTS_DIR;
  if (dir) {
    for (const theme of ["light", "dark"]) {
      await page.evaluate((t) => window.localStorage.setItem("cpxtb-pay-theme", t), theme);
      await page.reload();
      await expect(card.getByTestId("managed-missing")).toBeVisible({ timeout: 30_000 });
      await page.screenshot({ path: `${dir}/pay-managed-wallet-390-${theme}.png`, fullPage: true });
      await page.setViewportSize({ width: 1280, height: 900 });
      await expect(card.getByTestId("managed-missing")).toBeVisible();
      await page.screenshot({ path: `${dir}/pay-managed-wallet-1280-${theme}.png`, fullPage: true });
      await page.setViewportSize({ width: 390, height: 844 });
    }
  }

  // Tokens sent on chain to the managed wallet's address: Pay turns on by itself, no reload.
  let loads = 0;
  page.on("load", () => loads++);
  await payFromDevAccount(page.request, wallet.address, 10n * TOKEN);
  await expect(pay).toBeEnabled({ timeout: 30_000 });
  await expect(card.getByTestId("managed-balance")).toHaveText("10 CPXTB");
  await expect(card.getByTestId("managed-missing")).toHaveCount(0);
  expect(loads).toBe(0);

  await pay.click();
  await expect(page.getByRole("heading", { name: "Payment Successful" })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId("payment-status")).toHaveText("Paid");
  const paid = await (await page.request.get(`/api/payments/public/${payment.reference}`)).json();
  expect(paid.receivingAddress).toBe(address);
  expect(paid.amountReceivedBase).toBe(payment.amountDueBase);

  // The receipt: the payer's PDF, for this payment.
  const download = page.waitForEvent("download");
  await page.getByTestId("download-receipt").click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`receipt-${payment.reference.slice(0, 8)}.pdf`);
  expect((await readFile((await file.path())!)).subarray(0, 5).toString()).toBe("%PDF-");

  // A payer-only account's app: greeted by the provider's name, payer things and "Register a Business", none of
  // the merchant's tools.
  await page.goto("/");
  await page.getByRole("button", { name: "Open menu" }).click();
  const menu = page.getByRole("dialog");
  await expect(menu.getByTestId("menu-username")).toHaveText("Wanda Walletless");
  const main = menu.getByRole("navigation", { name: "Main" }).getByRole("link");
  await expect(main).toHaveText([
    "Home",
    "My Wallet & Payments Made",
    "Buy CPXTB Tokens",
    "Register a Business",
    "Blog",
    "Contact Us",
    "Platform Presentation",
  ]);
  for (const tool of ["Webhooks", "Developers", "Audit Log", "Merchant Dashboard", "Reports & Analytics"]) {
    await expect(menu.getByRole("link", { name: tool })).toHaveCount(0);
  }
  if (dir) await page.screenshot({ path: `${dir}/menu-payer-390.png` });
  await page.keyboard.press("Escape");

  // The landing screen after sign-in is the payer's, not the merchant dashboard.
  await page.goto("/auth");
  const landing = page.getByTestId("payer-landing");
  await expect(landing).toContainText("Welcome, Wanda Walletless", { timeout: 30_000 });
  await expect(landing.getByRole("link", { name: "Register a business" })).toHaveAttribute(
    "href",
    "/merchant",
  );
  await expect(landing.getByRole("link", { name: "Buy CPXTB" })).toHaveAttribute(
    "href",
    "/buy-cpxtb?to=managed",
  );
  if (dir) await page.screenshot({ path: `${dir}/auth-payer-landing-390.png`, fullPage: true });
  await landing.getByRole("link", { name: "Open my wallet" }).click();

  // The payment made is on the profile, in its final state once mined, with its transaction.
  const section = page.getByTestId("managed-wallet-section");
  const sent = section.getByTestId("wallet-send").first();
  await expect(sent).toContainText(`${en["wallet.sends.payment"]} ${shown} CPXTB`, { timeout: 30_000 });
  await expect(sent.getByTestId("wallet-send-state")).toHaveText(confirmed, { timeout: 45_000 });
  await expect(sent.getByTestId("wallet-send-tx")).toContainText(
    new RegExp(fillIn(en["wallet.sends.tx"]!, { txHash: "0x[0-9a-f]{64}" })),
  );
  await expect(section.getByTestId("managed-wallet-buy")).toHaveAttribute("href", "/buy-cpxtb?to=managed");
  await expect(sent.getByRole("link", { name: en["wallet.sends.thePayment"] })).toHaveAttribute(
    "href",
    `/pay/${payment.reference}`,
  );
  if (dir) {
    for (const [width, height] of [
      [390, 844],
      [1280, 900],
    ] as const) {
      for (const theme of ["light", "dark"]) {
        await page.setViewportSize({ width, height });
        await page.evaluate((t) => window.localStorage.setItem("cpxtb-pay-theme", t), theme);
        await page.reload();
        await expect(section.getByTestId("wallet-send-state").first()).toHaveText(confirmed, {
          timeout: 30_000,
        });
        await page.screenshot({ path: `${dir}/profile-wallet-${width}-${theme}.png`, fullPage: true });
      }
    }
  }
});
