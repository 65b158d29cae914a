/** What `networkName` calls the embedded development chain (a payer's screen says it in the reader's words). */
export const LOCAL_CHAIN_NAME = "Local development chain";

/** Networks a payer or a wallet may name, by chain id: what people call them, never "chain 8453". */
const KNOWN: Record<number, string> = {
  1: "Ethereum",
  10: "Optimism",
  56: "BNB Smart Chain",
  137: "Polygon",
  8453: "Base",
  42161: "Arbitrum One",
  84532: "Base Sepolia",
  11155111: "Sepolia",
  31337: LOCAL_CHAIN_NAME,
};

/**
 * The name of the network `chainId`. `tokenChain` (GET /api/chain-config) names the token's own chain when it is
 * none of the known ones; the embedded development chain is always "Local development chain".
 */
export function networkName(
  chainId: number,
  tokenChain?: { chainId: number; chainName: string; development: boolean } | null,
): string {
  if (tokenChain && tokenChain.chainId === chainId && tokenChain.development) return KNOWN[31337]!;
  const known = KNOWN[chainId];
  if (known) return known;
  if (tokenChain && tokenChain.chainId === chainId) return tokenChain.chainName;
  return `an unnamed network (chain ID ${chainId})`;
}

/** How a translated screen says the two names that are not a network's own (issue 37). */
export type NetworkWords = { localChain: string; unnamedNetwork: (chainId: string) => string };

/**
 * `networkName` as a reader of `words` reads it: the networks' own names as they are ("Base", "Ethereum": never
 * translated), the local development chain and a network without a name in the reader's words.
 */
export function networkNameIn(
  words: NetworkWords,
  chainId: number,
  tokenChain?: Parameters<typeof networkName>[1],
): string {
  const name = networkName(chainId, tokenChain);
  if (name === LOCAL_CHAIN_NAME) return words.localChain;
  if (name.startsWith("an unnamed network")) return words.unnamedNetwork(String(chainId));
  return name;
}

/** A decimal token amount for people: thousands separators, at most `maxDecimals` decimals, no float rounding. */
export function groupedAmount(decimal: string, maxDecimals = 4): string {
  const [whole = "0", fraction = ""] = decimal.trim().split(".");
  const grouped = (whole.replace(/^0+(?=\d)/, "") || "0").replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  const cut = fraction.slice(0, maxDecimals).replace(/0+$/, "");
  return cut ? `${grouped}.${cut}` : grouped;
}
