import * as z from "zod";

export const claimRequest = z.object({
  walletAddress: z.string().regex(/^0x[0-9a-fA-F]{40}$/, "must be a 0x-prefixed 20-byte hex address"),
  /** The spec's per-wallet device id (local storage), made by the client. */
  deviceId: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, "must be 8 to 64 letters, digits, _ or -"),
});

export const claimStatusQuery = claimRequest.partial();

export const claimResponse = z.object({
  enabled: z.boolean(),
  amount: z.string(),
  /** When this account (and wallet, device, IP) may claim again; null = now. */
  nextClaimAt: z.string().nullable(),
  lastClaim: z
    .object({
      id: z.string(),
      amount: z.string(),
      createdAt: z.string(),
      status: z.enum(["queued", "signed", "confirmed", "failed"]),
      txHash: z.string().nullable(),
      txUrl: z.string().nullable(),
    })
    .nullable(),
});
export type ClaimStatus = z.infer<typeof claimResponse>;
