import type { t as translate } from "@/i18n/i18n";
import { LOCAL_CHAIN_NAME, networkName } from "@/lib/network-name";

type TokenChain = Parameters<typeof networkName>[1];

/**
 * The network as a payer reads it (the pay page, the receipt and its PDF, a refund link, the managed wallet's
 * card; issue 37): the networks' own names as they are ("Base", "Ethereum": never translated), the local
 * development chain and a network without a name in the reader's words.
 */
export function payerNetworkName(t: typeof translate, chainId: number, tokenChain?: TokenChain): string {
  const name = networkName(chainId, tokenChain);
  if (name === LOCAL_CHAIN_NAME) return t("pay.view.localChain");
  if (name.startsWith("an unnamed network"))
    return t("pay.view.unnamedNetwork", { chainId: String(chainId) });
  return name;
}
