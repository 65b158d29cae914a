import { sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { type DbOrTx, rowsOf } from "../../db/client.ts";
import { startPeriodic } from "../maintenance/retention.ts";

/** One compaction at a time across instances (two would delete each other's rows in different orders). */
const COMPACTION_LOCK = 7_301_155_220_015;
/** Deltas read per statement: a short transaction, however large the backlog (the job comes back at once). */
const BATCH = 5000;

/**
 * Adds the rows of each key (merchant, link, status, quarter hour or day) that has deltas not yet added in into one
 * compacted row, for up to `batch` deltas: the summary then reads about one row per key. A key whose sums come to
 * nothing (its payments all moved to another status) is left with no row. Deltas written meanwhile stay for the
 * next pass: the delete takes only the rows its statement sees, so each row is added exactly once. Returns the
 * number of deltas added in (0: nothing was waiting, or another instance holds the lock).
 */
export async function compactPaymentSums(db: DbOrTx, batch = BATCH): Promise<number> {
  return db.transaction(async (tx) => {
    const [lock] = rowsOf<{ locked: boolean }>(
      await tx.execute(sql`select pg_try_advisory_xact_lock(${COMPACTION_LOCK}) as locked`),
    );
    if (!lock?.locked) return 0;
    const [row] = rowsOf<{ deltas: number }>(
      await tx.execute(sql`
        with pending as (
          select merchant_id, link_id, status, unit, slot from payment_sums where not compacted order by id limit ${batch}
        ), keys as (
          select distinct merchant_id, link_id, status, unit, slot from pending
        ), gone as (
          delete from payment_sums s using keys k
          where s.merchant_id = k.merchant_id and s.unit = k.unit and s.slot = k.slot and s.status = k.status
            and s.link_id is not distinct from k.link_id
          returning s.*
        ), added as (
          insert into payment_sums (merchant_id, link_id, status, unit, slot, count, received, usd_cents, unvalued, due,
            received_count, refunded_count, refunded, refunded_usd_cents, compacted)
          select merchant_id, link_id, status, unit, slot, sum(count), sum(received), sum(usd_cents), sum(unvalued),
            sum(due), sum(received_count), sum(refunded_count), sum(refunded), sum(refunded_usd_cents), true
          from gone
          group by merchant_id, link_id, status, unit, slot
          having sum(count) <> 0 or sum(received) <> 0 or sum(usd_cents) <> 0 or sum(unvalued) <> 0
            or sum(due) <> 0 or sum(received_count) <> 0 or sum(refunded_count) <> 0 or sum(refunded) <> 0
            or sum(refunded_usd_cents) <> 0
          returning 1
        )
        select (select count(*) from gone where not compacted)::int as deltas, (select count(*) from added) as kept`),
    );
    return row?.deltas ?? 0;
  });
}

/**
 * Compacts every minute, the first time a minute after start (never on the start's critical path), and again at
 * once while a full batch was found. Every instance runs it; the advisory lock lets one at a time work.
 */
export function startSumsCompaction(options: {
  db: DbOrTx;
  log: FastifyBaseLogger;
  firstAfterMs?: number;
  everyMs?: number;
}): { stop: () => Promise<void> } {
  const { db, log, firstAfterMs = 60_000, everyMs = 60_000 } = options;
  let stopped = false;
  const periodic = startPeriodic(
    async () => {
      try {
        while (!stopped && (await compactPaymentSums(db)) >= BATCH) {}
      } catch (error) {
        log.error({ err: error }, "report sums: compaction failed, tried again at the next pass");
      }
    },
    firstAfterMs,
    everyMs,
  );
  return {
    async stop() {
      stopped = true;
      await periodic.stop();
    },
  };
}
