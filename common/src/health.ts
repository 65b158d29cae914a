import { z } from "zod";

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
});
export type IndexerStatus = z.infer<typeof indexerStatus>;

export const readyResponse = z.object({
  status: z.literal("ready"),
  database: z.object({ driver: z.enum(["pglite", "pg"]) }),
  /** Absent when the server has no chain connection. */
  indexer: indexerStatus.optional(),
});
