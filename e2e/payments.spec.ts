import type { APIRequestContext, Page } from "@playwright/test";
import { createWalletClient, custom, encodeFunctionData, erc20Abi, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { expect, test } from "./fixtures";

/**
 * Payments for real on the embedded anvil chain: the merchant and its payment are made through the API, the
 * payer's transfer is signed here with anvil's public development key #0 (1,000,000 demo CPXTB, "test test …
 * junk", never used on a real network) and sent raw through the app's /api/chain/rpc proxy. Each merchant gets a
 * fresh receiving address (merchant addresses are unique), proven by signing the server's message with its key.
 */
const PAYER_KEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80" as const;
/** Anvil's public development key #2 (10,000 demo CPXTB): the browser wallet that pays in the page. */
const BROWSER_PAYER_KEY = "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a" as const;
const PASSWORD = "correct horse battery staple";

// One payer account sends every transfer: the tests run one after another so its nonces never race.
test.describe.configure({ mode: "serial" });

type Payment = {
  id: string;
  reference: string;
  amountDue: string;
  amountDueBase: string;
  paymentUri: string;
  receivingAddress: string;
};

async function createMerchant(request: APIRequestContext) {
  const username = `pay_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  expect((await request.post("/api/register", { data: { username, password: PASSWORD } })).ok()).toBe(true);
  const wallet = privateKeyToAccount(generatePrivateKey());
  const challenge = await request.post("/api/merchant/wallet-challenge", {
    data: { address: wallet.address },
  });
  expect(challenge.ok()).toBe(true);
  const { nonce, message } = await challenge.json();
  const created = await request.post("/api/merchant", {
    data: {
      name: "Corner Coffee",
      businessType: "food",
      contactEmail: "owner@example.com",
      walletAddress: wallet.address,
      proof: { nonce, signature: await wallet.signMessage({ message }) },
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  return { username, address: wallet.address };
}

async function createPayment(request: APIRequestContext, body: Record<string, unknown>): Promise<Payment> {
  const response = await request.post("/api/merchant/payments", { data: body });
  expect(response.status(), await response.text()).toBe(201);
  return response.json();
}

/** Signs a transaction with `key` and sends it raw through the app's RPC proxy (the only way to the dev chain). */
async function sendSigned(request: APIRequestContext, key: Hex, tx: { to: Hex; data: Hex }) {
  const config = await (await request.get("/api/chain-config")).json();
  let id = 1;
  const rpc = async (method: string, params: unknown[] = []) => {
    const response = await request.post("/api/chain/rpc", {
      data: { jsonrpc: "2.0", id: id++, method, params },
    });
    const body = await response.json();
    if (body.error) throw new Error(`${method}: ${body.error.message}`);
    return body.result;
  };
  const account = privateKeyToAccount(key);
  const client = createWalletClient({
    account,
    chain: {
      id: config.chainId,
      name: "dev",
      nativeCurrency: config.nativeCurrency,
      rpcUrls: { default: { http: [] } },
    },
    transport: custom({ request: ({ method, params }) => rpc(method, params ?? []) }),
  });
  const prepared = await client.prepareTransactionRequest(tx);
  const raw = await client.signTransaction(prepared);
  return (await rpc("eth_sendRawTransaction", [raw])) as Hex;
}

/** An ERC-20 transfer of the token from the payer account (anvil key #0). */
async function payFromDevAccount(request: APIRequestContext, to: string, amountBase: bigint) {
  const config = await (await request.get("/api/chain-config")).json();
  return sendSigned(request, PAYER_KEY, {
    to: config.token.address as Hex,
    data: encodeFunctionData({ abi: erc20Abi, functionName: "transfer", args: [to as Hex, amountBase] }),
  });
}

/**
 * A browser wallet announced with EIP-6963 that holds `key`: it signs messages and transactions in the test
 * process (transactions go out raw through the proxy); reads go to the proxy from the page.
 */
async function installWallet(page: Page, key: Hex) {
  const account = privateKeyToAccount(key);
  const { chainId } = await (await page.request.get("/api/chain-config")).json();
  await page.exposeFunction("__walletSign", (data: Hex) => account.signMessage({ message: { raw: data } }));
  await page.exposeFunction("__walletSend", (tx: { to: Hex; data: Hex }) =>
    sendSigned(page.request, key, { to: tx.to, data: tx.data }),
  );
  await page.addInitScript(
    ({ address, chainIdHex }) => {
      const w = window as unknown as Record<string, (arg: unknown) => Promise<string>>;
      let nextId = 1;
      const provider = {
        async request({ method, params }: { method: string; params?: unknown[] }) {
          switch (method) {
            case "eth_requestAccounts":
            case "eth_accounts":
              return [address];
            case "eth_chainId":
              return chainIdHex;
            case "wallet_requestPermissions":
            case "wallet_getPermissions":
              return [{ parentCapability: "eth_accounts" }];
            case "wallet_switchEthereumChain":
            case "wallet_revokePermissions":
              return null;
            case "personal_sign":
              return w.__walletSign!(params?.[0]);
            case "eth_sendTransaction":
              return w.__walletSend!(params?.[0]);
            default: {
              const response = await fetch("/api/chain/rpc", {
                method: "POST",
                headers: { "Content-Type": "application/json" },
                body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params: params ?? [] }),
              });
              const body = await response.json();
              if (body.error) throw Object.assign(new Error(body.error.message), { code: body.error.code });
              return body.result;
            }
          }
        },
        on() {},
        removeListener() {},
      };
      const info = {
        uuid: "0b6a3f0e-6a55-4b8e-a1b0-7f1f4c2d9e11",
        name: "E2E Payer Wallet",
        icon: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg'/%3E",
        rdns: "test.cpxtb.payerwallet",
      };
      const announce = () =>
        window.dispatchEvent(
          new CustomEvent("eip6963:announceProvider", { detail: Object.freeze({ info, provider }) }),
        );
      window.addEventListener("eip6963:requestProvider", announce);
      announce();
    },
    { address: account.address, chainIdHex: `0x${Number(chainId).toString(16)}` },
  );
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
  await expect(page.getByRole("heading", { name: "CPXTB Payment" })).toBeVisible();
  await expect(page.getByText("Pay with CPXTB tokens")).toBeVisible();
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
  await expect(page.getByText(/Send only CPXTB on chain/)).toBeVisible();

  await payFromDevAccount(page.request, payment.receivingAddress, BigInt(payment.amountDueBase));
  await expect(page.getByRole("heading", { name: "Payment Successful" })).toBeVisible({ timeout: 5_000 });
  await expect(page.getByText("Thank You!")).toBeVisible();
  await expect(page.getByTestId("payment-status")).toHaveText("Paid");
  await expect(page.getByTestId("tx-hash")).toBeVisible();
  await expect(page.getByRole("link", { name: "Return to Merchant" })).toHaveAttribute(
    "href",
    "https://shop.example/thanks",
  );
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
  await page.getByRole("button", { name: "Regenerate Payment" }).click();
  await expect(page).not.toHaveURL(new RegExp(payment.reference));
  await expect(page).toHaveURL(/\/pay\/[A-Za-z0-9_-]{22,}$/);
  await expect(page.getByTestId("payment-status")).toHaveText("Awaiting payment");
  await expect(page.getByTestId("countdown")).toHaveText(/Expires in [01]:\d\d/);
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
  await expect(page.getByTestId("payment-status")).toHaveText("Paid", { timeout: 5_000 });
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
  await expect(page.getByRole("heading", { name: "CPXTB Payment" })).toBeVisible();
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
  await expect(page.getByText("at least 2 characters")).toBeVisible();
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
  await payFromDevAccount(page.request, pub.receivingAddress, BigInt(pub.amountDueBase));
  await expect(row).toContainText("Paid", { timeout: 5_000 });
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
