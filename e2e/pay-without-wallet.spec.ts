import { parse } from "eth-url-parser";
import { baseURL } from "../playwright.config";
import { expect, test } from "./fixtures";
import { createMerchant, createPayment, payFromDevAccount } from "./support/payments";
import { signInOnDevPage } from "./support/social";

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
  await expect(page.getByTestId("payment-status")).toHaveText("Partially paid", { timeout: 30_000 });
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
  await expect(card.getByTestId("managed-buy")).toHaveAttribute(
    "href",
    `/buy-cpxtb?return=${encodeURIComponent(`/pay/${payment.reference}`)}&tokens=${shown}`,
  );
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
  const paid = await (await page.request.get(`/api/payments/public/${payment.reference}`)).json();
  expect(paid.receivingAddress).toBe(address);
  expect(paid.amountReceivedBase).toBe(payment.amountDueBase);
});
