import { erc20Abi, getAddress } from "viem";
import { connect, getConnection, readContract, switchChain, writeContract } from "wagmi/actions";
import { queryClient } from "@/lib/query-client";
import { chainConfigQueryOptions } from "./api/get-chain-config";
import { preferredConnector, sharedWalletConfig } from "./wagmi-config";
import { waitUntilMined } from "./wait-until-mined";
import { WalletFailure, walletFailureOf } from "./wallet-errors";

export class InsufficientBalanceError extends Error {
  constructor(readonly balanceBase: bigint) {
    super("Insufficient Balance");
    this.name = "InsufficientBalanceError";
  }
}

export type TokenTransfer = {
  chainId: number;
  token: string;
  to: string;
  /** Base units. */
  amount: bigint;
  /**
   * The account that must send it (a merchant's refund leaves from its receiving wallet): another connected account
   * is refused before anything is signed.
   */
  from?: string;
};
export type TransferStep = "connecting" | "switching" | "confirm" | "mining";

/**
 * Pays from the browser wallet: connects (EIP-6963) unless connected, switches to the token's chain (adding it
 * when the wallet does not know it), checks the balance, sends an ERC-20 transfer of the exact base-unit amount
 * to the receiving address and waits for it to be mined. Loaded on demand: wagmi and viem stay out of the page's
 * first load. Returns the transaction hash.
 */
export async function sendTokenTransfer(
  payment: TokenTransfer,
  onStep?: (step: TransferStep) => void,
): Promise<`0x${string}`> {
  const config = sharedWalletConfig(await queryClient.fetchQuery(chainConfigQueryOptions()));
  let connection = getConnection(config);
  if (connection.status !== "connected") {
    onStep?.("connecting");
    const connector = preferredConnector(config.connectors);
    if (!connector)
      throw new WalletFailure(
        "No browser wallet was found. Scan the QR code with a mobile wallet.",
        "noWallet",
      );
    try {
      await connect(config, { connector });
    } catch (error) {
      throw walletFailureOf(error, "connect");
    }
    connection = getConnection(config);
  }
  const account = connection.address;
  if (!account) throw new WalletFailure("The wallet did not share an account.", "noAccount");
  if (payment.from && getAddress(payment.from) !== getAddress(account))
    throw new WalletFailure(
      `Your wallet is connected with ${account}, not ${getAddress(payment.from)}. Switch to that account in your wallet and try again.`,
      "otherAccount",
      null,
      { account, expected: getAddress(payment.from) },
    );
  if (connection.chainId !== payment.chainId) {
    onStep?.("switching");
    try {
      await switchChain(config, { chainId: payment.chainId });
    } catch (error) {
      throw walletFailureOf(error, "switch");
    }
  }
  const token = getAddress(payment.token);
  const amount = payment.amount;
  let balance: bigint;
  try {
    balance = await readContract(config, {
      address: token,
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [account],
      chainId: payment.chainId,
    });
  } catch (error) {
    throw walletFailureOf(error, "transaction");
  }
  if (balance < amount) throw new InsufficientBalanceError(balance);
  onStep?.("confirm");
  let hash: `0x${string}`;
  try {
    hash = await writeContract(config, {
      address: token,
      abi: erc20Abi,
      functionName: "transfer",
      args: [getAddress(payment.to), amount],
      account,
      chainId: payment.chainId,
    });
  } catch (error) {
    throw walletFailureOf(error, "transaction");
  }
  onStep?.("mining");
  await waitUntilMined(config, hash, payment.chainId);
  return hash;
}
