import { encodeFunctionData, erc20Abi, type Hex } from "viem";
import { baseURL } from "../playwright.config";
import { expect, test, toast } from "./fixtures";
import { type Catalog, catalogOf, fillIn } from "./support/i18n";
import { createMerchant, createPayment, sendSigned } from "./support/payments";
import { signInOnDevPage } from "./support/social";

/**
 * Anvil's public development key #1 (10,000 demo CPXTB, never used on a real network): funds the managed wallets
 * here. The other suites only sign messages with it, so its nonces never race theirs.
 */
const FUNDER_KEY = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d" as Hex;

// Several page loads and a chain round trip each: more time than a one-page test on a busy machine.
test.describe.configure({ mode: "serial", timeout: 120_000 });

type Page = import("@playwright/test").Page;

/** The signed-in card's words, from the English catalogs (their source). */
const en: Catalog = catalogOf("en", ["account", "wallet", "pay"]);
const signedIn = (name: string, provider: string) => fillIn(en["wallet.card.name"]!, { name, provider });

/** Spec section 3: the stored social-login user's fixed local-storage key. */
const STORED_USER_KEY = "cpxtb_social_user";
const storedUser = (page: Page) =>
  page.evaluate((key) => JSON.parse(window.localStorage.getItem(key) ?? "null"), STORED_USER_KEY);

