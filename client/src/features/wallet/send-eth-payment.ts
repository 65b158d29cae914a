import { getAddress } from "viem";
import { connect, getConnection, sendTransaction, switchChain } from "wagmi/actions";
import { queryClient } from "@/lib/query-client";
import { chainConfigQueryOptions } from "./api/get-chain-config";
import { preferredConnector, sharedWalletConfig } from "./wagmi-config";
import { waitUntilMined } from "./wait-until-mined";
import { WalletFailure, walletFailureOf } from "./wallet-errors";

async function walletConfig() {
  return sharedWalletConfig(await queryClient.fetchQuery(chainConfigQueryOptions()));
}

/** Connects the browser wallet (EIP-6963) unless connected and returns its account. Loaded on demand. */
export async function connectBrowserWallet(): Promise<`0x${string}`> {
  const config = await walletConfig();
  let connection = getConnection(config);
  if (connection.status !== "connected") {
    const connector = preferredConnector(config.connectors);
    if (!connector)
      throw new WalletFailure(
        "No browser wallet was found. Install one, or pay with another method.",
        "noWallet",
      );
    try {
      await connect(config, { connector });
    } catch (error) {
      throw walletFailureOf(error, "connect");
    }
    connection = getConnection(config);
  }
  if (!connection.address) throw new WalletFailure("The wallet did not share an account.", "noAccount");
  return connection.address;
}

export type EthPayment = { chainId: number; from: string; to: string; valueWei: bigint };

/**
 * Sends exactly `valueWei` ETH from the order's wallet to the treasury and waits for it to be mined; refuses
 * when the wallet's account is not the order's (the server would not deliver for another sender).
 */
export async function sendEthPayment(
  payment: EthPayment,
  onStep?: (step: "connecting" | "switching" | "confirm" | "mining") => void,
): Promise<`0x${string}`> {
  const config = await walletConfig();
  onStep?.("connecting");
  const account = await connectBrowserWallet();
  if (getAddress(account) !== getAddress(payment.from)) {
    throw new WalletFailure(
      `Your wallet is on ${account}, but this order is for ${payment.from}. Switch accounts in your wallet.`,
      "otherAccount",
      null,
      { account, expected: payment.from },
    );
  }
  if (getConnection(config).chainId !== payment.chainId) {
    onStep?.("switching");
    try {
      await switchChain(config, { chainId: payment.chainId });
    } catch (error) {
      throw walletFailureOf(error, "switch");
    }
  }
  onStep?.("confirm");
  let hash: `0x${string}`;
  try {
    hash = await sendTransaction(config, {
      account,
      to: getAddress(payment.to),
      value: payment.valueWei,
      chainId: payment.chainId,
    });
  } catch (error) {
    throw walletFailureOf(error, "transaction");
  }
  onStep?.("mining");
  await waitUntilMined(config, hash, payment.chainId);
  return hash;
}
