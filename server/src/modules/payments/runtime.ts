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

/**
 * A standby calls the leader stalled when its newest checkpoint is older than this while the chain has moved
 * on by more than STALL_BLOCKS blocks (on a quiet chain an old checkpoint is normal, not a fault).
 */
const LEADER_STALE_MS = 60_000;
const STALL_BLOCKS = 2n;
/** Every instance asks the chain itself for its head, at most this often (readiness checks share the answer). */
const PROBE_FRESH_MS = 500;
/** A chain node that has not answered the probe within this is reported unreachable. */
const PROBE_TIMEOUT_MS = 1000;

/** Any fixed 64-bit number: the one indexer (and expiry job) across instances. */
const ENGINE_LOCK_ID = 7_301_155_220_005n;

export type PaymentsRuntimeOptions = {
  pollMs: number;
  maxRange: number;
  startBlock?: bigint;
  /** See `IndexerOptions.idleClockMarginMs`. */
  idleClockMarginMs?: number;
  expiryEveryMs: number;
  /** How often a standby instance tries to take the lock, and the holder checks it still has it. */
  lockEveryMs: number;
  /** See LEADER_STALE_MS (tests shorten it). */
  leaderStaleMs?: number;
  /** How often the live publisher sweeps its queue without being woken (see LIVE_SWEEP_MS). */
  liveSweepMs?: number;
};

/** This instance's own view of the chain node (not the leader's). */
export type ChainProbe = {
  reachable: boolean | null;
  head: string | null;
  checkedAt: string | null;
  error: string | null;
};

export type PaymentsHealth = IndexerHealth & {
  role: "leader" | "standby" | "stopped" | "disabled";
  chain: ChainProbe;
  /** On a standby: the leader's progress as its database checkpoints show it; null on the leader itself. */
  leader: { lastBlock: string | null; checkpointAt: string | null; stalled: boolean } | null;
};

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
  private probe: { at: number; reachable: boolean; head: bigint | null; error: string | null } | null = null;
  private probing: Promise<void> | null = null;

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
    this.live = new PaymentLive(deps, sharedState, sessions, hub, log, baseUrl, options.liveSweepMs);
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
          now: deps.now,
          idleClockMarginMs: options.idleClockMarginMs,
          log,
        })
      : null;
  }

  get isLeader() {
    return this.lock !== null;
  }

  /** Starts the live sweep and competing for the engine lock; the holder runs the indexer and the expiry job. */
  start() {
    // On every instance, chain or not: publishes the live events a missed wake-up left (decision 031).
    this.live.startSweep();
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
        if (this.chain) await expireDue(this.deps, this.chain, this.indexer?.chainTime() ?? null);
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

  /** Asks the chain node for its head (shared by concurrent callers, reused for PROBE_FRESH_MS), then health(). */
  async checkHealth(): Promise<PaymentsHealth | null> {
    if (!this.indexer || !this.chain) return null;
    if (!this.probe || Date.now() - this.probe.at >= PROBE_FRESH_MS) {
      this.probing ??= this.probeChain(this.chain).finally(() => {
        this.probing = null;
      });
      await this.probing;
    }
    return this.health();
  }

  private async probeChain(chain: Chain) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const head = await Promise.race([
        chain.client.getBlockNumber({ cacheTime: 0 }),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`no answer within ${PROBE_TIMEOUT_MS} ms`)),
            PROBE_TIMEOUT_MS,
          );
        }),
      ]);
      this.probe = { at: Date.now(), reachable: true, head, error: null };
    } catch (error) {
      const message = (error as { shortMessage?: string }).shortMessage ?? (error as Error).message;
      this.probe = { at: Date.now(), reachable: false, head: null, error: String(message).slice(0, 200) };
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Healthy when this instance reaches the chain node itself (its own probe: a standby does not borrow the
   * leader's view) and detection runs: on the leader its indexer succeeds, on a standby the leader is not
   * stalled. Synchronous: the last probe's result (`checkHealth` probes first).
   */
  health(): PaymentsHealth | null {
    if (!this.indexer) return null;
    const role = !this.started ? "stopped" : this.lock ? "leader" : "standby";
    const probe = this.probe;
    const chain: ChainProbe = {
      reachable: probe?.reachable ?? null,
      head: probe?.head?.toString() ?? null,
      checkedAt: probe ? new Date(probe.at).toISOString() : null,
      error: probe?.error ?? null,
    };
    const reachable = probe?.reachable !== false;
    if (role !== "standby") {
      const own = this.indexer.health();
      return { ...own, healthy: own.healthy && reachable, role, chain, leader: null };
    }
    const cursor = this.leaderCursor;
    const old =
      cursor !== null && Date.now() - cursor.at.getTime() >= (this.options.leaderStaleMs ?? LEADER_STALE_MS);
    // Without a head of our own, an old checkpoint is all there is to go by.
    const stalled = old && (probe?.head == null || probe.head > cursor!.blockNumber + STALL_BLOCKS);
    return {
      role,
      running: false,
      healthy: cursor !== null && reachable && !stalled,
      lastBlock: cursor?.blockNumber.toString() ?? null,
      head: chain.head,
      lagBlocks:
        probe?.head != null && cursor !== null ? Math.max(0, Number(probe.head - cursor.blockNumber)) : null,
      lastError: probe?.reachable === false ? probe.error : null,
      lastErrorAt: probe?.reachable === false ? chain.checkedAt : null,
      lastSuccessAt: cursor?.at.toISOString() ?? null,
      chain,
      leader: {
        lastBlock: cursor?.blockNumber.toString() ?? null,
        checkpointAt: cursor?.at.toISOString() ?? null,
        stalled,
      },
    };
  }

  /** Runs the expiry job once now (tests). */
  expireNow() {
    return this.chain
      ? expireDue(this.deps, this.chain, this.indexer?.chainTime() ?? null)
      : Promise.resolve(0);
  }
}
