import type { APIRequestContext } from "@playwright/test";
import { encodeFunctionData, erc20Abi, type Hex, parseUnits } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { expect, test } from "./fixtures";
import { createMerchant, createPayment, installWallet } from "./support/payments";

/** Anvil's public development keys #5 and #6 (10,000 ETH each, no CPXTB): one buyer per test, never shared. */
const BUYER_KEY = "0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba" as const;
const PAY_PAGE_BUYER_KEY = "0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e" as const;

async function rpc(request: APIRequestContext, method: string, params: unknown[] = []) {
  const response = await request.post("/api/chain/rpc", { data: { jsonrpc: "2.0", id: 1, method, params } });
  const body = await response.json();
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}
async function balances(request: APIRequestContext, address: string) {
  const config = await (await request.get("/api/chain-config")).json();
  const data = encodeFunctionData({ abi: erc20Abi, functionName: "balanceOf", args: [address as Hex] });
  const [eth, token] = await Promise.all([
    rpc(request, "eth_getBalance", [address, "latest"]),
    rpc(request, "eth_call", [{ to: config.token.address, data }, "latest"]),
  ]);
  return { eth: BigInt(eth), token: BigInt(token) };
}

/** The CPXTB transfers a transaction made (its token's Transfer events), addresses in lower case. */
async function tokensSent(request: APIRequestContext, txHash: string) {
  const config = await (await request.get("/api/chain-config")).json();
  const receipt = await rpc(request, "eth_getTransactionReceipt", [txHash]);
  const transfer = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";
  return (receipt.logs as { address: string; topics: string[]; data: string }[])
    .filter(
      (log) => log.address.toLowerCase() === config.token.address.toLowerCase() && log.topics[0] === transfer,
    )
    .map((log) => ({
      from: `0x${log.topics[1]!.slice(26)}`,
      to: `0x${log.topics[2]!.slice(26)}`,
      amount: BigInt(log.data),
    }));
}

test("buying CPXTB with ETH: quote, pay from the wallet, delivered; balances exact to the wei", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const buyer = privateKeyToAccount(BUYER_KEY).address;
  const { treasuryAddress } = await (await page.request.get("/api/buy/config")).json();
  const before = await balances(page.request, buyer);
  await installWallet(page, BUYER_KEY);

  await page.goto("/buy-cpxtb");
  // The words about the price say where it comes from: the source in use.
  const { source } = await (await page.request.get("/api/price")).json();
  await expect(page.locator("main")).toContainText(
    source === "fixed" ? "a fixed price set by the operator" : "the live price of the CPXTB liquidity pool",
  );
  await expect(page.locator("main")).not.toContainText("live market");
  await page.getByLabel("Amount (USD)").fill("25");
  // The development price: 0.01 USD per CPXTB, 2,000 USD per ETH.
  await expect(page.getByLabel("CPXTB Tokens to Receive")).toHaveValue("2500");
  await expect(page.getByTestId("quote-eth")).toContainText("0.0125 ETH");
  await expect(page.getByTestId("quote-tokens")).toHaveText("2,500 CPXTB");
  await expect(page.getByText(source === "fixed" ? "(fixed price)" : "(liquidity pool)")).toBeVisible();
  await page.getByRole("button", { name: "Buy with ETH" }).click();

  await expect(page).toHaveURL(/\/buy-cpxtb\/orders\/ord_[0-9a-z]{26}$/);
  await expect(page.getByTestId("quote-countdown")).toHaveText(/^(10:00|9:[0-5]\d)$/);
  await expect(page.getByTestId("order-eth")).toHaveText("0.0125 ETH");
  // Before any payment nothing spins: "Payment confirmed" waits; the amounts are grouped as on the quote.
  await expect(page.getByTestId("step-paid")).toContainText("(waiting)");
  await expect(page.getByTestId("step-quoted")).toContainText("2,500 CPXTB for $25");
  await expect(page.getByTestId("order-footnote")).toContainText("This page updates by itself");
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: test.info().outputPath(`order-quoted-${width}.png`), fullPage: true });
  }
  await page.getByRole("button", { name: "Pay 0.0125 ETH" }).click();
  await expect(page.getByText("Purchase Complete!")).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId("step-delivered")).toHaveAttribute("data-done", "true");
  await expect(page.getByTestId("delivered-text")).toContainText("2,500 CPXTB were sent");
  // Complete: the page no longer promises updates.
  await expect(page.getByTestId("order-footnote")).not.toContainText("updates by itself");
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: test.info().outputPath(`order-delivered-${width}.png`), fullPage: true });
  }

  // Survives a reload: the order is the server's.
  await page.reload();
  await expect(page.getByText("Purchase Complete!")).toBeVisible({ timeout: 30_000 });

  const id = page.url().split("/").pop()!;
  const order = await (await page.request.get(`/api/buy/orders/${id}`)).json();
  expect(order.status).toBe("delivered");
  const receipt = await rpc(page.request, "eth_getTransactionReceipt", [order.payment.txHash]);
  const gas = BigInt(receipt.gasUsed) * BigInt(receipt.effectiveGasPrice);
  const after = await balances(page.request, buyer);
  expect(after.token - before.token).toBe(parseUnits("2500", 18));
  expect(before.eth - after.eth).toBe(parseUnits("0.0125", 18) + gas);
  // What the treasury sent for this order, read from its delivery transaction: the treasury's balance is shared
  // with the other worker's buys and claims, so a difference of balances would count theirs too.
  expect(await tokensSent(page.request, order.delivery.txHash)).toEqual([
    { from: treasuryAddress.toLowerCase(), to: buyer.toLowerCase(), amount: parseUnits("2500", 18) },
  ]);
});

test("a payer short of CPXTB buys it from the pay page ('Buy CPXTB Here') and comes back to pay", async ({
  page,
}) => {
  test.setTimeout(180_000);
  await createMerchant(page.request);
  const payment = await createPayment(page.request, { currency: "CPXTB", amount: "150" });
  await installWallet(page, PAY_PAGE_BUYER_KEY);
  await page.goto(`/pay/${payment.reference}`);
  await page.getByTestId("pay-with-wallet").click();
  await expect(page.getByRole("alert")).toContainText("Insufficient Balance", { timeout: 20_000 });
  await page.getByRole("link", { name: "Buy CPXTB Here" }).click();

  await expect(page).toHaveURL(/\/buy-cpxtb\?return=/);
  const tokens = await page.getByLabel("CPXTB Tokens to Receive").inputValue();
  expect(Number(tokens)).toBeGreaterThanOrEqual(150);
  await expect(page.getByTestId("quote-tokens")).toBeVisible();
  await page.getByRole("button", { name: "Buy with ETH" }).click();
  await page.getByTestId("pay-eth").click();
  await expect(page.getByText("Purchase Complete!")).toBeVisible({ timeout: 30_000 });
  await page.getByRole("link", { name: "Return to your payment" }).click();

  await expect(page).toHaveURL(new RegExp(`/pay/${payment.reference}$`));
  await page.getByTestId("pay-with-wallet").click();
  await expect(page.getByRole("heading", { name: "Payment Successful" })).toBeVisible({ timeout: 30_000 });
});
