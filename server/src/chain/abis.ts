import { parseAbi } from "viem";

export { erc20Abi } from "viem";

/** Uniswap V2 pair (also matches Aerodrome/Velodrome classic pools, whose reserves ABI-encode the same way). */
export const pairAbi = parseAbi([
  "function getReserves() view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast)",
  "function token0() view returns (address)",
  "function token1() view returns (address)",
]);

/** Chainlink AggregatorV3Interface, the part a price reader needs. */
export const aggregatorAbi = parseAbi([
  "function decimals() view returns (uint8)",
  "function latestRoundData() view returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)",
]);
