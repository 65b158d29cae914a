import { and, desc, eq, gt, lt } from "drizzle-orm";
import { type Address, type Hash, type PublicClient, parseAbiItem } from "viem";
import type { Db, DbOrTx } from "../db/client.ts";
import { indexerBlocks } from "../db/schema.ts";
import { describeRpcFailure } from "./rpc-errors.ts";

export const transferEvent = parseAbiItem(
  "event Transfer(address indexed from, address indexed to, uint256 value)",
);

export type TransferLog = {
  txHash: Hash;
  logIndex: number;
  blockNumber: bigint;
  blockHash: Hash;
  blockTime: Date;
  from: Address;
  to: Address;
  value: bigint;
};

export type IndexedRange = {
  from: bigint;
  to: bigint;
  head: bigint;
  chainTime: Date | null;
  logs: TransferLog[];
  present: Set<string>;
};

/** What the indexer feeds: the payments engine. Every call runs inside the indexer's transaction. */
export type IndexerSink = {
  /** Addresses whose incoming transfers matter (merchants, and receiving addresses of watched payments). */
  watchedAddresses(db: DbOrTx): Promise<Set<string>>;
  /**
   * Logs of blocks [from, to] (only to watched addresses), the complete set for that range. `chainTime`: the
   * chain's time once this range is processed (see `TransferIndexer.chainTime`).
   */
  applyRange(db: DbOrTx, range: IndexedRange): Promise<void>;
  /** The chain lost every block above `ancestor`. */
  applyReorg(db: DbOrTx, reorg: { ancestor: bigint; head: bigint; chainTime: Date | null }): Promise<void>;
  /** After each committed transaction (publishes the outbox). */
  afterCommit(): void;
};

export type IndexerOptions = {
  db: Db;
  client: PublicClient;
  chainId: number;
  token: Address;
  sink: IndexerSink;
  /** Blocks per eth_getLogs call. */
  maxRange: number;
  pollMs: number;
  /** First block to scan when there is no cursor yet; default: the head at first start (no history). */
  startBlock?: bigint;
  /** The wall clock (tests move it). */
  now?: () => Date;
  /**
   * How far a block that was not yet visible may be stamped before the moment the indexer found the chain's head
   * already processed (timestamp granularity, producer and RPC lag). Default 30 s; the embedded chain, local and
   * mining on demand, uses 2 s.
   */
  idleClockMarginMs?: number;
  log: {
    info: (obj: object, msg: string) => void;
    warn: (obj: object, msg: string) => void;
    error: (obj: object, msg: string) => void;
  };
};

export type IndexerHealth = {
  running: boolean;
  healthy: boolean;
  lastBlock: string | null;
  head: string | null;
  lagBlocks: number | null;
  lastError: string | null;
  lastErrorAt: string | null;
  lastSuccessAt: string | null;
};

const MIN_BACKOFF_MS = 1000;
const MAX_BACKOFF_MS = 30_000;
/** Checkpoints kept below the cursor to find a common ancestor after a reorg. */
const CHECKPOINT_DEPTH = 2000n;

/**
 * Follows the token's Transfer logs from a cursor stored in the database (PAYMENTS.md, The indexer). One tick
 * checks the cursor block's hash (reorg), then scans bounded ranges up to the head, each range in one transaction
 * with its checkpoint, so a crash replays a range instead of skipping or double-counting it.
 */
export class TransferIndexer {
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private ticking: Promise<void> | null = null;
  private backoffMs = 0;
  private head: bigint | null = null;
  private lastBlock: bigint | null = null;
  private lastError: string | null = null;
  private lastErrorAt: Date | null = null;
  private lastSuccessAt: Date | null = null;
  /** The cursor's block after the last complete catch-up, when it was the chain's head. */
  private cursorTip: { number: bigint; hash: Hash } | null = null;
  /** The chain's time as far as this indexer has seen it (see `chainTime`). */
  private clock: Date | null = null;
  private readonly key: { chainId: number; tokenAddress: string };

