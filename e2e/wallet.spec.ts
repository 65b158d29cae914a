import { type Hex, hexToString } from "viem";
import { generatePrivateKey } from "viem/accounts";
import { expect, test, toast } from "./fixtures";
import { devAccount, installWallet } from "./support/wallet";

const shortened = (address: string) => `${address.slice(0, 6)}…${address.slice(-4)}`;

test.describe("browser wallet", () => {
  test("a wallet on another chain switches to the token's chain, adding it on 4902; watch token", async ({
    page,
    request,
  }) => {
    const config = await (await request.get("/api/chain-config")).json();
    const tokenChainHex = `0x${Number(config.chainId).toString(16)}`;
    const { calls } = await installWallet(page, request, { startChainId: 1 });

    await page.goto("/");
    await page.getByTestId("wallet-connect").click();
    const control = page.getByTestId("wallet-control");
    await expect(control).toHaveAttribute("data-status", "connected");
    await control.getByRole("button", { name: shortened(devAccount.address) }).click();
    // A menu like the app's others: its actions are menu items.
    const switchButton = page.getByRole("menuitem", { name: "Switch network" });
    await expect(switchButton).toBeVisible();
    await switchButton.click();
    // The wallet did not know the chain: switch answered 4902, so the app added it (and the wallet moved to it).
    await expect(switchButton).toBeHidden();
    const switchCalls = calls.filter((c) => c.method.startsWith("wallet_") && c.method.includes("Chain"));
    expect(switchCalls.map((c) => c.method)).toEqual([
      "wallet_switchEthereumChain",
      "wallet_addEthereumChain",
    ]);
    expect((switchCalls[1]!.params as Array<{ chainId: string }>)[0]!.chainId).toBe(tokenChainHex);

    await page.getByRole("menuitem", { name: `Add ${config.token.symbol} to wallet` }).click();
    await expect(toast(page, `${config.token.symbol} added to your wallet`)).toBeVisible();
    const watch = calls.find((c) => c.method === "wallet_watchAsset");
    expect(watch?.params).toEqual({
      type: "ERC20",
      options: {
        address: config.token.address,
        symbol: config.token.symbol,
        decimals: config.token.decimals,
      },
    });
  });

  test("connect shows the address and the chain's balance; copy; disconnect", async ({
    page,
    request,
    context,
  }) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await installWallet(page, request);
    const balance = await request.get(`/api/balance?address=${devAccount.address}`);
    expect(balance.ok()).toBe(true);
    const { balance: expected } = await balance.json();
    expect(Number(expected)).toBeGreaterThan(0);

    await page.goto("/");
    await page.getByTestId("wallet-connect").click();
    const control = page.getByTestId("wallet-control");
    await expect(control).toHaveAttribute("data-status", "connected");
    await expect(control.getByRole("button", { name: shortened(devAccount.address) })).toBeVisible();
    await control.getByRole("button", { name: shortened(devAccount.address) }).click();
    await expect(page.getByTestId("wallet-address")).toHaveText(devAccount.address);
    // Grouped thousands, at most 4 decimals; the network by name, never by its number.
    const [whole = "0", fraction = ""] = String(expected).split(".");
    const cut = fraction.slice(0, 4).replace(/0+$/, "");
    const grouped = `${BigInt(whole).toLocaleString("en-US")}${cut ? `.${cut}` : ""}`;
    await expect(page.getByTestId("wallet-balance")).toHaveText(`Balance: ${grouped} CPXTB`);
    await expect(page.getByTestId("wallet-network")).toHaveText("Network: Local development chain");

    await page.getByRole("menuitem", { name: "Copy address" }).click();
    await expect(toast(page, "Address Copied")).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(devAccount.address);

    await control.getByRole("button", { name: shortened(devAccount.address) }).click();
    await page.getByRole("menuitem", { name: "Disconnect" }).click();
    await expect(page.getByTestId("wallet-connect")).toHaveAttribute("data-status", "disconnected");
    await expect(page.getByTestId("wallet-control")).toHaveCount(0);
  });

  test("Sign in with Ethereum lands on the dashboard; the account is the wallet's", async ({
    page,
    request,
  }) => {
    await installWallet(page, request);
    await page.goto("/auth");
    await page.getByRole("button", { name: "Sign in with Ethereum" }).click();
    await expect(toast(page, "Login successful")).toContainText("You are now logged in");
    await expect(page).toHaveURL(/\/merchant$/);

    await page.getByRole("button", { name: "Open menu" }).click();
    const username = `wallet_${devAccount.address.slice(2, 10).toLowerCase()}`;
    await expect(page.getByRole("dialog").getByText(username)).toBeVisible();
    // The session is a normal one: it survives a reload.
    await page.reload();
    await expect(page).toHaveURL(/\/merchant$/);
  });

  test("a rejected signature says so and stays signed out", async ({ page, request }) => {
    await installWallet(page, request, { rejectSignatures: true });
    await page.goto("/auth");
    await page.getByRole("button", { name: "Sign in with Ethereum" }).click();
    await expect(toast(page, "Login failed")).toContainText(
      "You rejected the signature request in your wallet. Nothing was signed.",
    );
    await expect(page).toHaveURL(/\/auth$/);
    await expect(page.getByRole("button", { name: "Sign in with Ethereum" })).toBeEnabled();
  });

  test("profile: link a wallet with a signature, then remove it", async ({ page, request }) => {
    // A fresh key: linking needs a signature, not funds, and no other test uses this address.
    const { account } = await installWallet(page, request, { privateKey: generatePrivateKey() });
    const username = `linker_${Date.now().toString(36)}`;
    const registered = await page.request.post("/api/register", {
      data: { username, password: "correct horse battery staple" },
    });
    expect(registered.status()).toBe(201);

    await page.goto("/profile");
    const section = page.getByTestId("linked-wallets-section");
    await expect(section.getByText("No wallet is linked yet.")).toBeVisible();
    await section.getByRole("button", { name: "Link a wallet" }).click();
    await expect(toast(page, "Wallet linked")).toBeVisible();
    await expect(section.getByTestId("linked-wallets")).toContainText(shortened(account.address));

    await section.getByRole("button", { name: `Remove wallet ${account.address}` }).click();
    await expect(toast(page, "Wallet removed")).toBeVisible();
    await expect(section.getByText("No wallet is linked yet.")).toBeVisible();
  });
});

test("the signer signs exactly the bytes personal_sign carries", async () => {
  const message = "Sign in to CPXTB Pay\nnonce: abc";
  const hex = `0x${Buffer.from(message).toString("hex")}` as Hex;
  expect(hexToString(hex)).toBe(message);
  expect(await devAccount.signMessage({ message: { raw: hex } })).toBe(
    await devAccount.signMessage({ message }),
  );
});
