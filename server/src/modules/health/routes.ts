import { apiErrorBody } from "@common/errors.ts";
import { healthResponse, type IndexerStatus, readyResponse, type TreasuryStatus } from "@common/health.ts";
import type { Database } from "../../db/client.ts";
import { AppError } from "../../errors.ts";
import type { FastifyZod } from "../../lib/fastify-zod.ts";
import type { SharedState } from "../../lib/shared-state/shared-state.ts";

export async function healthRoutes(
  app: FastifyZod,
  {
    database,
    indexer,
    sharedState,
    treasury,
  }: {
    database: Database;
    /** Probes the chain from this instance, then reports (see PaymentsRuntime.checkHealth). */
    indexer?: () => Promise<IndexerStatus | null>;
    sharedState: SharedState;
    treasury?: () => TreasuryStatus | null;
  },
) {
  app.get(
    "/api/health",
    { config: { rateLimit: false }, schema: { response: { 200: healthResponse } } },
    async () => ({
      status: "ok" as const,
      uptimeSeconds: Math.round(process.uptime()),
    }),
  );

  app.get(
    "/api/ready",
    { config: { rateLimit: false }, schema: { response: { 200: readyResponse, 503: apiErrorBody } } },
    async () => {
      try {
        await database.ping();
      } catch {
        throw new AppError("SERVICE_UNAVAILABLE", "The database is not reachable.");
      }
      const pending = await database.pendingMigrations();
      if (pending.length > 0) {
        throw new AppError("SERVICE_UNAVAILABLE", `${pending.length} database migration(s) not applied.`);
      }
      const status = (await indexer?.()) ?? null;
      const shared = sharedState.status?.();
      const treasuryStatus = treasury?.() ?? null;
      return {
        status: "ready" as const,
        database: { driver: database.driver },
        ...(status ? { indexer: status } : {}),
        sharedState: { kind: sharedState.kind, mode: shared?.mode ?? "shared", since: shared?.since ?? null },
        ...(treasuryStatus ? { treasury: treasuryStatus } : {}),
      };
    },
  );
}
