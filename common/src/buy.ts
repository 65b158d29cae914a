import * as z from "zod";

/** A quote's lock after the order is created (spec: "locked for 10 minutes"); the server's setting wins. */
export const DEFAULT_QUOTE_MINUTES = 10;

const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, "must be a 0x-prefixed 20-byte hex address");
const txHash = z.string().regex(/^0x[0-9a-fA-F]{64}$/, "must be a 0x-prefixed 32-byte transaction hash");

export const buyAmountInput = z
  .object({
    usd: z
      .string()
      .trim()
      .regex(/^\d{1,9}(\.\d{1,2})?$/, "Enter a USD amount like 25 or 12.50.")
      .optional(),
    tokens: z
      .string()
      .trim()
      .regex(/^\d{1,15}(\.\d{1,6})?$/, "Enter a CPXTB amount like 1000 or 2.5.")
      .optional(),
  })
  .refine((v) => (v.usd === undefined) !== (v.tokens === undefined), "Give either usd or tokens.");
export type BuyAmountInput = z.infer<typeof buyAmountInput>;

export const buyQuoteResponse = z.object({
  usd: z.string(),
  tokens: z.string(),
  tokenAmountBase: z.string(),
  /** Null when ETH purchases are unavailable (no ETH/USD feed). */
  eth: z.string().nullable(),
  ethAmountWei: z.string().nullable(),
  usdPerToken: z.string(),
  ethUsd: z.string().nullable(),
  priceUpdatedAt: z.string(),
});
export type BuyQuote = z.infer<typeof buyQuoteResponse>;

/** Why buying is unavailable: the server has no chain connection, or no treasury. */
export const BUY_UNAVAILABLE_REASONS = ["no_chain", "no_treasury"] as const;
export type BuyUnavailableReason = (typeof BUY_UNAVAILABLE_REASONS)[number];

export const buyConfigResponse = z.object({
  available: z.boolean(),
  /** Why buying is unavailable, in English words for the buyer. */
  reason: z.string().nullable(),
  /** The same as a code, which the buy page says in its reader's words (issue 37). */
  unavailableReason: z.enum(BUY_UNAVAILABLE_REASONS).nullable(),
  treasuryAddress: z.string().nullable(),
  chainId: z.number().int().nullable(),
  minUsd: z.string(),
  maxUsd: z.string(),
  quoteMinutes: z.number().int(),
  methods: z.object({ eth: z.boolean(), paypal: z.boolean() }),
});
export type BuyConfig = z.infer<typeof buyConfigResponse>;

/** Same-origin path to come back to (the pay page that sent the buyer). */
export const returnToPath = z
  .string()
  .max(300)
  .regex(/^\/(?!\/)[A-Za-z0-9\-._~/?=&%]*$/, "must be a path on this site");

/**
 * Proof that the buyer controls `buyerAddress`: an EIP-191 signature of the message from
 * `POST /api/buy/wallet-challenge`. Not needed for a wallet linked to the signed-in account or its managed wallet.
 */
export const buyWalletProof = z.object({
  nonce: z.string().min(16).max(64),
  signature: z.string().regex(/^0x[0-9a-fA-F]{130}$/, "must be a 65-byte hex signature"),
});
export type BuyWalletProof = z.infer<typeof buyWalletProof>;

export const buyWalletChallengeRequest = z.object({ address });
export const buyWalletChallengeResponse = z.object({
  address: z.string(),
  nonce: z.string(),
  message: z.string(),
  expiresAt: z.string(),
});
export type BuyWalletChallenge = z.infer<typeof buyWalletChallengeResponse>;

/**
 * Where the bought CPXTB goes: `wallet` (default) the order's wallet (`buyerAddress`); `managed` the signed-in
 * account's managed wallet, whose address the server takes from the session (decision 032).
 */
export const buyDeliverTo = z.enum(["wallet", "managed"]);
export type BuyDeliverTo = z.infer<typeof buyDeliverTo>;

export const createBuyOrderRequest = z
  .object({
    method: z.enum(["eth", "paypal"]),
    buyerAddress: address,
    proof: buyWalletProof.optional(),
    deliverTo: buyDeliverTo.optional(),
    usd: buyAmountInput.shape.usd,
    tokens: buyAmountInput.shape.tokens,
    returnTo: returnToPath.nullish(),
  })
  .refine((v) => (v.usd === undefined) !== (v.tokens === undefined), "Give either usd or tokens.");
