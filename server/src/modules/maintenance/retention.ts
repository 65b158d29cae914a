import { type SQL, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { DbOrTx } from "../../db/client.ts";

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

/**
 * How long rows that only serve a short purpose are kept (decision 016). Payments, their events, refunds and the
 * audit log are never pruned: they are the merchant's records.
 */
export const RETENTION = {
  /** An `Idempotency-Key` of /api/v1 answers retries for 24 hours, as at the large payment APIs. */
  idempotencyKeys: DAY,
  /** A webhook delivery's log, once delivered or given up: 30 days. Pending ones are never pruned. */
  finishedWebhookDeliveries: 30 * DAY,
  /** A payment email's row, once sent or given up: 30 days. */
  finishedPaymentEmails: 30 * DAY,
  /** A session or a wallet challenge a day after it expired (neither can be used after its expiry). */
  expiredSessions: DAY,
  expiredWalletChallenges: DAY,
} as const;

/** Rows deleted per statement: short statements, so a large backlog never holds locks for long. */
const BATCH = 1000;

async function deleteInBatches(db: DbOrTx, table: SQL, where: SQL): Promise<number> {
  let total = 0;
  for (;;) {
    const result = await db.execute(
      sql`delete from ${table} where id in (select id from ${table} where ${where} limit ${BATCH})`,
    );
    const count =
      (result as { affectedRows?: number; rowCount?: number | null }).affectedRows ??
      (result as { rowCount?: number | null }).rowCount ??
      0;
    total += count;
    if (count < BATCH) return total;
  }
}

/** One pass over every kind of row with a retention: the number deleted of each. */
export async function pruneExpiredRows(
  db: DbOrTx,
  now: Date,
): Promise<Record<keyof typeof RETENTION, number>> {
  const before = (ms: number) => new Date(now.getTime() - ms);
  return {
    idempotencyKeys: await deleteInBatches(
      db,
      sql`api_idempotency_keys`,
      sql`created_at < ${before(RETENTION.idempotencyKeys)}`,
    ),
    finishedWebhookDeliveries: await deleteInBatches(
      db,
      sql`webhook_deliveries`,
      sql`status in ('delivered', 'failed') and created_at < ${before(RETENTION.finishedWebhookDeliveries)}`,
    ),
    finishedPaymentEmails: await deleteInBatches(
      db,
      sql`payment_emails`,
      sql`status in ('sent', 'failed') and created_at < ${before(RETENTION.finishedPaymentEmails)}`,
    ),
    expiredSessions: await deleteInBatches(
      db,
      sql`sessions`,
      sql`expires_at < ${before(RETENTION.expiredSessions)}`,
    ),
    expiredWalletChallenges: await deleteInBatches(
      db,
      sql`wallet_challenges`,
      sql`expires_at < ${before(RETENTION.expiredWalletChallenges)}`,
    ),
  };
}

/**
 * Prunes every hour, the first time a minute after start (never on the start's critical path). Every instance
 * runs it: the deletes are idempotent, and two at once only find less to delete.
 */
export function startRetention(options: {
  db: DbOrTx;
  log: FastifyBaseLogger;
  now?: () => Date;
  firstAfterMs?: number;
  everyMs?: number;
}): { stop: () => Promise<void> } {
  const { db, log, now = () => new Date(), firstAfterMs = 60_000, everyMs = HOUR } = options;
  return startPeriodic(
    async () => {
      try {
        const deleted = await pruneExpiredRows(db, now());
        if (Object.values(deleted).some((n) => n > 0)) log.info({ deleted }, "retention: old rows deleted");
      } catch (error) {
        log.error({ err: error }, "retention: pruning failed, tried again at the next pass");
      }
    },
    firstAfterMs,
    everyMs,
  );
}

/**
 * Runs `pass` after `firstAfterMs`, then `everyMs` after each pass ends (never two at once); timers do not keep the
 * process alive. `stop` schedules no new pass and waits for one under way (the database closes after it).
 */
export function startPeriodic(
  pass: () => Promise<void>,
  firstAfterMs: number,
  everyMs: number,
): { stop: () => Promise<void> } {
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  const schedule = (ms: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = pass().finally(() => schedule(everyMs));
    }, ms);
    timer.unref();
  };
  schedule(firstAfterMs);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
