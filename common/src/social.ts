import * as z from "zod";

import { SOCIAL_PROVIDERS } from "./social-values";

export * from "./social-values";

export const socialProvider = z.enum(SOCIAL_PROVIDERS);

/** How each provider is available here: the real provider, the development stand-in page, or not at all. */
export const socialProviderStatus = z.object({
  provider: socialProvider,
  name: z.string(),
  mode: z.enum(["provider", "development", "unavailable"]),
});
export const socialProvidersResponse = z.object({ providers: z.array(socialProviderStatus) });
export type SocialProvidersResponse = z.infer<typeof socialProvidersResponse>;

/** Spec section 7: POST /api/social-auth/{provider}. */
export const socialAuthRequest = z.object({
  redirectUrl: z.string().max(2000).optional(),
  enableWeb3Auth: z.boolean().optional(),
  enableRealLogin: z.boolean().optional(),
});
export const socialAuthResponse = z.object({
  name: z.string(),
  email: z.string(),
  walletAddress: z.string(),
  /** Whole tokens as a decimal string, read from the chain. */
  balance: z.string(),
});
export type SocialAuthResponse = z.infer<typeof socialAuthResponse>;

export const linkedSocialAccount = z.object({
  provider: socialProvider,
  name: z.string().nullable(),
  email: z.string().nullable(),
  development: z.boolean(),
  createdAt: z.string(),
});
export const linkedSocialAccountsResponse = z.object({
  accounts: z.array(linkedSocialAccount),
  /**
   * Whether the account has a managed wallet (held for it since its first social sign-in or link; kept after an
   * unlink): /profile shows that wallet's section only then, without asking GET /api/wallet for a 404.
   */
  managedWallet: z.boolean(),
});
export type LinkedSocialAccountsResponse = z.infer<typeof linkedSocialAccountsResponse>;

// ---- Managed wallet ----

export const MANAGED_WALLET_RECENT_SIGN_IN_MS = 15 * 60 * 1000;

export const managedWalletResponse = z.object({
  address: z.string(),
  /** Whole tokens, decimal string. */
  balance: z.string(),
  ethBalance: z.string(),
  symbol: z.string(),
  dailyLimit: z.string(),
  spentToday: z.string(),
  custodial: z.literal(true),
});
export type ManagedWalletResponse = z.infer<typeof managedWalletResponse>;

const idempotencyKey = z
  .string({ error: "idempotencyKey is required" })
  .min(8, "idempotencyKey must be at least 8 characters")
  .max(100, "idempotencyKey is too long")
  .regex(/^[A-Za-z0-9_.:-]+$/, "idempotencyKey may hold letters, digits and _ . : - only");

export const walletPayRequest = z.object({
  reference: z.string().min(1, "reference is required").max(100),
  idempotencyKey,
});
export const walletWithdrawRequest = z.object({
  to: z.string().regex(/^0x[0-9a-fA-F]{40}$/, "to must be a 0x-prefixed 20-byte address"),
  /** Whole tokens as a decimal string (up to the token's decimals). */
  amount: z.string().regex(/^\d{1,30}(\.\d{1,18})?$/, "amount must be a decimal number like 12.5"),
  idempotencyKey,
});
export const walletSendResponse = z.object({
  id: z.string(),
  kind: z.enum(["pay", "withdraw"]),
  /** `confirmed` (final) once mined with the chain's confirmations; `failed`: not sent, or reverted. */
  status: z.enum(["reserved", "signed", "broadcast", "confirmed", "failed"]),
  txHash: z.string().nullable(),
  to: z.string(),
  amount: z.string(),
  paymentReference: z.string().nullable(),
});
export type WalletSendResponse = z.infer<typeof walletSendResponse>;

/** GET /api/wallet/sends: the signed-in account's own payments and withdrawals from its managed wallet. */
export const walletSendsQuery = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1, "limit must be at least 1")
    .max(50, "limit must be 50 or less")
    .default(20),
  /** The `nextCursor` of the previous page. */
  cursor: z
    .string()
    .regex(/^wsd_[0-9a-z]{26}$/, "cursor must be the nextCursor of a previous page")
    .optional(),
});
export const walletSendItem = walletSendResponse.extend({
  createdAt: z.string(),
  /** `${explorer}/tx/${hash}` when the server has a block explorer configured; else null (show the hash). */
  txUrl: z.string().nullable(),
});
export const walletSendsResponse = z.object({
  items: z.array(walletSendItem),
  nextCursor: z.string().nullable(),
});
export type WalletSendItem = z.infer<typeof walletSendItem>;
export type WalletSendsResponse = z.infer<typeof walletSendsResponse>;
