import * as z from "zod";

export const priceResponse = z.object({
  /** USD per one whole CPXTB, exact decimal string. */
  usdPerToken: z.string(),
  /** The same price as an integer scaled by 10^18 (what payments lock). */
  priceE18: z.string(),
  /** ETH/USD used for a pool price; null for a fixed price. */
  ethUsd: z.string().nullable(),
  source: z.enum(["fixed", "pool"]),
  /** ISO time the price inputs were last updated. */
  updatedAt: z.string(),
  /** Older than the configured maximum age: shown, but refused for quotes. */
  stale: z.boolean(),
});
export type PriceResponse = z.infer<typeof priceResponse>;
