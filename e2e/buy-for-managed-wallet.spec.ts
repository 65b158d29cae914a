import type { APIRequestContext } from "@playwright/test";
import { encodeFunctionData, erc20Abi, type Hex, parseEther, parseUnits } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { expect, test } from "./fixtures";
import { installWallet, PAYER_KEY, sendSigned } from "./support/payments";
import { signInOnDevPage } from "./support/social";

/**
 * Issue 34, decision 032: a payer signed in with Google buys CPXTB for the managed wallet. The ETH comes from a
 * browser wallet (proven with a signature, as for any ETH order); the CPXTB arrives in the managed wallet, once.
 * `SCREENSHOTS_DIR=/tmp/shots` also saves the buy page and the order at 390 and 1280 px, light and dark.
 */
test.describe.configure({ timeout: 180_000 });

async function tokenBalance(request: APIRequestContext, address: string): Promise<bigint> {
  const config = await (await request.get("/api/chain-config")).json();
  const data = encodeFunctionData({ abi: erc20Abi, functionName: "balanceOf", args: [address as Hex] });
  const response = await request.post("/api/chain/rpc", {
    data: {
      jsonrpc: "2.0",
      id: 1,
      method: "eth_call",
      params: [{ to: config.token.address, data }, "latest"],
    },
  });
  return BigInt((await response.json()).result);
}

test("bought with ETH from a browser wallet, the CPXTB arrives in the managed wallet", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  // A browser wallet of its own (ETH only), so no other test's purchases touch it.
  const key = generatePrivateKey();
  const browserWallet = privateKeyToAccount(key).address;
  await sendSigned(page.request, PAYER_KEY, { to: browserWallet, value: parseEther("1") });
  await installWallet(page, key);

  await page.goto("/auth");
  await signInOnDevPage(page, "Bea Santos", `bea-${Date.now()}@example.com`);
  const landing = page.getByTestId("payer-landing");
  await expect(landing).toContainText("Welcome, Bea Santos", { timeout: 30_000 });
  const wallet = await (await page.request.get("/api/wallet")).json();
  await landing.getByRole("link", { name: "Buy CPXTB" }).click();

  await expect(page).toHaveURL(/\/buy-cpxtb\?to=managed$/);
  const choice = page.getByTestId("buy-deliver-to");
  await expect(choice.getByLabel(/My CPXTB wallet/)).toBeChecked({ timeout: 30_000 });
  await expect(choice).toContainText(wallet.address);
  await expect(page.getByTestId("buy-managed-note")).toContainText("arrives in your CPXTB wallet");
  await page.getByLabel("Amount (USD)").fill("5");
  await expect(page.getByLabel("CPXTB Tokens to Receive")).toHaveValue("500");
  const dir = process.env.SCREENSHOTS_DIR;
  if (dir) {
    for (const [width, height] of [
      [390, 844],
      [1280, 900],
    ] as const) {
      await page.setViewportSize({ width, height });
      await page.screenshot({ path: `${dir}/buy-for-managed-${width}.png`, fullPage: true });
    }
    await page.setViewportSize({ width: 390, height: 844 });
  }
  await page.getByRole("button", { name: "Buy with ETH" }).click();

  await expect(page).toHaveURL(/\/buy-cpxtb\/orders\/ord_[0-9a-z]{26}$/, { timeout: 30_000 });
  await expect(page.getByTestId("order-deliver-to")).toContainText(wallet.address);
  await page.getByRole("button", { name: "Pay 0.0025 ETH" }).click();
  await expect(page.getByText("Purchase Complete!")).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId("delivered-text")).toContainText("500 CPXTB were sent to your CPXTB wallet");

  const id = page.url().split("/").pop()!;
  const order = await (await page.request.get(`/api/buy/orders/${id}`)).json();
  expect(order).toMatchObject({
    status: "delivered",
    buyerAddress: browserWallet,
    deliveryAddress: wallet.address,
    toManagedWallet: true,
  });
  expect(order.payment.from).toBe(browserWallet);
  expect(await tokenBalance(page.request, wallet.address)).toBe(parseUnits("500", 18));
  expect(await tokenBalance(page.request, browserWallet)).toBe(0n);
  await expect
    .poll(async () => (await (await page.request.get("/api/wallet")).json()).balance, { timeout: 30_000 })
    .toBe("500");
  if (dir) {
    for (const theme of ["light", "dark"]) {
      await page.evaluate((t) => window.localStorage.setItem("cpxtb-pay-theme", t), theme);
      await page.reload();
      await expect(page.getByText("Purchase Complete!")).toBeVisible({ timeout: 30_000 });
      await page.screenshot({ path: `${dir}/buy-order-managed-390-${theme}.png`, fullPage: true });
    }
  }
});
