import type { APIRequestContext, Page } from "@playwright/test";
import { type Hex, hexToString } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { expect, test, toast } from "./fixtures";

/**
 * The wallet against the real server and its embedded anvil chain, through an EIP-1193 provider injected into the
 * page and announced with EIP-6963. It signs honestly (anvil's public development key #1: "test test … junk",
 * never used on a real network) and forwards reads to the app's /api/chain/rpc proxy.
 */
const DEV_KEY_1 = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d" as const;
const devAccount = privateKeyToAccount(DEV_KEY_1);

type WalletOptions = {
  privateKey?: Hex;
  rejectSignatures?: boolean;
  /** The chain the wallet is on at first; it knows no other until one is added (then switch answers 4902). */
  startChainId?: number;
};

type WalletCall = { method: string; params: unknown };

async function chainIdOf(request: APIRequestContext): Promise<number> {
  const res = await request.get("/api/chain-config");
  expect(res.ok()).toBe(true);
  return (await res.json()).chainId;
}

/** Installs the test wallet before any page script runs; answers the account it holds. */
async function installWallet(page: Page, request: APIRequestContext, options: WalletOptions = {}) {
  const account = privateKeyToAccount(options.privateKey ?? DEV_KEY_1);
  const chainId = options.startChainId ?? (await chainIdOf(request));
  const calls: WalletCall[] = [];
  await page.exposeFunction("__recordWalletCall", (call: WalletCall) => {
    calls.push(call);
  });
  // personal_sign carries the message as hex of its bytes; sign exactly those bytes (EIP-191).
  await page.exposeFunction("__signWithDevKey", (data: Hex) =>
    account.signMessage({ message: { raw: data } }),
  );
  await page.addInitScript(
    ({ address, chainIdHex, rejectSignatures }) => {
      type Listener = (...args: unknown[]) => void;
      const listeners = new Map<string, Set<Listener>>();
      const rpcError = (code: number, message: string) => Object.assign(new Error(message), { code });
      const record = (window as unknown as { __recordWalletCall: (c: unknown) => void }).__recordWalletCall;
      const emit = (event: string, value: unknown) => {
        for (const listener of listeners.get(event) ?? []) listener(value);
      };
      let currentChain = chainIdHex;
      const knownChains = new Set([chainIdHex]);
      let nextId = 1;
      const provider = {
        async request({ method, params }: { method: string; params?: unknown[] }) {
          if (method.startsWith("wallet_")) record({ method, params: params ?? null });
          switch (method) {
            case "eth_requestAccounts":
            case "eth_accounts":
              return [address];
            case "eth_chainId":
              return currentChain;
            case "net_version":
              return String(Number.parseInt(currentChain, 16));
            case "wallet_requestPermissions":
            case "wallet_getPermissions":
              return [{ parentCapability: "eth_accounts" }];
            case "wallet_revokePermissions":
              return null;
            case "wallet_switchEthereumChain": {
              const wanted = String((params?.[0] as { chainId?: string } | undefined)?.chainId);
              if (!knownChains.has(wanted)) throw rpcError(4902, `Unrecognized chain ID "${wanted}".`);
              currentChain = wanted;
              emit("chainChanged", wanted);
              return null;
            }
            case "wallet_addEthereumChain": {
              // Like the common wallets: adding a chain also switches to it.
              const added = String((params?.[0] as { chainId?: string } | undefined)?.chainId);
              knownChains.add(added);
              currentChain = added;
              emit("chainChanged", added);
              return null;
            }
            case "wallet_watchAsset":
              return true;
            case "personal_sign": {
              if (rejectSignatures) throw rpcError(4001, "User rejected the request.");
              const sign = (window as unknown as { __signWithDevKey: (d: string) => Promise<string> })
                .__signWithDevKey;
              return sign(String(params?.[0]));
            }
            default: {
              if (method.startsWith("wallet_")) throw rpcError(4200, `${method} is not supported`);
              const response = await fetch("/api/chain/rpc", {
                method: "POST",
                headers: { "Content-Type": "application/json" },
                body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params: params ?? [] }),
              });
              const body = await response.json();
              if (body.error) throw rpcError(body.error.code ?? -32603, body.error.message ?? "RPC error");
              return body.result;
            }
          }
        },
        on(event: string, listener: Listener) {
          if (!listeners.has(event)) listeners.set(event, new Set());
          listeners.get(event)?.add(listener);
        },
        removeListener(event: string, listener: Listener) {
          listeners.get(event)?.delete(listener);
        },
      };
      const info = {
        uuid: "5b0b7f2e-0e7b-4a43-9d7f-2f3c1a3b9e01",
        name: "E2E Dev Wallet",
        icon: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg'/%3E",
        rdns: "test.cpxtb.devwallet",
      };
      const announce = () =>
        window.dispatchEvent(
          new CustomEvent("eip6963:announceProvider", { detail: Object.freeze({ info, provider }) }),
        );
      window.addEventListener("eip6963:requestProvider", announce);
      announce();
      (window as unknown as { ethereum: unknown }).ethereum = provider;
    },
    {
      address: account.address,
      chainIdHex: `0x${chainId.toString(16)}`,
      rejectSignatures: options.rejectSignatures ?? false,
    },
  );
  return { account, calls };
}

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
    const switchButton = page.getByRole("button", { name: "Switch network" });
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

    await page.getByRole("button", { name: `Add ${config.token.symbol} to wallet` }).click();
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

    await page.getByRole("button", { name: "Copy address" }).click();
    await expect(toast(page, "Address Copied")).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(devAccount.address);

    await page.getByRole("button", { name: "Disconnect" }).click();
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
