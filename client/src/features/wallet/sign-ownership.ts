import { connect, getConnection, signMessage } from "wagmi/actions";
import { queryClient } from "@/lib/query-client";
import { chainConfigQueryOptions } from "./api/get-chain-config";
import { preferredConnector, sharedWalletConfig } from "./wagmi-config";
import { WALLET_CONNECTED_EVENT } from "./wallet-control";
import { WalletFailure, walletFailureOf } from "./wallet-errors";

/**
 * Proves control of the browser wallet's address: connects it (EIP-6963) unless connected, asks the caller for
 * the server's message for that address, and has the wallet sign it (EIP-191 personal_sign). Loaded on demand.
 */
export async function signOwnershipProof<T extends { message: string }>(
  getChallenge: (address: string) => Promise<T>,
): Promise<{ address: string; challenge: T; signature: `0x${string}` }> {
  const config = sharedWalletConfig(await queryClient.fetchQuery(chainConfigQueryOptions()));
  let connection = getConnection(config);
  if (connection.status !== "connected") {
    const connector = preferredConnector(config.connectors);
    if (!connector)
      throw new WalletFailure(
        "No browser wallet was found. Install one to prove the address is yours.",
        "noWallet",
      );
    try {
      await connect(config, { connector });
    } catch (error) {
      throw walletFailureOf(error, "connect");
    }
    connection = getConnection(config);
  }
  window.dispatchEvent(new Event(WALLET_CONNECTED_EVENT));
  const address = connection.address;
  if (!address) throw new WalletFailure("The wallet did not share an account.", "noAccount");
  const challenge = await getChallenge(address);
  try {
    const signature = await signMessage(config, {
      account: address,
      message: challenge.message,
      connector: connection.connector,
    });
    return { address, challenge, signature };
  } catch (error) {
    throw walletFailureOf(error, "signature");
  }
}
