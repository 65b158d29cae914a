import { and, desc, eq } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { type IndexerHealth, TransferIndexer } from "../../chain/indexer.ts";
import type { Chain } from "../../chain/service.ts";
import type { Database, DatabaseLock } from "../../db/client.ts";
import { indexerBlocks } from "../../db/schema.ts";
import type { SharedState } from "../../lib/shared-state/shared-state.ts";
import type { SessionCache } from "../auth/session-cache.ts";
import type { RealtimeHub } from "../realtime/hub.ts";
import { PaymentLive } from "./live.ts";
import { createPaymentsSink, expireDue, type PaymentsDeps } from "./service.ts";

/** A standby reports detection healthy while the leader wrote a checkpoint this recently. */
const STANDBY_STALE_MS = 60_000;

/** Any fixed 64-bit number: the one indexer (and expiry job) across instances. */
const ENGINE_LOCK_ID = 7_301_155_220_005n;

export type PaymentsRuntimeOptions = {
  pollMs: number;
  maxRange: number;
  startBlock?: bigint;
  expiryEveryMs: number;
  /** How often a standby instance tries to take the lock, and the holder checks it still has it. */
  lockEveryMs: number;
};

export type PaymentsHealth = IndexerHealth & { role: "leader" | "standby" | "stopped" | "disabled" };

/**
 * The payment engine of one instance: the live channel always; the indexer and expiry job only while this
 * instance holds the engine lock (PostgreSQL advisory lock; another instance takes over when the holder dies).
 */
export class PaymentsRuntime {
  readonly live: PaymentLive;
  readonly indexer: TransferIndexer | null;
  private lock: DatabaseLock | null = null;
  private lockTimer: NodeJS.Timeout | null = null;
  private expiryTimer: NodeJS.Timeout | null = null;
  private started = false;
  /** Seen by a standby instance: the leader's newest checkpoint (block and when it was written). */
  private leaderCursor: { blockNumber: bigint; at: Date } | null = null;

  constructor(
    private readonly deps: PaymentsDeps,
    private readonly database: Database,
    private readonly chain: Chain | null,
    sharedState: SharedState,
    sessions: SessionCache,
    hub: RealtimeHub,
    private readonly log: FastifyBaseLogger,
    private readonly options: PaymentsRuntimeOptions,
    baseUrl: () => string,
  ) {
    this.live = new PaymentLive(deps, sharedState, sessions, hub, log, baseUrl);
    this.indexer = chain
      ? new TransferIndexer({
          db: database.db,
          client: chain.client,
          chainId: chain.chainId,
          token: chain.token.address,
          sink: createPaymentsSink(deps, chain),
          maxRange: options.maxRange,
          pollMs: options.pollMs,
          startBlock: options.startBlock,
          log,
        })
      : null;
  }

  get isLeader() {
    return this.lock !== null;
  }

  /** Starts competing for the engine lock; the holder runs the indexer and the expiry job. */
  start() {
    if (this.started || !this.indexer) return;
    this.started = true;
    void this.contend();
  }

  private async contend() {
    if (!this.started) return;
    try {
      if (this.lock && !(await this.lock.check())) {
        this.log.warn({}, "payments engine lock lost; indexer stopped");
        await this.stopLeading();
      }
      if (!this.lock) {
        const lock = await this.database.tryLock(ENGINE_LOCK_ID);
        if (lock && this.started) {
          this.lock = lock;
          this.log.info({}, "payments engine: this instance runs the indexer");
          this.indexer!.start();
          this.scheduleExpiry();
        } else {
          await lock?.release();
          this.leaderCursor = await this.readLeaderCursor();
        }
      }
    } catch (error) {
      this.log.warn({ err: error }, "payments engine lock check failed");
    }
    if (this.started) {
      this.lockTimer = setTimeout(() => void this.contend(), this.options.lockEveryMs);
      this.lockTimer.unref();
    }
  }

  private async readLeaderCursor() {
    if (!this.chain) return null;
    const [row] = await this.database.db
      .select({ blockNumber: indexerBlocks.blockNumber, at: indexerBlocks.createdAt })
      .from(indexerBlocks)
      .where(
        and(
          eq(indexerBlocks.chainId, this.chain.chainId),
          eq(indexerBlocks.tokenAddress, this.chain.token.address),
        ),
      )
      .orderBy(desc(indexerBlocks.blockNumber))
      .limit(1);
    return row ?? null;
  }

  private scheduleExpiry() {
    this.expiryTimer = setTimeout(async () => {
      try {
        if (this.chain) await expireDue(this.deps, this.chain);
      } catch (error) {
        this.log.warn({ err: error }, "payment expiry run failed");
      }
      if (this.lock) this.scheduleExpiry();
    }, this.options.expiryEveryMs);
    this.expiryTimer.unref();
  }

  private async stopLeading() {
    if (this.expiryTimer) clearTimeout(this.expiryTimer);
    this.expiryTimer = null;
    await this.indexer?.stop();
    const lock = this.lock;
    this.lock = null;
    await lock?.release();
  }

  async stop() {
    this.started = false;
    if (this.lockTimer) clearTimeout(this.lockTimer);
    await this.stopLeading();
    await this.live.stop();
  }

  health(): PaymentsHealth | null {
    if (!this.indexer) return null;
    const role = !this.started ? "stopped" : this.lock ? "leader" : "standby";
    if (role !== "standby") return { ...this.indexer.health(), role };
    // Another instance indexes: healthy while its cursor moves (a chain makes blocks every few seconds).
    const cursor = this.leaderCursor;
    const fresh = cursor !== null && Date.now() - cursor.at.getTime() < STANDBY_STALE_MS;
    return {
      role,
      running: false,
      healthy: fresh,
      lastBlock: cursor?.blockNumber.toString() ?? null,
      head: null,
      lagBlocks: null,
      lastError: null,
      lastErrorAt: null,
      lastSuccessAt: cursor?.at.toISOString() ?? null,
    };
  }

  /** Runs the expiry job once now (tests). */
  expireNow() {
    return this.chain ? expireDue(this.deps, this.chain) : Promise.resolve(0);
  }
}
