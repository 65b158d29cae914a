import { encodeFunctionData, erc20Abi, type Hex } from "viem";
import { baseURL } from "../playwright.config";
import { expect, test } from "./fixtures";
import { createMerchant, createPayment, sendSigned } from "./support/payments";

/**
 * Anvil's public development key #1 (10,000 demo CPXTB, never used on a real network): funds the managed wallets
 * here. The other suites only sign messages with it, so its nonces never race theirs.
 */
const FUNDER_KEY = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d" as Hex;

// Several page loads and a chain round trip each: more time than a one-page test on a busy machine.
test.describe.configure({ mode: "serial", timeout: 120_000 });

/** The development provider page stands in for Google on a server without credentials. */
async function signInOnDevPage(page: import("@playwright/test").Page, name: string, email: string) {
  await page.getByRole("button", { name: "Continue with Google" }).click();
  // Spec section 4: a visible "Redirecting..." for 1.5 s before the browser leaves.
  await expect(page.getByRole("button", { name: "Redirecting..." })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Sign in with Google (development)" })).toBeVisible({
    timeout: 15_000,
  });
  await expect(page.getByText("Development only")).toBeVisible();
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Continue" }).click();
}

test("real login through the development provider page signs in and comes back", async ({ page }) => {
  await page.goto("/auth");
  await expect(page.getByTestId("social-sign-in")).toBeVisible({ timeout: 30_000 });
  for (const name of ["Google", "Facebook", "X", "Apple"]) {
    await expect(page.getByRole("button", { name: `Continue with ${name}` })).toBeVisible();
  }
  const email = `ada-${Date.now()}@example.com`;
  await signInOnDevPage(page, "Ada Lovelace", email);
  await expect(page).toHaveURL(/\/auth$/, { timeout: 30_000 });
  await expect(page.getByText(/You are signed in as google_ada_lovelace/)).toBeVisible({ timeout: 30_000 });
});

test("a social account pays on /easy-payment from its managed wallet; the page turns Paid", async ({
  page,
  playwright,
}) => {
  const merchant = await playwright.request.newContext({ baseURL });
  await createMerchant(merchant);
  const payment = await createPayment(merchant, { currency: "CPXTB", amount: "7.5" });
  await merchant.dispose();

  await page.goto(`/easy-payment?ref=${payment.reference}`);
  await expect(page.getByTestId("managed-wallet-sign-in")).toBeVisible({ timeout: 30_000 });
  await signInOnDevPage(page, "Pat Payer", `pat-${Date.now()}@example.com`);
  await expect(page).toHaveURL(new RegExp(`/easy-payment\\?ref=${payment.reference}$`));
  await expect(page.getByTestId("managed-wallet")).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId("managed-balance")).toHaveText("0 CPXTB");

  // Fund the managed wallet with 20 CPXTB (it holds no ETH: the server tops up its gas).
  const wallet = await (await page.request.get("/api/wallet")).json();
  const config = await (await page.request.get("/api/chain-config")).json();
  await sendSigned(page.request, FUNDER_KEY, {
    to: config.token.address as Hex,
    data: encodeFunctionData({
      abi: erc20Abi,
      functionName: "transfer",
      args: [wallet.address, 20n * 10n ** 18n],
    }),
  });
  await page.reload();
  await expect(page.getByTestId("managed-balance")).toHaveText("20 CPXTB", { timeout: 30_000 });

  const shown = payment.amountDue.replace(/0+$/, "");
  await page.getByRole("button", { name: `Pay ${shown} CPXTB from my wallet` }).click();
  await expect(page.getByTestId("balance-before")).toHaveText("20 CPXTB");
  await expect(page.getByRole("heading", { name: "Payment Successful" })).toBeVisible({ timeout: 30_000 });
  const left = (20 - Number(shown)).toFixed(6).replace(/\.?0+$/, "");
  await expect(page.getByTestId("managed-balance")).toHaveText(`${left} CPXTB`);
});
