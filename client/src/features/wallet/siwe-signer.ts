import type { SiweSignedMessage } from "@common/siwe";
import { createSiweMessage } from "viem/siwe";
import { connect, getConnection, signMessage } from "wagmi/actions";
import { queryClient } from "@/lib/query-client";
import { chainConfigQueryOptions } from "./api/get-chain-config";
import { preferredConnector, sharedWalletConfig } from "./wagmi-config";
import { WALLET_CONNECTED_EVENT } from "./wallet-control";
import { describeWalletError, USER_REJECTED, walletErrorCode } from "./wallet-errors";

/** How long a signed message stays usable; the server's nonce lasts as long. */
const MESSAGE_LIFETIME_MS = 10 * 60 * 1000;

function explain(error: unknown, step: "connect" | "sign"): Error {
  if (walletErrorCode(error) === USER_REJECTED) {
    return new Error(
      step === "connect"
        ? "You rejected the connection request in your wallet."
        : "You rejected the signature request in your wallet. Nothing was signed.",
    );
  }
  return new Error(describeWalletError(error));
}

/**
 * Sign-In with Ethereum (EIP-4361) from the browser wallet: connects the injected wallet (EIP-6963) unless it is
 * connected already, asks for a nonce only then, and has the wallet sign a message for this site and the
 * wallet's current chain. Loaded on demand only: wagmi and viem stay out of the entry chunk.
 */
export async function signSiweMessage(options: {
  statement: string;
  getNonce: () => Promise<string>;
}): Promise<SiweSignedMessage> {
  const config = sharedWalletConfig(await queryClient.fetchQuery(chainConfigQueryOptions()));
  let connection = getConnection(config);
  if (connection.status !== "connected") {
    const connector = preferredConnector(config.connectors);
    if (!connector) throw new Error("No browser wallet was found. Install one, or sign in with a password.");
    try {
      await connect(config, { connector });
    } catch (error) {
      throw explain(error, "connect");
    }
    connection = getConnection(config);
  }
  window.dispatchEvent(new Event(WALLET_CONNECTED_EVENT));
  const { address, chainId } = connection;
  if (!address || !chainId) throw new Error("The wallet did not share an account.");

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
    throw explain(error, "sign");
  }
}