  constructor(private readonly options: IndexerOptions) {
    this.key = { chainId: options.chainId, tokenAddress: options.token };
  }

  start() {
    if (this.running) return;
    this.running = true;
    this.schedule(0);
  }

  async stop() {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.ticking?.catch(() => {});
  }

  health(now = new Date()): IndexerHealth {
    const lag = this.head !== null && this.lastBlock !== null ? Number(this.head - this.lastBlock) : null;
    const recent =
      this.lastSuccessAt !== null &&
      now.getTime() - this.lastSuccessAt.getTime() < Math.max(30_000, this.options.pollMs * 10);
    return {
      running: this.running,
      healthy:
        this.running && recent && (this.lastErrorAt === null || this.lastErrorAt < this.lastSuccessAt!),
      lastBlock: this.lastBlock?.toString() ?? null,
      head: this.head?.toString() ?? null,
      lagBlocks: lag,
      lastError: this.lastError,
      lastErrorAt: this.lastErrorAt?.toISOString() ?? null,
      lastSuccessAt: this.lastSuccessAt?.toISOString() ?? null,
    };
  }

  /**
   * The chain's time (PAYMENTS.md, States): the timestamp of the newest block processed, or, when the indexer
   * found at moment W that the chain's head is a block it has processed, W minus `idleClockMarginMs` (a chain
   * that mines on demand makes no blocks while idle; any block not yet processed is stamped after that). Never
   * ahead of what was processed: a lagging indexer holds it back, so it cannot expire a payment paid in time.
   */
  chainTime(): Date | null {
    return this.clock;
  }

  private now() {
    return this.options.now?.() ?? new Date();
  }

  private advanceClock(time: Date | null) {
    if (time && (this.clock === null || time > this.clock)) this.clock = time;
  }

  private tipSeen(observedAt: Date, blockTime: Date | null) {
    this.advanceClock(blockTime);
    this.advanceClock(new Date(observedAt.getTime() - (this.options.idleClockMarginMs ?? 30_000)));
  }

  /** Catches up to the current head (tests call it directly; the loop calls it every pollMs). */
  async runOnce(): Promise<void> {
    if (this.ticking) return this.ticking;
    this.ticking = this.catchUp().finally(() => {
      this.ticking = null;
    });
    return this.ticking;
  }

  /**
   * One turn of the loop: a single RPC call when the chain's tip is the block the cursor already holds (same
   * number and hash, so no new block and no reorg), the full catch-up otherwise. That makes a short polling
   * interval cheap, and a new block is processed as soon as it is seen.
   */
  private async tick(): Promise<void> {
    if (this.cursorTip) {
      const observedAt = this.now();
      const latest = await this.options.client.getBlock({ blockTag: "latest" });
      if (latest.number === this.cursorTip.number && latest.hash === this.cursorTip.hash) {
        this.head = latest.number;
        this.tipSeen(observedAt, new Date(Number(latest.timestamp) * 1000));
        this.lastSuccessAt = new Date();
        return;
      }
    }
    await this.runOnce();
  }

  private schedule(delayMs: number) {
    if (!this.running) return;
    this.timer = setTimeout(() => {
      this.tick().then(
        () => {
          this.backoffMs = 0;
          this.schedule(this.options.pollMs);
        },
        (error) => {
          this.recordError(error);
          this.backoffMs =
            this.backoffMs === 0 ? MIN_BACKOFF_MS : Math.min(MAX_BACKOFF_MS, this.backoffMs * 2);
          this.schedule(this.backoffMs);
        },
      );
    }, delayMs);
    this.timer.unref?.();
  }

  private recordError(error: unknown) {
    const { name, reason } = describeRpcFailure(error);
    const message = reason === "non-viem error" && error instanceof Error ? error.message : reason;
    this.lastError = `${name}: ${message}`.slice(0, 300);
    this.lastErrorAt = new Date();
    this.options.log.warn({ indexer: this.lastError, retryInMs: this.backoffMs }, "indexer tick failed");
  }

