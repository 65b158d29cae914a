import * as z from "zod";

/** Sign-In with Ethereum (EIP-4361). A nonce works once, within this time. */
export const SIWE_NONCE_TTL_MS = 10 * 60 * 1000;
export const SIWE_SIGN_IN_STATEMENT = "Sign in to CPXTB Pay";
export const SIWE_LINK_STATEMENT = "Link this wallet to my CPXTB Pay account";
/** Ethereum mainnet and Sepolia: the chains the wallet control offers besides the token's chain. */
export const SIWE_EXTRA_CHAIN_IDS = [1, 11155111] as const;

export const siweNonceResponse = z.object({
  nonce: z.string(),
  expiresAt: z.string(),
});
export type SiweNonceResponse = z.infer<typeof siweNonceResponse>;

export const siweSignedMessage = z.object({
  message: z
    .string({ error: "message is required" })
    .min(1, "message is required")
    .max(4000, "message is too long"),
  signature: z
    .string({ error: "signature is required" })
    .regex(/^0x[0-9a-fA-F]+$/, "signature must be hex (0x...)")
    .max(20_000, "signature is too long"),
});
export type SiweSignedMessage = z.infer<typeof siweSignedMessage>;

export const linkedWallet = z.object({
  /** EIP-55 checksummed. */
  address: z.string(),
  chainId: z.number().int(),
  provenBy: z.enum(["siwe_sign_in", "siwe_link"]),
  createdAt: z.string(),
});
export type LinkedWallet = z.infer<typeof linkedWallet>;

export const linkedWalletsResponse = z.object({ wallets: z.array(linkedWallet) });
export type LinkedWalletsResponse = z.infer<typeof linkedWalletsResponse>;

export const walletAddressParams = z.object({
  address: z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/, "must be an Ethereum address: 0x followed by 40 hex digits"),
});
