import type { APIRequestContext, Page } from "@playwright/test";
import { expect } from "@playwright/test";
import { createWalletClient, custom, encodeFunctionData, erc20Abi, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";

/**
 * Payments for real on the embedded anvil chain: the merchant and its payment are made through the API, the
 * payer's transfer is signed here with anvil's public development key #0 (1,000,000 demo CPXTB, "test test …
 * junk", never used on a real network) and sent raw through the app's /api/chain/rpc proxy. Each merchant gets a
 * fresh receiving address (merchant addresses are unique), proven by signing the server's message with its key.
 */
export const PAYER_KEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80" as const;
/** Anvil's public development key #2 (10,000 demo CPXTB): the browser wallet that pays in the page. */
export const BROWSER_PAYER_KEY =
  "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a" as const;
export const PASSWORD = "correct horse battery staple";

export type Payment = {
  id: string;
  reference: string;
  amountDue: string;
  amountDueBase: string;
  paymentUri: string;
  receivingAddress: string;
};

export async function createMerchant(request: APIRequestContext, overrides: Record<string, unknown> = {}) {
  const username = `pay_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  expect((await request.post("/api/register", { data: { username, password: PASSWORD } })).ok()).toBe(true);
  const key = generatePrivateKey();
  const wallet = privateKeyToAccount(key);
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
      ...overrides,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  // The key lets a test sign as the merchant's receiving wallet (a refund leaves from it).
  return { username, address: wallet.address, key };
}

export async function createPayment(
  request: APIRequestContext,
  body: Record<string, unknown>,
): Promise<Payment> {
  const response = await request.post("/api/merchant/payments", { data: body });
  expect(response.status(), await response.text()).toBe(201);
  return response.json();
}

/**
 * Signs a transaction with `key` and sends it raw through the app's RPC proxy (the only way to the dev chain), and
 * returns its hash once it is in a block, as a wallet shows it confirmed: anvil mines a moment after it answers, and
 * a test's next step (naming the transaction to the server, spending the gas it funded) must not race that on a
 * busy machine. `mined: false` answers at once, as a browser wallet does to the page that asked.
 */
export async function sendSigned(
  request: APIRequestContext,
  key: Hex,
  tx: { to: Hex; data?: Hex | undefined; value?: bigint | undefined },
  { mined = true }: { mined?: boolean } = {},
): Promise<Hex> {
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
  // Spec files run in parallel and several send from the same account: two sends may take the same nonce. The
  // one that loses is signed again with the next free nonce (the chain answers at once, so this never waits long).
  for (let attempt = 1; ; attempt++) {
    const prepared = await client.prepareTransactionRequest(tx);
    const raw = await client.signTransaction(prepared);
    let hash: Hex;
    try {
      hash = (await rpc("eth_sendRawTransaction", [raw])) as Hex;
    } catch (error) {
      const nonceTaken = /nonce|already known|underpriced/i.test((error as Error).message);
      if (!nonceTaken || attempt >= 8) throw error;
      continue;
    }
    if (mined) await waitForReceipt(request, hash);
    return hash;
  }
}

/** An ERC-20 transfer of the token from the payer account (anvil key #0), returned once it is in a block. */
export async function payFromDevAccount(request: APIRequestContext, to: string, amountBase: bigint) {
  const config = await (await request.get("/api/chain-config")).json();
  return sendSigned(request, PAYER_KEY, {
    to: config.token.address as Hex,
    data: encodeFunctionData({ abi: erc20Abi, functionName: "transfer", args: [to as Hex, amountBase] }),
  });
}

/** Polls the chain (through the app's RPC proxy, as the server reads it) until the transaction has a receipt. */
async function waitForReceipt(request: APIRequestContext, hash: Hex, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (let delay = 50; ; delay = Math.min(delay * 2, 1000)) {
    const response = await request.post("/api/chain/rpc", {
      data: { jsonrpc: "2.0", id: 1, method: "eth_getTransactionReceipt", params: [hash] },
    });
    const body = await response.json().catch(() => ({}));
    if (body?.result?.blockNumber) return;
    if (Date.now() > deadline) throw new Error(`transaction ${hash} not mined after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}

/**
 * A browser wallet announced with EIP-6963 that holds `key`: it signs messages and transactions in the test
 * process (transactions go out raw through the proxy); reads go to the proxy from the page.
 */
export async function installWallet(page: Page, key: Hex) {
  const account = privateKeyToAccount(key);
  const { chainId } = await (await page.request.get("/api/chain-config")).json();
  await page.exposeFunction("__walletSign", (data: Hex) => account.signMessage({ message: { raw: data } }));
  await page.exposeFunction("__walletSend", (tx: { to: Hex; data?: Hex; value?: Hex }) =>
    sendSigned(
      page.request,
      key,
      { to: tx.to, data: tx.data, value: tx.value ? BigInt(tx.value) : undefined },
      { mined: false },
    ),
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
