import * as z from "zod";

export const healthResponse = z.object({
  status: z.literal("ok"),
  uptimeSeconds: z.number(),
});

/** The payment indexer of this instance: `healthy` drives "Automatic Payment Detection Active". */
export const indexerStatus = z.object({
  role: z.enum(["leader", "standby", "stopped", "disabled"]),
  running: z.boolean(),
  healthy: z.boolean(),
  lastBlock: z.string().nullable(),
  head: z.string().nullable(),
  lagBlocks: z.number().int().nullable(),
  lastError: z.string().nullable(),
  lastErrorAt: z.string().nullable(),
  lastSuccessAt: z.string().nullable(),
  /** This instance's own probe of the chain node (every instance probes; a standby does not rely on the leader). */
  chain: z
    .object({
      reachable: z.boolean().nullable(),
      head: z.string().nullable(),
      checkedAt: z.string().nullable(),
      error: z.string().nullable(),
    })
    .optional(),
  /** On a standby: the leader's progress (its newest checkpoint); null on the leader. */
  leader: z
    .object({ lastBlock: z.string().nullable(), checkpointAt: z.string().nullable(), stalled: z.boolean() })
    .nullable()
    .optional(),
});
export type IndexerStatus = z.infer<typeof indexerStatus>;

/** The treasury sender (decision 013): `low` when its CPXTB or ETH is below the configured marks. */
export const treasuryStatus = z.object({
  address: z.string(),
  role: z.enum(["leader", "standby"]),
  tokenBalance: z.string().nullable(),
  ethBalance: z.string().nullable(),
  low: z.boolean(),
  queued: z.number().int(),
  inFlight: z.number().int(),
  lastError: z.string().nullable(),
});
export type TreasuryStatus = z.infer<typeof treasuryStatus>;

export const readyResponse = z.object({
  status: z.literal("ready"),
  database: z.object({ driver: z.enum(["pglite", "pg"]) }),
  /** Absent when the server has no chain connection. */
  indexer: indexerStatus.optional(),
  /**
   * Redis (or the in-process state of a single instance). `local`: Redis is unreachable and this instance
   * answers from its own limits and counts until it returns (still ready: the site works).
   */
  sharedState: z.object({
    kind: z.enum(["redis", "memory"]),
    mode: z.enum(["shared", "local"]),
    since: z.string().nullable(),
  }),
  /** Absent when the server has no treasury key. */
  treasury: treasuryStatus.optional(),
});