export type CreateBuyOrderRequest = z.infer<typeof createBuyOrderRequest>;

export const BUY_ORDER_STATUSES = [
  "quoted",
  "confirming",
  "paid",
  "sending",
  "delivered",
  "expired",
  "underpaid",
  "late",
  "wrong_sender",
  "failed",
] as const;
export type BuyOrderStatus = (typeof BUY_ORDER_STATUSES)[number];

/**
 * Why an order needs attention, beside its English `problem` (issue 37): a reason and its values as the server
 * formatted them (ETH amounts exact), for the order page to say in the buyer's language.
 */
export const buyProblemDetails = z.object({ reason: z.string() }).catchall(z.string());
export type BuyProblemDetails = z.infer<typeof buyProblemDetails>;

export const buyOrderResponse = z.object({
  id: z.string(),
  method: z.enum(["eth", "paypal"]),
  status: z.enum(BUY_ORDER_STATUSES),
  buyerAddress: z.string(),
  /** Where the CPXTB is sent: `buyerAddress`, or the account's managed wallet (`toManagedWallet`). */
  deliveryAddress: z.string(),
  toManagedWallet: z.boolean(),
  treasuryAddress: z.string(),
  chainId: z.number().int(),
  usd: z.string(),
  tokens: z.string(),
  tokenAmountBase: z.string(),
  eth: z.string().nullable(),
  ethAmountWei: z.string().nullable(),
  usdPerToken: z.string(),
  expiresAt: z.string(),
  createdAt: z.string(),
  payment: z
    .object({
      txHash: z.string(),
      txUrl: z.string().nullable(),
      from: z.string().nullable(),
      eth: z.string().nullable(),
    })
    .nullable(),
  delivery: z
    .object({
      status: z.enum(["queued", "signed", "confirmed", "failed"]),
      txHash: z.string().nullable(),
      txUrl: z.string().nullable(),
      note: z.string().nullable(),
      /** Which fixed note `note` is (`daily_limit`, `low_balance`, `nonce_reused`, `reverted`), null for another. */
      noteReason: z.string().nullable(),
    })
    .nullable(),
  problem: z.string().nullable(),
  problemDetails: buyProblemDetails.nullable(),
  refundDue: z.boolean(),
  returnTo: z.string().nullable(),
  /** PayPal: where the buyer approves the order. */
  approveUrl: z.string().nullable(),
});
export type BuyOrder = z.infer<typeof buyOrderResponse>;

/** POST /api/buy/paypal/orders: the same as an ETH order without the method; the answer carries `approveUrl`. */
export const createPaypalOrderRequest = z
  .object({
    buyerAddress: address,
    deliverTo: buyDeliverTo.optional(),
    usd: buyAmountInput.shape.usd,
    tokens: buyAmountInput.shape.tokens,
    returnTo: returnToPath.nullish(),
  })
  .refine((v) => (v.usd === undefined) !== (v.tokens === undefined), "Give either usd or tokens.");
export type CreatePaypalOrderRequest = z.infer<typeof createPaypalOrderRequest>;

/** PayPal sends the buyer back with its order id (`token`) and `PayerID`; ours is in `order`. */
export const paypalReturnQuery = z.object({
  order: z.string().regex(/^ord_[0-9a-z]{26}$/, "not an order id"),
  token: z.string().max(100).optional(),
  PayerID: z.string().max(100).optional(),
});

export const buyOrderParams = z.object({ id: z.string().regex(/^ord_[0-9a-z]{26}$/, "not an order id") });
export const submitBuyTxRequest = z.object({ txHash });

/** Live channel: `{type:"subscribeBuyOrder", id}` -> `buyOrderUpdate` (a snapshot, then one per change). */
export const subscribeBuyOrderMessage = z.object({
  type: z.literal("subscribeBuyOrder"),
  id: z.string().max(40),
});

export const buyOrderStatusLabels: Record<BuyOrderStatus, string> = {
  quoted: "Waiting for payment",
  confirming: "Payment seen, confirming",
  paid: "Payment confirmed",
  sending: "Sending CPXTB",
  delivered: "Delivered",
  expired: "Quote expired",
  underpaid: "Underpaid: refund due",
  late: "Paid after the quote expired: refund due",
  wrong_sender: "Paid from another wallet: refund due",
  failed: "Delivery failed",
};