  private async cursor(db: DbOrTx) {
    const [row] = await db
      .select()
      .from(indexerBlocks)
      .where(
        and(
          eq(indexerBlocks.chainId, this.key.chainId),
          eq(indexerBlocks.tokenAddress, this.key.tokenAddress),
        ),
      )
      .orderBy(desc(indexerBlocks.blockNumber))
      .limit(1);
    return row;
  }

  private async blockHash(blockNumber: bigint): Promise<Hash | null> {
    return (await this.blockAt(blockNumber))?.hash ?? null;
  }

  private async blockAt(blockNumber: bigint): Promise<{ hash: Hash; time: Date } | null> {
    try {
      const block = await this.options.client.getBlock({ blockNumber });
      return { hash: block.hash, time: new Date(Number(block.timestamp) * 1000) };
    } catch (error) {
      if ((error as { name?: string }).name === "BlockNotFoundError") return null;
      throw error;
    }
  }

  private async catchUp() {
    const { db, client } = this.options;
    this.cursorTip = null;
    // Before asking for the head: a block mined after this moment is not known to be processed.
    const observedAt = this.now();
    const head = await client.getBlockNumber({ cacheTime: 0 });
    this.head = head;
    let cursor = await this.cursor(db);
    if (!cursor) {
      const start = this.options.startBlock ?? head;
      const at = start > 0n ? start - 1n : 0n;
      const block = await this.blockAt(at);
      if (!block) throw new Error(`block ${at} not found`);
      await db
        .insert(indexerBlocks)
        .values({ ...this.key, blockNumber: at, blockHash: block.hash, blockTime: block.time })
        .onConflictDoNothing();
      cursor = await this.cursor(db);
    }
    let at = cursor!.blockNumber;
    let atBlock = await this.blockAt(at);
    if (atBlock?.hash !== cursor!.blockHash) {
      at = await this.rewind(at, head);
      atBlock = await this.blockAt(at);
    } else {
      this.advanceClock(atBlock.time);
    }
    let atHash = atBlock?.hash ?? null;

    let scanned = false;
    while (at < head) {
      const from = at + 1n;
      const to =
        from + BigInt(this.options.maxRange) - 1n < head ? from + BigInt(this.options.maxRange) - 1n : head;
      atHash = await this.scan(from, to, head);
      scanned = true;
      at = to;
      this.lastBlock = at;
    }
    this.lastBlock = at;
    if (at === head) this.tipSeen(observedAt, null);
    // Confirmations grow with the head (and the chain's time may pass an expiry) even when no new log arrives (a
    // scan above already counted them).
    if (!scanned) await this.scanNothing(head);
    this.lastSuccessAt = new Date();
    if (at === head && atHash) this.cursorTip = { number: at, hash: atHash };
  }

  private async scanNothing(head: bigint) {
    await this.options.db.transaction(async (tx) => {
      await this.options.sink.applyRange(tx, {
        from: head + 1n,
        to: head,
        head,
        chainTime: this.clock,
        logs: [],
        present: new Set(),
      });
    });
    this.options.sink.afterCommit();
  }

