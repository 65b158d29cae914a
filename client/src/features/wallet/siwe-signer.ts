import type { SiweSignedMessage } from "@common/siwe";
import { createSiweMessage } from "viem/siwe";
import { connect, getConnection, signMessage } from "wagmi/actions";
import { queryClient } from "@/lib/query-client";
import { chainConfigQueryOptions } from "./api/get-chain-config";
import { preferredConnector, sharedWalletConfig } from "./wagmi-config";
import { WALLET_CONNECTED_EVENT } from "./wallet-control";
import { WalletFailure, walletFailureOf } from "./wallet-errors";

/** How long a signed message stays usable; the server's nonce lasts as long. */
const MESSAGE_LIFETIME_MS = 10 * 60 * 1000;

/**
 * Sign-In with Ethereum (EIP-4361) from the browser wallet: connects the injected wallet (EIP-6963) unless it is
 * connected already, asks for a nonce only then, and has the wallet sign a message for this site and the
 * wallet's current chain. Loaded on demand only: wagmi and viem stay out of the entry chunk. A refusal or failure
 * is a WalletFailure, which the account screens say by its kind (features/auth/account-error-text.ts).
 */
export async function signSiweMessage(options: {
  statement: string;
  getNonce: () => Promise<string>;
}): Promise<SiweSignedMessage> {
  const config = sharedWalletConfig(await queryClient.fetchQuery(chainConfigQueryOptions()));
  let connection = getConnection(config);
  if (connection.status !== "connected") {
    const connector = preferredConnector(config.connectors);
    if (!connector)
      throw new WalletFailure(
        "No browser wallet was found. Install one, or sign in with a password.",
        "noWallet",
        "connect",
      );
    try {
      await connect(config, { connector });
    } catch (error) {
      throw walletFailureOf(error, "connect");
    }
    connection = getConnection(config);
  }
  window.dispatchEvent(new Event(WALLET_CONNECTED_EVENT));
  const { address, chainId } = connection;
  if (!address || !chainId)
    throw new WalletFailure("The wallet did not share an account.", "noAccount", "connect");

  const issuedAt = new Date();
  const message = createSiweMessage({
    domain: window.location.host,
    uri: window.location.origin,
    address,
    chainId,
    nonce: await options.getNonce(),
    statement: options.statement,
    version: "1",
    issuedAt,
    expirationTime: new Date(issuedAt.getTime() + MESSAGE_LIFETIME_MS),
  });
  try {
    const signature = await signMessage(config, {
      account: address,
      message,
      connector: connection.connector,
    });
    return { message, signature };
  } catch (error) {
    throw walletFailureOf(error, "signature");
  }
}
