import type { EmbeddedChain } from "./embedded.ts";

/** The start-up banner of the embedded chain. The keys printed are anvil's public test keys, never real ones. */
export function describeEmbeddedChain(embedded: EmbeddedChain, dataDir: string): string {
  const { deployment, chain } = embedded;
  const lines = [
    `  chain: embedded anvil (chain id ${chain.chainId}) at ${embedded.anvil.url}, ready in ${embedded.startupMs} ms`,
    `         state in ${dataDir}/anvil-state.json; ${embedded.deployed ? "contracts deployed now (first start)" : "contracts from a previous start"}`,
    `  token: ${chain.token.symbol} ${deployment.token} (${chain.token.decimals} decimals)`,
    `  price pool: ${deployment.pool}   ETH/USD feed: ${deployment.ethUsdFeed}`,
    "",
    "  Demo accounts (DEVELOPMENT KEYS ONLY: anvil's public test mnemonic; never use them on a real network):",
    ...embedded.demoAccounts.map(
      (a) =>
        `    #${a.index} ${a.address}  key ${a.privateKey}  (${a.role}${a.mintedTokens !== "0" ? `, minted ${a.mintedTokens} ${chain.token.symbol}` : ""})`,
    ),
    "",
  ];
  return lines.join("\n");
}
