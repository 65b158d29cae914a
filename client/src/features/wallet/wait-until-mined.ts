import { getPublicClient } from "wagmi/actions";
import type { sharedWalletConfig } from "./wagmi-config";
import { receiptFailureOf, revertedFailure } from "./wallet-errors";

/**
 * How long the payer watches "Waiting for the transaction…" before being told it was sent and is not confirmed yet
 * (viem's own default; wagmi's action waits forever). The pay and order pages follow the chain after that.
 */
const RECEIPT_TIMEOUT_MS = 180_000;

/**
 * Waits for a sent transaction to be mined; a WalletFailure, never the library's English, when it failed on chain
 * (`reverted`), or did not come back in time or could not be read (`unconfirmed`).
 */
export async function waitUntilMined(
  config: ReturnType<typeof sharedWalletConfig>,
  hash: `0x${string}`,
  chainId: number,
): Promise<void> {
  let status: "success" | "reverted";
  try {
    const client = getPublicClient(config, { chainId });
    if (!client) throw new Error(`No client for chain ${chainId}`);
    ({ status } = await client.waitForTransactionReceipt({ hash, timeout: RECEIPT_TIMEOUT_MS }));
  } catch (error) {
    throw receiptFailureOf(error, hash);
  }
  if (status === "reverted") throw revertedFailure(hash);
}