test("real login through the development provider page signs in and comes back", async ({ page }) => {
  await page.goto("/auth");
  await expect(page.getByTestId("social-sign-in")).toBeVisible({ timeout: 30_000 });
  for (const name of ["Google", "Facebook", "X", "Apple"]) {
    await expect(page.getByRole("button", { name: `Continue with ${name}` })).toBeVisible();
  }
  const email = `ada-${Date.now()}@example.com`;
  await signInOnDevPage(page, "Ada Lovelace", email);
  await expect(page).toHaveURL(/\/auth$/, { timeout: 30_000 });
  // A new social account is a payer's: greeted by the provider's display name, not the generated username.
  await expect(page.getByTestId("payer-landing")).toContainText("Welcome, Ada Lovelace", { timeout: 30_000 });
  await expect(page.getByTestId("social-account")).toContainText(signedIn("Ada Lovelace", "Google"));
  expect(await storedUser(page)).toMatchObject({
    userInfo: { name: "Ada Lovelace", email, provider: "google" },
    walletAddress: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
    mode: "account",
  });

  // Signing out from the menu takes the stored social user with it.
  await page.getByRole("button", { name: "Open menu" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Sign out" }).click();
  await expect(toast(page, "Logout successful")).toBeVisible();
  await expect.poll(() => storedUser(page)).toBeNull();
  await page.goto("/auth");
  await expect(page.getByTestId("social-sign-in")).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId("social-account")).toHaveCount(0);
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
  // It tells before it asks: the merchant and the amount, then the ways to pay.
  await expect(page.getByTestId("merchant-name")).toHaveText("Corner Coffee");
  await expect(page.getByTestId("amount-due")).toBeVisible();
  await page.getByTestId("pay-without-wallet").click({ timeout: 30_000 });
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

  // One Pay button once signed in: the managed wallet's (the browser-wallet button gives way to it).
  await expect(page.getByTestId("pay-with-wallet")).toHaveCount(0);
  const shown = payment.amountDue.replace(/0+$/, "");
  await page.getByRole("button", { name: `Pay ${shown} CPXTB from my wallet` }).click();
  await expect(page.getByRole("heading", { name: "Payment Successful" })).toBeVisible({ timeout: 30_000 });
  const left = (20 - Number(shown)).toFixed(6).replace(/\.?0+$/, "");
  await expect
    .poll(async () => (await (await page.request.get("/api/wallet")).json()).balance, { timeout: 30_000 })
    .toBe(left);
});

test("basic login (useBasicLogin=true) runs the provider in a window; logout clears user, balance and record", async ({
  page,
}) => {
  await page.goto("/auth?useBasicLogin=true");
  const button = page.getByRole("button", { name: "Continue with Facebook" });
  await expect(button).toBeVisible({ timeout: 30_000 });
  const firstCall = page.waitForRequest(
    (r) => r.method() === "POST" && r.url().endsWith("/api/social-auth/facebook"),
  );
  const opened = page.waitForEvent("popup");
  await button.click();
  const popup = await opened;
  expect((await firstCall).postDataJSON()).toMatchObject({ enableWeb3Auth: false, enableRealLogin: false });
  await expect(page.getByText("Finish signing in with Facebook in the window that opened.")).toBeVisible();
  await expect(popup.getByRole("heading", { name: "Sign in with Facebook (development)" })).toBeVisible({
    timeout: 15_000,
  });
  const email = `bea-${Date.now()}@example.com`;
  await popup.getByLabel("Name").fill("Bea Basic");
  await popup.getByLabel("Email").fill(email);
  const closed = popup.waitForEvent("close", { timeout: 30_000 });
  await popup.getByRole("button", { name: "Continue" }).click();
  await closed;

  // The page itself never left: the window told it, and it asked the server who signed in.
  await expect(page.getByTestId("social-account")).toContainText(signedIn("Bea Basic", "Facebook"), {
    timeout: 30_000,
  });
  await expect(page.getByTestId("social-balance")).toHaveText("0 CPXTB");
  await expect(page.getByTestId("payer-landing")).toContainText("Welcome, Bea Basic");
  expect(page.url()).toMatch(/\/auth\?useBasicLogin=true$/);
  expect(await storedUser(page)).toMatchObject({
    userInfo: { name: "Bea Basic", email, provider: "facebook" },
    walletAddress: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
    balance: expect.stringMatching(/^0(\.0+)?$/),
    mode: "account",
  });

  await page
    .getByTestId("social-account")
    .getByRole("button", { name: en["account.sessions.signOut"] })
    .click();
  await expect(toast(page, "Logout successful")).toBeVisible();
  await expect(page.getByTestId("social-account")).toHaveCount(0);
  await expect(page.getByTestId("payer-landing")).toHaveCount(0);
  await expect(page.getByText(/You are signed in as/)).toHaveCount(0);
  expect(await storedUser(page)).toBeNull();
  expect((await page.request.get("/api/user")).status()).toBe(401);
});

test("a failed social-login call gives a demo user marked as such, which cannot pay, buy or open the dashboard; a further failure asks for a reload", async ({
  page,
  playwright,
  consoleGuard,
}) => {
  const merchant = await playwright.request.newContext({ baseURL });
  await createMerchant(merchant);
  const payment = await createPayment(merchant, { currency: "CPXTB", amount: "3" });
  await merchant.dispose();

  // Only the app's own endpoint fails, as a server that does not answer properly would.
  consoleGuard.allow(/status of 503/);
  const unavailable = {
    status: 503,
    contentType: "application/json",
    body: JSON.stringify({ error: { code: "SERVICE_UNAVAILABLE", message: "Try again later." } }),
  };
  await page.route("**/api/social-auth/google", (route) =>
    route.request().method() === "POST" ? route.fulfill(unavailable) : route.fallback(),
  );
  await page.goto("/auth?useBasicLogin=true");
  await page.getByRole("button", { name: "Continue with Google" }).click({ timeout: 30_000 });
  await expect(toast(page, "Login Successful (Fallback Mode)")).toBeVisible();
  const card = page.getByTestId("social-account");
  await expect(card.getByTestId("demo-mode-badge")).toHaveText(en["wallet.demo.badge"]!);
  await expect(card).toContainText(en["wallet.card.demoExplanation"]!);
  // Nothing invented looks real: no address, no balance in CPXTB.
  await expect(card).not.toContainText(/0x[0-9a-fA-F]{4}/);
  await expect(card.getByTestId("social-balance")).toHaveCount(0);
  await expect(card).toContainText(fillIn(en["wallet.card.demoBalance"]!, { balance: "500" }));
  expect(await storedUser(page)).toMatchObject({ balance: "500.0", mode: "demo" });

  // No session behind it: the dashboard sends it to sign in, where it is shown as the demo it is.
  await page.goto("/merchant");
  await expect(page).toHaveURL(/\/auth$/, { timeout: 30_000 });
  await expect(page.getByTestId("demo-mode-badge")).toBeVisible();
  await page.goto("/buy-cpxtb");
  await expect(page.getByTestId("demo-mode-notice")).toContainText("A demo user cannot buy CPXTB.", {
    timeout: 30_000,
  });
  await expect(page.getByRole("button", { name: /Buy/ })).toHaveCount(0);
  await page.goto(`/easy-payment?ref=${payment.reference}`);
  await expect(page.getByTestId("demo-mode-notice")).toContainText("A demo user cannot pay.", {
    timeout: 30_000,
  });
  await expect(page.getByTestId("managed-pay")).toHaveCount(0);

  // A further failure: the emergency user and a request to reload.
  await page.goto("/auth?useBasicLogin=true");
  await page.getByRole("button", { name: "Continue with Google" }).click({ timeout: 30_000 });
  await expect(toast(page, "Please reload the page.")).toBeVisible();
  await expect(page.getByTestId("emergency-explanation")).toContainText(en["wallet.card.emergency"]!);
  await expect(page.getByRole("button", { name: en["wallet.card.reload"] })).toBeVisible();
  expect(await storedUser(page)).toMatchObject({ walletAddress: "", balance: "0", mode: "emergency" });

  // Leaving it while the logout call fails: "Logout Failed", and the user and record are gone all the same.
  await page.route("**/api/social-auth/logout", (route) => route.fulfill(unavailable));
  await page.getByRole("button", { name: en["wallet.demo.leave"] }).click();
  await expect(toast(page, "Logout Failed")).toBeVisible();
  await expect(page.getByTestId("social-account")).toHaveCount(0);
  expect(await storedUser(page)).toBeNull();
});

test("the web3 login window is blocked unless the address carries enableWeb3Auth=true", async ({ page }) => {
  await page.goto("/auth");
  await expect(page.getByTestId("social-sign-in")).toBeVisible({ timeout: 30_000 });
  expect(await page.evaluate(() => window.open("https://auth.web3auth.io/start?x=1") === null)).toBe(true);
  expect(await page.evaluate(() => window.open(new URL("https://app.openlogin.com/")) === null)).toBe(true);

  await page.goto("/auth?enableWeb3Auth=true&useBasicLogin=true");
  await expect(page.getByTestId("social-sign-in")).toBeVisible({ timeout: 30_000 });
  expect(await page.evaluate(() => window.open.toString().includes("[native code]"))).toBe(true);
  const call = page.waitForRequest(
    (r) => r.method() === "POST" && r.url().endsWith("/api/social-auth/apple"),
  );
  const opened = page.waitForEvent("popup");
  await page.getByRole("button", { name: "Continue with Apple" }).click();
  expect((await call).postDataJSON()).toMatchObject({ enableWeb3Auth: true, enableRealLogin: false });
  await (await opened).close();
});

test("the stored social user is restored at start; a corrupt record is deleted", async ({ page }) => {
  await page.goto("/auth");
  await expect(page.getByTestId("social-sign-in")).toBeVisible({ timeout: 30_000 });
  const record = {
    userInfo: { name: "Rita Restored", email: "rita@example.com", provider: "apple" },
    walletAddress: "0x1111111111111111111111111111111111111111",
    balance: "42.5",
  };
  await page.evaluate(({ key, value }) => window.localStorage.setItem(key, value), {
    key: STORED_USER_KEY,
    value: JSON.stringify(record),
  });
  await page.reload();
  await expect(page.getByTestId("social-account")).toContainText(signedIn("Rita Restored", "Apple"), {
    timeout: 30_000,
  });
  await expect(page.getByTestId("social-balance")).toHaveText("42.5 CPXTB");

  await page.evaluate((key) => window.localStorage.setItem(key, '{"userInfo":{"name":'), STORED_USER_KEY);
  // Deleted at start, on any page (here the home page, which shows no social sign-in).
  await page.goto("/");
  await expect
    .poll(() => page.evaluate((key) => window.localStorage.getItem(key), STORED_USER_KEY), {
      timeout: 30_000,
    })
    .toBeNull();
  await page.goto("/auth");
  await expect(page.getByTestId("social-sign-in")).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId("social-account")).toHaveCount(0);
});