  /** Walks back over stored checkpoints to the newest one the chain still has; un-credits everything above it. */
  private async rewind(cursorBlock: bigint, head: bigint): Promise<bigint> {
    const { db } = this.options;
    const checkpoints = await db
      .select()
      .from(indexerBlocks)
      .where(
        and(
          eq(indexerBlocks.chainId, this.key.chainId),
          eq(indexerBlocks.tokenAddress, this.key.tokenAddress),
        ),
      )
      .orderBy(desc(indexerBlocks.blockNumber))
      .limit(500);
    let ancestor: bigint | null = null;
    for (const checkpoint of checkpoints) {
      if (checkpoint.blockNumber > head) continue;
      if ((await this.blockHash(checkpoint.blockNumber)) === checkpoint.blockHash) {
        ancestor = checkpoint.blockNumber;
        break;
      }
    }
    if (ancestor === null) {
      // Deeper than every checkpoint: rescan the whole kept depth.
      ancestor = cursorBlock > CHECKPOINT_DEPTH ? cursorBlock - CHECKPOINT_DEPTH : 0n;
      this.options.log.error(
        { cursorBlock: cursorBlock.toString() },
        "reorg deeper than the stored checkpoints",
      );
    }
    this.options.log.warn(
      { from: cursorBlock.toString(), ancestor: ancestor.toString() },
      "chain reorganisation",
    );
    const block = await this.blockAt(ancestor);
    const hash = block?.hash ?? "0x";
    await db.transaction(async (tx) => {
      await tx
        .delete(indexerBlocks)
        .where(
          and(
            eq(indexerBlocks.chainId, this.key.chainId),
            eq(indexerBlocks.tokenAddress, this.key.tokenAddress),
            gt(indexerBlocks.blockNumber, ancestor!),
          ),
        );
      await tx
        .insert(indexerBlocks)
        .values({ ...this.key, blockNumber: ancestor!, blockHash: hash, blockTime: block?.time ?? null })
        .onConflictDoUpdate({
          target: [indexerBlocks.chainId, indexerBlocks.tokenAddress, indexerBlocks.blockNumber],
          set: { blockHash: hash, blockTime: block?.time ?? null },
        });
      await this.options.sink.applyReorg(tx, { ancestor: ancestor!, head, chainTime: this.clock });
    });
    this.options.sink.afterCommit();
    return ancestor;
  }

  /** Scans [from, to] and moves the cursor to `to`; returns the hash of block `to` it stored. */
  private async scan(from: bigint, to: bigint, head: bigint): Promise<Hash> {
    const { client, db, sink } = this.options;
    const [raw, end] = await Promise.all([
      client.getLogs({ address: this.options.token, event: transferEvent, fromBlock: from, toBlock: to }),
      this.blockAt(to),
    ]);
    if (!end) throw new Error(`block ${to} vanished during the scan`);
    const endHash = end.hash;
    const chainTime = this.clock && this.clock > end.time ? this.clock : end.time;
    const watched = await sink.watchedAddresses(db);
    const relevant = raw.filter((log) => log.args.to && watched.has(log.args.to) && !log.removed);
    const times = new Map<bigint, Date>();
    for (const blockNumber of new Set(relevant.map((l) => l.blockNumber!))) {
      const block = await client.getBlock({ blockNumber });
      times.set(blockNumber, new Date(Number(block.timestamp) * 1000));
    }
    const logs: TransferLog[] = relevant.map((log) => ({
      txHash: log.transactionHash!,
      logIndex: log.logIndex!,
      blockNumber: log.blockNumber!,
      blockHash: log.blockHash!,
      blockTime: times.get(log.blockNumber!)!,
      from: log.args.from!,
      to: log.args.to!,
      value: log.args.value!,
    }));
    await db.transaction(async (tx) => {
      const present = new Set(raw.filter((l) => !l.removed).map((l) => `${l.transactionHash}:${l.logIndex}`));
      await sink.applyRange(tx, { from, to, head, chainTime, logs, present });
      await tx
        .insert(indexerBlocks)
        .values({ ...this.key, blockNumber: to, blockHash: endHash, blockTime: end.time })
        .onConflictDoUpdate({
          target: [indexerBlocks.chainId, indexerBlocks.tokenAddress, indexerBlocks.blockNumber],
          set: { blockHash: endHash, blockTime: end.time },
        });
      await tx
        .delete(indexerBlocks)
        .where(
          and(
            eq(indexerBlocks.chainId, this.key.chainId),
            eq(indexerBlocks.tokenAddress, this.key.tokenAddress),
            lt(indexerBlocks.blockNumber, to - CHECKPOINT_DEPTH),
          ),
        );
    });
    sink.afterCommit();
    this.advanceClock(end.time);
    return endHash;
  }
}
