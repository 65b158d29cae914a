import { and, asc, desc, eq, gte, inArray, isNull, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import {
  type Address,
  encodeFunctionData,
  erc20Abi,
  formatUnits,
  type Hex,
  keccak256,
  parseUnits,
  TransactionReceiptNotFoundError,
} from "viem";
import { type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import type { Chain } from "../../chain/service.ts";
import type { TreasuryConfig } from "../../config.ts";
import type { DbOrTx } from "../../db/client.ts";
import { treasuryAttempts, treasuryNonces, treasurySends } from "../../db/schema.ts";
import { createId } from "../../lib/ids.ts";

export type TreasurySend = typeof treasurySends.$inferSelect;
export type SendKind = TreasurySend["kind"];

/** Called inside the transaction that changes the send, so the order or claim changes with it (or not at all). */
export type SendListener = {
  onSigned?(tx: DbOrTx, send: TreasurySend): Promise<void>;
  onConfirmed?(tx: DbOrTx, send: TreasurySend): Promise<void>;
  onFailed?(tx: DbOrTx, send: TreasurySend): Promise<void>;
};

export type TreasuryHealth = {
  address: string;
  tokenBalance: string | null;
  ethBalance: string | null;
  low: boolean;
  queued: number;
  inFlight: number;
  lastError: string | null;
};

type Log = Pick<FastifyBaseLogger, "info" | "warn" | "error">;

export type TreasuryOptions = {
  db: DbOrTx;
  chain: Chain;
  config: TreasuryConfig;
  privateKey: Hex;
  log: Log;
  now?: () => Date;
  /** After a send changed (committed): live updates. */
  onChange?: (send: TreasurySend) => void;
  /** Test hook: runs after a transaction is recorded and before it is broadcast (a crash there is simulated). */
  beforeBroadcast?: (send: TreasurySend) => Promise<void>;
};

const GAS_MARGIN_PERCENT = 120n;
/** Replacement fees: at least +12.5% is what nodes require; take +25%. */
const BUMP_PERCENT = 125n;

/** A send's `last_error` for what holds or fails it: fixed sentences, so a reader can say them in its own words. */
export const SEND_NOTES = {
  daily_limit: "The treasury's daily limit is reached; this delivery goes out after 00:00 UTC.",
  low_balance: "The treasury's balance is too low; this delivery waits until it is refilled.",
  nonce_reused: "Its nonce was used by another transaction of the treasury; it is sent again.",
  reverted: "The token transfer reverted on chain.",
} as const;

/**
 * The treasury account's one durable send queue (decision 013). A send is a row before anything is signed; each
 * signed transaction is a row before it is broadcast; all transactions of one send share one nonce, so at most one
 * of them can ever be mined: retries, restarts, replacements and a second instance cannot pay twice.
 */
export class Treasury {
  readonly account: PrivateKeyAccount;
  private readonly listeners = new Map<SendKind, SendListener>();
  private readonly now: () => Date;
  private balances: { token: bigint; eth: bigint } | null = null;
  private low = false;
  private lastError: string | null = null;
  private counts = { queued: 0, inFlight: 0 };
  readonly dailyCap: bigint;
  private readonly lowTokens: bigint;
  private readonly lowEth: bigint;

  constructor(private readonly options: TreasuryOptions) {
    this.account = privateKeyToAccount(options.privateKey);
    this.now = options.now ?? (() => new Date());
    const decimals = options.chain.token.decimals;
    this.dailyCap = parseUnits(options.config.dailyCapTokens, decimals);
    this.lowTokens = parseUnits(options.config.lowBalanceTokens, decimals);
    this.lowEth = parseUnits(options.config.lowBalanceEth, 18);
  }

  get address(): Address {
    return this.account.address;
  }

  listen(kind: SendKind, listener: SendListener) {
    this.listeners.set(kind, listener);
  }

  /** Records the send of `amount` to `to` for one order or claim; a second call for the same one returns the first. */
  async enqueue(
    tx: DbOrTx,
    input: { kind: SendKind; refId: string; to: Address; amount: bigint },
  ): Promise<TreasurySend> {
    const { chain } = this.options;
    const [inserted] = await tx
      .insert(treasurySends)
      .values({
        id: createId("tsd"),
        kind: input.kind,
        refId: input.refId,
        chainId: chain.chainId,
        tokenAddress: chain.token.address,
        fromAddress: this.address,
        toAddress: input.to,
        amount: input.amount,
      })
      .onConflictDoNothing({ target: [treasurySends.kind, treasurySends.refId] })
      .returning();
    if (inserted) return inserted;
    const [existing] = await tx
      .select()
      .from(treasurySends)
      .where(and(eq(treasurySends.kind, input.kind), eq(treasurySends.refId, input.refId)));
    return existing!;
  }

  /** Sum of what was signed since the start of this UTC day (the daily cap counts signed sends). */
  async sentToday(tx: DbOrTx = this.options.db): Promise<bigint> {
    const day = startOfUtcDay(this.now());
    const [row] = await tx
      .select({ total: sql<string>`coalesce(sum(${treasurySends.amount}), 0)::text` })
      .from(treasurySends)
      .where(
        and(
          eq(treasurySends.fromAddress, this.address),
          inArray(treasurySends.status, ["signed", "confirmed"]),
          gte(treasurySends.signedAt, day),
        ),
      );
    return BigInt(row?.total ?? "0");
  }

  /** One pass over the queue: sign what waits, follow what is in flight, refresh the balances. */
  async tick(): Promise<void> {
    const { db } = this.options;
    try {
      const open = await db
        .select()
        .from(treasurySends)
        .where(
          and(
            eq(treasurySends.fromAddress, this.address),
            eq(treasurySends.chainId, this.options.chain.chainId),
            inArray(treasurySends.status, ["queued", "signed"]),
          ),
        )
        .orderBy(asc(treasurySends.createdAt))
        .limit(50);
      this.counts = {
        queued: open.filter((s) => s.status === "queued").length,
        inFlight: open.filter((s) => s.status === "signed").length,
      };
      for (const send of open) {
        if (send.status === "signed") await this.follow(send);
      }
      for (const send of open) {
        if (send.status === "queued") await this.sign(send);
      }
      await this.refreshBalances();
    } catch (error) {
      this.noteError(`treasury pass failed: ${errorText(error)}`);
    }
  }

  private async sign(send: TreasurySend) {
    const { chain, db } = this.options;
    const client = chain.client;
    const capLeft = this.dailyCap - (await this.sentToday());
    if (send.amount > capLeft) {
      await this.hold(send, SEND_NOTES.daily_limit);
      return;
    }
    const balance = await client.readContract({
      address: chain.token.address,
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [this.address],
    });
    if (balance < send.amount) {
      await this.hold(send, SEND_NOTES.low_balance);
      return;
    }
    const data = encodeFunctionData({
      abi: erc20Abi,
      functionName: "transfer",
      args: [send.toAddress as Address, send.amount],
    });
    const [gas, fees, pendingNonce] = await Promise.all([
      client.estimateGas({ account: this.address, to: chain.token.address, data }),
      client.estimateFeesPerGas(),
      client.getTransactionCount({ address: this.address, blockTag: "pending" }),
    ]);
    let recorded: { send: TreasurySend; rawTx: Hex } | null = null;
    await db.transaction(async (tx) => {
      const [locked] = await tx
        .select()
        .from(treasurySends)
        .where(and(eq(treasurySends.id, send.id), eq(treasurySends.status, "queued")))
        .for("update", { skipLocked: true });
      if (!locked) return; // another instance (or pass) has it
      await tx
        .insert(treasuryNonces)
        .values({ chainId: chain.chainId, address: this.address, nextNonce: 0n })
        .onConflictDoNothing();
      const [row] = await tx
        .select({ next: treasuryNonces.nextNonce })
        .from(treasuryNonces)
        .where(and(eq(treasuryNonces.chainId, chain.chainId), eq(treasuryNonces.address, this.address)))
        .for("update");
      const chainNext = BigInt(pendingNonce);
      const nonce = row!.next > chainNext ? row!.next : chainNext;
      const rawTx = await this.account.signTransaction({
        chainId: chain.chainId,
        type: "eip1559",
        to: chain.token.address,
        data,
        nonce: Number(nonce),
        gas: (gas * GAS_MARGIN_PERCENT) / 100n,
        maxFeePerGas: fees.maxFeePerGas,
        maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
      });
      const txHash = keccak256(rawTx);
      await tx.insert(treasuryAttempts).values({
        txHash,
        sendId: send.id,
        nonce,
        maxFeePerGas: fees.maxFeePerGas,
        maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
        rawTx,
      });
      await tx
        .update(treasuryNonces)
        .set({ nextNonce: nonce + 1n })
        .where(and(eq(treasuryNonces.chainId, chain.chainId), eq(treasuryNonces.address, this.address)));
      const [updated] = await tx
        .update(treasurySends)
        .set({
          status: "signed",
          nonce,
          txHash,
          signedAt: this.now(),
          lastError: null,
          updatedAt: this.now(),
        })
        .where(eq(treasurySends.id, send.id))
        .returning();
      await this.listeners.get(send.kind)?.onSigned?.(tx, updated!);
      recorded = { send: updated!, rawTx };
    });
    if (!recorded) return;
    const { send: signed, rawTx } = recorded as { send: TreasurySend; rawTx: Hex };
    this.options.log.info(
      {
        sendId: signed.id,
        kind: signed.kind,
        ref: signed.refId,
        txHash: signed.txHash,
        nonce: String(signed.nonce),
      },
      "treasury send signed",
    );
    this.options.onChange?.(signed);
    await this.options.beforeBroadcast?.(signed);
    await this.broadcast(rawTx);
  }

  /** A signed send: confirmed, reverted, stuck (replaced with a higher fee), or its nonce taken by another tx. */
  private async follow(send: TreasurySend) {
    const { chain, db } = this.options;
    const client = chain.client;
    const attempts = await db
      .select()
      .from(treasuryAttempts)
      .where(and(eq(treasuryAttempts.sendId, send.id), isNull(treasuryAttempts.droppedAt)))
      .orderBy(desc(treasuryAttempts.createdAt));
    // The mined count first: a receipt looked up afterwards cannot miss a transaction mined before it.
    const minedCount = BigInt(
      await client.getTransactionCount({ address: this.address, blockTag: "latest" }),
    );
    for (const attempt of attempts) {
      const receipt = await client
        .getTransactionReceipt({ hash: attempt.txHash as Hex })
        .catch((error: unknown) => {
          if (error instanceof TransactionReceiptNotFoundError) return null;
          throw error;
        });
      if (!receipt) continue;
      const head = await client.getBlockNumber();
      if (head - receipt.blockNumber + 1n < BigInt(chain.confirmations)) {
        if (send.txHash !== attempt.txHash || send.blockNumber !== receipt.blockNumber) {
          await db
            .update(treasurySends)
            .set({ txHash: attempt.txHash, blockNumber: receipt.blockNumber, updatedAt: this.now() })
            .where(eq(treasurySends.id, send.id));
        }
        return;
      }
      await this.settle(send, attempt.txHash, receipt.blockNumber, receipt.status === "success");
      return;
    }
    const newest = attempts[0];
    const age = newest ? this.now().getTime() - newest.createdAt.getTime() : Number.POSITIVE_INFINITY;
    // The age condition keeps a lagging node (count from one, receipt from another) from looking like a lost nonce.
    if (!newest || (minedCount > newest.nonce && age >= this.options.config.stuckAfterMs)) {
      // Nothing of ours was mined at this nonce, yet the nonce is used: none of our attempts can ever be mined,
      // so signing again with a new nonce cannot pay twice.
      await db.transaction(async (tx) => {
        await tx
          .update(treasuryAttempts)
          .set({ droppedAt: this.now() })
          .where(eq(treasuryAttempts.sendId, send.id));
        await tx
          .update(treasurySends)
          .set({
            status: "queued",
            nonce: null,
            txHash: null,
            lastError: SEND_NOTES.nonce_reused,
            updatedAt: this.now(),
          })
          .where(and(eq(treasurySends.id, send.id), eq(treasurySends.status, "signed")));
      });
      this.options.log.warn(
        { sendId: send.id, nonce: String(send.nonce) },
        "treasury nonce taken elsewhere; re-queued",
      );
      return;
    }
    if (minedCount > newest.nonce) return; // wait: see above
    if (age >= this.options.config.stuckAfterMs) {
      await this.replace(send, newest);
      return;
    }
    // Not mined yet: broadcasting the recorded bytes again is harmless (same hash) and heals a crash that
    // happened between recording and broadcasting.
    await this.broadcast(newest.rawTx as Hex);
  }

  private async replace(send: TreasurySend, previous: typeof treasuryAttempts.$inferSelect) {
    const { chain, db } = this.options;
    const fees = await chain.client.estimateFeesPerGas();
    const bump = (old: bigint, fresh: bigint) => {
      const bumped = (old * BUMP_PERCENT) / 100n + 1n;
      return fresh > bumped ? fresh : bumped;
    };
    const maxPriorityFeePerGas = bump(previous.maxPriorityFeePerGas, fees.maxPriorityFeePerGas);
    let maxFeePerGas = bump(previous.maxFeePerGas, fees.maxFeePerGas);
    if (maxFeePerGas < maxPriorityFeePerGas) maxFeePerGas = maxPriorityFeePerGas;
    const data = encodeFunctionData({
      abi: erc20Abi,
      functionName: "transfer",
      args: [send.toAddress as Address, send.amount],
    });
    const gas = await chain.client.estimateGas({ account: this.address, to: chain.token.address, data });
    const rawTx = await this.account.signTransaction({
      chainId: chain.chainId,
      type: "eip1559",
      to: chain.token.address,
      data,
      nonce: Number(previous.nonce),
      gas: (gas * GAS_MARGIN_PERCENT) / 100n,
      maxFeePerGas,
      maxPriorityFeePerGas,
    });
    const txHash = keccak256(rawTx);
    await db.transaction(async (tx) => {
      await tx.insert(treasuryAttempts).values({
        txHash,
        sendId: send.id,
        nonce: previous.nonce,
        maxFeePerGas,
        maxPriorityFeePerGas,
        rawTx,
      });
      await tx
        .update(treasurySends)
        .set({ txHash, updatedAt: this.now() })
        .where(eq(treasurySends.id, send.id));
    });
    this.options.log.warn(
      { sendId: send.id, replaced: previous.txHash, txHash, maxFeePerGas: String(maxFeePerGas) },
      "treasury send stuck; replaced with a higher fee (same nonce)",
    );
    await this.broadcast(rawTx);
  }

  private async settle(send: TreasurySend, txHash: string, blockNumber: bigint, success: boolean) {
    let changed: TreasurySend | undefined;
    await this.options.db.transaction(async (tx) => {
      [changed] = await tx
        .update(treasurySends)
        .set({
          status: success ? "confirmed" : "failed",
          txHash,
          blockNumber,
          confirmedAt: success ? this.now() : null,
          lastError: success ? null : SEND_NOTES.reverted,
          updatedAt: this.now(),
        })
        .where(and(eq(treasurySends.id, send.id), eq(treasurySends.status, "signed")))
        .returning();
      if (!changed) return;
      const listener = this.listeners.get(send.kind);
      if (success) await listener?.onConfirmed?.(tx, changed);
      else await listener?.onFailed?.(tx, changed);
    });
    if (!changed) return;
    if (success) this.options.log.info({ sendId: send.id, txHash }, "treasury send confirmed");
    else this.options.log.error({ sendId: send.id, txHash }, "treasury send reverted; needs an operator");
    this.options.onChange?.(changed);
  }

  private async hold(send: TreasurySend, reason: string) {
    if (send.lastError === reason) return;
    const [updated] = await this.options.db
      .update(treasurySends)
      .set({ lastError: reason, updatedAt: this.now() })
      .where(and(eq(treasurySends.id, send.id), eq(treasurySends.status, "queued")))
      .returning();
    this.options.log.warn({ sendId: send.id, reason }, "treasury send held");
    if (updated) this.options.onChange?.(updated);
  }

  private async broadcast(rawTx: Hex) {
    try {
      await this.options.chain.client.sendRawTransaction({ serializedTransaction: rawTx });
    } catch (error) {
      // Already known, already mined, or replaced: the next pass reads the chain and decides.
      const message = errorText(error);
      if (!/already known|nonce too low|already imported|replacement/i.test(message)) {
        this.noteError(`broadcast failed: ${message}`);
      }
    }
  }

  private async refreshBalances() {
    const { chain } = this.options;
    const [token, eth] = await Promise.all([
      chain.client.readContract({
        address: chain.token.address,
        abi: erc20Abi,
        functionName: "balanceOf",
        args: [this.address],
      }),
      chain.client.getBalance({ address: this.address }),
    ]);
    this.balances = { token, eth };
    const low = token < this.lowTokens || eth < this.lowEth;
    if (low && !this.low) {
      this.options.log.warn(
        {
          treasury: this.address,
          tokenBalance: formatUnits(token, chain.token.decimals),
          ethBalance: formatUnits(eth, 18),
        },
        "treasury balance is low: refill it",
      );
    } else if (!low && this.low) {
      this.options.log.info({ treasury: this.address }, "treasury balance is back above its low mark");
    }
    this.low = low;
  }

  private noteError(message: string) {
    this.lastError = message;
    this.options.log.warn({ treasury: this.address }, message);
  }

  health(): TreasuryHealth {
    return {
      address: this.address,
      tokenBalance: this.balances
        ? formatUnits(this.balances.token, this.options.chain.token.decimals)
        : null,
      ethBalance: this.balances ? formatUnits(this.balances.eth, 18) : null,
      low: this.low,
      queued: this.counts.queued,
      inFlight: this.counts.inFlight,
      lastError: this.lastError,
    };
  }
}

export function startOfUtcDay(date: Date): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
}

function errorText(error: unknown): string {
  if (error && typeof error === "object" && "shortMessage" in error) return String(error.shortMessage);
  return error instanceof Error ? error.message : String(error);
}
