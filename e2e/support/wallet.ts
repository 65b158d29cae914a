import type { APIRequestContext, Page } from "@playwright/test";
import type { Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { expect } from "../fixtures";

/**
 * The wallet against the real server and its embedded anvil chain, through an EIP-1193 provider injected into the
 * page and announced with EIP-6963. It signs honestly (anvil's public development key #1: "test test … junk",
 * never used on a real network) and forwards reads to the app's /api/chain/rpc proxy.
 */
const DEV_KEY_1 = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d" as const;
export const devAccount = privateKeyToAccount(DEV_KEY_1);

export type WalletOptions = {
  privateKey?: Hex;
  rejectSignatures?: boolean;
  /** The chain the wallet is on at first; it knows no other until one is added (then switch answers 4902). */
  startChainId?: number;
};

export type WalletCall = { method: string; params: unknown };

async function chainIdOf(request: APIRequestContext): Promise<number> {
  const res = await request.get("/api/chain-config");
  expect(res.ok()).toBe(true);
  return (await res.json()).chainId;
}

/** Installs the test wallet before any page script runs; answers the account it holds. */
export async function installWallet(page: Page, request: APIRequestContext, options: WalletOptions = {}) {
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
