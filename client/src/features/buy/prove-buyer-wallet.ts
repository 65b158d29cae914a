import type { BuyWalletProof } from "@common/buy";
import { walletsQueryOptions } from "@/features/auth/api/siwe";
import { managedWalletQueryOptions } from "@/features/social/api/social";
import { connectBrowserWallet } from "@/features/wallet/send-eth-payment";
import { signOwnershipProof } from "@/features/wallet/sign-ownership";
import { queryClient } from "@/lib/query-client";
import { createBuyWalletChallenge } from "./api/buy-api";

export type ProvenBuyer = { buyerAddress: string; proof?: BuyWalletProof };

/** The signed-in account's own wallets (linked by Sign in with Ethereum or in the profile, and the managed one). */
async function accountWallets(): Promise<string[]> {
  const [linked, managed] = await Promise.all([
    queryClient.fetchQuery(walletsQueryOptions()).catch(() => null),
    queryClient.fetchQuery(managedWalletQueryOptions()).catch(() => null),
  ]);
  const list = (linked?.wallets ?? []).map((w) => w.address.toLowerCase());
  if (managed?.address) list.push(managed.address.toLowerCase());
  return list;
}

/**
 * The browser wallet the ETH is paid from, shown to be the buyer's (decision 013): a wallet of the signed-in
 * account needs nothing more; any other signs the server's message (free, no transaction). Loaded on demand
 * with the wallet code.
 */
export async function proveBuyerWallet(signedIn: boolean): Promise<ProvenBuyer> {
  const address = await connectBrowserWallet();
  if (signedIn && (await accountWallets()).includes(address.toLowerCase())) return { buyerAddress: address };
  const { challenge, signature } = await signOwnershipProof((a) => createBuyWalletChallenge(a));
  return { buyerAddress: challenge.address, proof: { nonce: challenge.nonce, signature } };
}
