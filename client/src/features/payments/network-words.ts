import type { t as translate } from "@/i18n/i18n";
import { type networkName, networkNameIn } from "@/lib/network-name";

type TokenChain = Parameters<typeof networkName>[1];

/**
 * The network as a payer reads it (the pay page, the receipt and its PDF, a refund link, the managed wallet's
 * card; issue 37): the networks' own names as they are ("Base", "Ethereum": never translated), the local
 * development chain and a network without a name in the reader's words.
 */
export function payerNetworkName(t: typeof translate, chainId: number, tokenChain?: TokenChain): string {
  return networkNameIn(
    {
      localChain: t("pay.view.localChain"),
      unnamedNetwork: (id) => t("pay.view.unnamedNetwork", { chainId: id }),
    },
    chainId,
    tokenChain,
  );
}
