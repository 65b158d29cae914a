import * as z from "zod";

/** A 20-byte hex address; the EIP-55 checksum of mixed-case input is checked on the server. */
export const evmAddress = z
  .string({ error: "Enter a wallet address." })
  .trim()
  .regex(/^0x[0-9a-fA-F]{40}$/, "Enter a wallet address: 0x followed by 40 hexadecimal digits.");

export const balanceQuery = z.object({ address: evmAddress });

/** `balance` is the exact amount in whole tokens as a decimal string (never a float). */
export const balanceResponse = z.object({
  balance: z.string(),
  walletAddress: z.string(),
});
export type BalanceResponse = z.infer<typeof balanceResponse>;

/** What the browser needs to talk to the token's chain: public values only. */
export const chainConfigResponse = z.object({
  chainId: z.number().int(),
  chainName: z.string(),
  /** An RPC URL the browser and its wallet may use for the token's chain, or null when there is none. */
  rpcUrl: z.string().nullable(),
  blockExplorerUrl: z.string().nullable(),
  nativeCurrency: z.object({ name: z.string(), symbol: z.string(), decimals: z.number().int() }),
  token: z.object({ address: z.string(), symbol: z.string(), decimals: z.number().int() }),
  confirmations: z.number().int(),
  /** True for the embedded development chain: its accounts and keys are public test keys. */
  development: z.boolean(),
});
export type ChainConfigResponse = z.infer<typeof chainConfigResponse>;

/** JSON-RPC methods the development-chain proxy forwards (reads and signed transactions only). */
export const PROXIED_RPC_METHODS = [
  "eth_chainId",
  "net_version",
  "web3_clientVersion",
  "eth_blockNumber",
  "eth_call",
  "eth_estimateGas",
  "eth_gasPrice",
  "eth_maxPriorityFeePerGas",
  "eth_feeHistory",
  "eth_getBalance",
  "eth_getCode",
  "eth_getStorageAt",
  "eth_getTransactionCount",
  "eth_getTransactionByHash",
  "eth_getTransactionReceipt",
  "eth_getBlockByNumber",
  "eth_getBlockByHash",
  "eth_getLogs",
  "eth_sendRawTransaction",
] as const;
