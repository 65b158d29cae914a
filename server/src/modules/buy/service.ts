import type { BuyAmountInput, BuyOrder, CreateBuyOrderRequest } from "@common/buy.ts";
import { and, asc, eq, gte, inArray, lt, sql } from "drizzle-orm";
import {
  type Address,
  formatUnits,
  getAddress,
  type Hex,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
} from "viem";
import type { Chain } from "../../chain/service.ts";
import type { Config } from "../../config.ts";
import type { DbOrTx } from "../../db/client.ts";
import { appMeta, buyOrders, treasurySends } from "../../db/schema.ts";
import { AppError } from "../../errors.ts";
import { createId } from "../../lib/ids.ts";
import type { Treasury, TreasurySend } from "../treasury/treasury.ts";
import type { PaypalClient } from "./paypal-client.ts";
import { checkLimits, computeQuote, formatEth, formatUsd } from "./quote.ts";

export type OrderRow = typeof buyOrders.$inferSelect;

/** How long after its quote expired an ETH payment is still recognised (as late, for refund). */
const LATE_WINDOW_MS = 24 * 60 * 60 * 1000;
/** Blocks the scanner reads per pass (each is one eth_getBlockByNumber with transactions). */
const SCAN_BLOCKS_PER_PASS = 50n;

type Log = { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };

export type BuyDeps = {
  db: DbOrTx;
  chain: Chain | null;
  treasury: Treasury | null;
  /** Set when PAYPAL_CLIENT_ID, PAYPAL_CLIENT_SECRET and PAYPAL_API_BASE are. */
  paypal: PaypalClient | null;
  config: Config;
  now: () => Date;
  log: Log;
  /** After an order changed (committed): live updates. */
  notify: (orderId: string) => void;
};

export function buyUnavailableReason(deps: BuyDeps): string | null {
  if (!deps.chain) return "Buying CPXTB is unavailable: the server has no chain connection.";
  if (!deps.treasury) return "Buying CPXTB is unavailable: no treasury is configured.";
  return null;
}

function requireReady(deps: BuyDeps): { chain: Chain; treasury: Treasury } {
  const reason = buyUnavailableReason(deps);
  if (reason) throw new AppError("SERVICE_UNAVAILABLE", reason);
  return { chain: deps.chain!, treasury: deps.treasury! };
}

/** A quote at the current price (not locked: creating the order locks it). Stale prices refuse (503). */
export async function quote(deps: BuyDeps, input: BuyAmountInput) {
  const { chain } = requireReady(deps);
  const price = await chain.price.getQuotablePrice();
  const eth = await chain.price.getQuotableEthUsd();
  const q = computeQuote(input, {
    priceE18: price.priceE18,
    ethUsdE18: eth?.ethUsdE18 ?? null,
    decimals: chain.token.decimals,
  });
  checkLimits(q.usdCents, deps.config.buy);
  return { ...q, priceUpdatedAt: price.updatedAt };
}

export async function createOrder(
  deps: BuyDeps,
  input: CreateBuyOrderRequest,
  userId: string | null,
): Promise<OrderRow> {
  const { chain, treasury } = requireReady(deps);
  if (input.method === "paypal") throw new AppError("BAD_REQUEST", "Use /api/buy/paypal/orders for PayPal.");
  const q = await quote(deps, input);
  if (q.ethAmountWei === null) {
    throw new AppError(
      "SERVICE_UNAVAILABLE",
      "Paying with ETH is unavailable: the server has no ETH/USD price (ETH_USD_FEED_ADDRESS).",
    );
  }
  return insertOrder(deps, chain, treasury, { ...q, method: "eth", input, userId });
}

export async function insertOrder(
  deps: BuyDeps,
  chain: Chain,
  treasury: Treasury,
  o: Awaited<ReturnType<typeof quote>> & {
    method: "eth" | "paypal";
    input: { buyerAddress: string; returnTo?: string | null };
    userId: string | null;
    paypalOrderId?: string;
  },
): Promise<OrderRow> {
  const now = deps.now();
  const [row] = await deps.db
    .insert(buyOrders)
    .values({
      id: createId("ord"),
      userId: o.userId,
      method: o.method,
      chainId: chain.chainId,
      buyerAddress: getAddress(o.input.buyerAddress),
      treasuryAddress: treasury.address,
      tokenDecimals: chain.token.decimals,
      usdCents: o.usdCents,
      tokenAmount: o.tokenAmount,
      priceE18: o.priceE18,
      ethUsdE18: o.ethUsdE18,
      ethAmountWei: o.method === "eth" ? o.ethAmountWei : null,
      expiresAt: new Date(now.getTime() + deps.config.buy.quoteMinutes * 60_000),
      returnTo: o.input.returnTo ?? null,
      paypalOrderId: o.paypalOrderId ?? null,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  return row!;
}

export async function findOrder(db: DbOrTx, id: string) {
  const [order] = await db.select().from(buyOrders).where(eq(buyOrders.id, id));
  if (!order) return null;
  const [send] = await db
    .select()
    .from(treasurySends)
    .where(and(eq(treasurySends.kind, "order"), eq(treasurySends.refId, id)));
  return { order, send: send ?? null };
}

const txUrl = (config: Config, hash: string | null) =>
  hash && config.explorerUrl ? `${config.explorerUrl}/tx/${hash}` : null;

export function toOrderView(
  config: Config,
  order: OrderRow,
  send: TreasurySend | null,
  now: Date,
  approveUrl: string | null = null,
): BuyOrder {
  let status: BuyOrder["status"] = order.status;
  if (status === "paid" && send?.status === "signed") status = "sending";
  if (status === "quoted" && now > order.expiresAt && order.method === "eth") status = "expired";
  return {
    id: order.id,
    method: order.method,
    status,
    buyerAddress: order.buyerAddress,
    treasuryAddress: order.treasuryAddress,
    chainId: order.chainId,
    usd: formatUsd(order.usdCents),
    tokens: formatUnits(order.tokenAmount, order.tokenDecimals),
    tokenAmountBase: order.tokenAmount.toString(),
    eth: order.ethAmountWei === null ? null : formatEth(order.ethAmountWei),
    ethAmountWei: order.ethAmountWei?.toString() ?? null,
    usdPerToken: formatUnits(order.priceE18, 18),
    expiresAt: order.expiresAt.toISOString(),
    createdAt: order.createdAt.toISOString(),
    payment: order.payTxHash
      ? {
          txHash: order.payTxHash,
          txUrl: txUrl(config, order.payTxHash),
          from: order.payFrom,
          eth: order.payValueWei === null ? null : formatEth(order.payValueWei),
        }
      : null,
    delivery: send
      ? {
          status: send.status,
          txHash: send.txHash,
          txUrl: send.status === "queued" ? null : txUrl(config, send.txHash),
          note: send.lastError,
        }
      : null,
    problem: order.problem,
    refundDue: order.refundDue,
    returnTo: order.returnTo,
    approveUrl,
  };
}

type Verdict =
  | { kind: "reject"; code: "UNPROCESSABLE" | "CONFLICT" | "NOT_FOUND"; message: string }
  | { kind: "pending" }
  | { kind: "record"; to: OrderRow["status"]; problem: string | null; refundDue: boolean };

/**
 * Verifies an ETH payment for an order: the transaction pays the treasury, succeeded, and is used by no other
 * order; then sender, time (block time against the quote's expiry), value and confirmations decide the state.
 * Used for a hash the page submits and for transfers the scanner finds; safe to run twice at once.
 */
export async function verifyEthPayment(deps: BuyDeps, orderId: string, txHash: Hex): Promise<OrderRow> {
  const { chain } = requireReady(deps);
  const found = await findOrder(deps.db, orderId);
  if (!found) throw new AppError("NOT_FOUND", "No such order.");
  const { order } = found;
  if (order.method !== "eth") throw new AppError("BAD_REQUEST", "This order is not paid with ETH.");
  if (order.payTxHash && order.payTxHash !== txHash.toLowerCase()) {
    throw new AppError("CONFLICT", "This order already has a payment transaction.");
  }
  if (!["quoted", "confirming", "expired"].includes(order.status)) return order;

  const verdict = await judge(chain, order, txHash);
  if (verdict.kind === "reject") throw new AppError(verdict.code, verdict.message);
  const { tx, receipt, head } = verdict.facts;
  const confirmed = head - receipt.blockNumber + 1n >= BigInt(chain.confirmations);
  const outcome: Verdict = confirmed ? verdict.outcome : { kind: "pending" };
  const status = outcome.kind === "record" ? outcome.to : "confirming";

  let updated: OrderRow | undefined;
  try {
    await deps.db.transaction(async (dbTx) => {
      [updated] = await dbTx
        .update(buyOrders)
        .set({
          status,
          payTxHash: txHash.toLowerCase(),
          payFrom: getAddress(tx.from),
          payValueWei: tx.value,
          payBlock: receipt.blockNumber,
          paidAt: verdict.blockTime,
          problem: outcome.kind === "record" ? outcome.problem : null,
          refundDue: outcome.kind === "record" ? outcome.refundDue : false,
          updatedAt: deps.now(),
        })
        .where(
          and(
            eq(buyOrders.id, order.id),
            inArray(buyOrders.status, ["quoted", "confirming", "expired"]),
            sql`(${buyOrders.payTxHash} is null or ${buyOrders.payTxHash} = ${txHash.toLowerCase()})`,
          ),
        )
        .returning();
      if (updated?.status === "paid") {
        await deps.treasury!.enqueue(dbTx, {
          kind: "order",
          refId: order.id,
          to: getAddress(order.buyerAddress),
          amount: order.tokenAmount,
        });
      }
    });
  } catch (error) {
    if (isUniqueViolation(error))
      throw new AppError("CONFLICT", "This transaction already paid another order.");
    throw error;
  }
  if (!updated) return (await findOrder(deps.db, order.id))!.order;
  if (updated.status !== order.status) {
    deps.log.info({ orderId: order.id, from: order.status, to: updated.status, txHash }, "buy order changed");
    if (updated.refundDue) {
      deps.log.warn({ orderId: order.id, txHash, problem: updated.problem }, "buy order listed for refund");
    }
    deps.notify(order.id);
  }
  return updated;
}

async function judge(chain: Chain, order: OrderRow, txHash: Hex) {
  const client = chain.client;
  const [tx, receipt] = await Promise.all([
    client
      .getTransaction({ hash: txHash })
      .catch((e) => (e instanceof TransactionNotFoundError ? null : Promise.reject(e))),
    client
      .getTransactionReceipt({ hash: txHash })
      .catch((e) => (e instanceof TransactionReceiptNotFoundError ? null : Promise.reject(e))),
  ]);
  const reject = (code: "UNPROCESSABLE" | "NOT_FOUND", message: string) =>
    ({ kind: "reject", code, message }) as {
      kind: "reject";
      code: "UNPROCESSABLE" | "NOT_FOUND";
      message: string;
    };
  if (!tx) return reject("NOT_FOUND", "This transaction is not on the chain (yet). Try again in a moment.");
  if (!tx.to || getAddress(tx.to) !== getAddress(order.treasuryAddress)) {
    return reject("UNPROCESSABLE", "This transaction does not pay the treasury address of this order.");
  }
  if (!receipt) return reject("NOT_FOUND", "This transaction is not mined yet. Try again in a moment.");
  if (receipt.status !== "success") return reject("UNPROCESSABLE", "This transaction failed on chain.");
  const [block, head] = await Promise.all([
    client.getBlock({ blockNumber: receipt.blockNumber }),
    client.getBlockNumber(),
  ]);
  const blockTime = new Date(Number(block.timestamp) * 1000);
  const due = order.ethAmountWei!;
  const facts = { tx, receipt, head };
  let outcome: Extract<Verdict, { kind: "record" }>;
  if (getAddress(tx.from) !== getAddress(order.buyerAddress)) {
    outcome = {
      kind: "record",
      to: "wrong_sender",
      problem: `Paid from ${getAddress(tx.from)}, not from the order's wallet ${order.buyerAddress}: no CPXTB is sent; the ETH is listed for refund.`,
      refundDue: true,
    };
  } else if (blockTime > order.expiresAt) {
    outcome = {
      kind: "record",
      to: "late",
      problem:
        "Paid after the quote expired: no CPXTB is sent at the old price; the ETH is listed for refund.",
      refundDue: true,
    };
  } else if (tx.value < due) {
    outcome = {
      kind: "record",
      to: "underpaid",
      problem: `Paid ${formatEth(tx.value)} ETH of the ${formatEth(due)} ETH due: no CPXTB is sent; the ETH is listed for refund.`,
      refundDue: true,
    };
  } else if (tx.value > due) {
    outcome = {
      kind: "record",
      to: "paid",
      problem: `Paid ${formatEth(tx.value - due)} ETH more than due; the excess is listed for refund.`,
      refundDue: true,
    };
  } else {
    outcome = { kind: "record", to: "paid", problem: null, refundDue: false };
  }
  return { kind: "judged" as const, facts, outcome, blockTime };
}

export function isUniqueViolation(error: unknown): boolean {
  let e: unknown = error;
  for (let i = 0; i < 3 && e && typeof e === "object"; i++) {
    if ("code" in e && (e as { code: unknown }).code === "23505") return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** Treasury listener: the order follows its send (in the send's transaction). */
export function orderSendListener(deps: Pick<BuyDeps, "now" | "notify">) {
  return {
    async onConfirmed(tx: DbOrTx, send: TreasurySend) {
      await tx
        .update(buyOrders)
        .set({ status: "delivered", updatedAt: deps.now() })
        .where(and(eq(buyOrders.id, send.refId), eq(buyOrders.status, "paid")));
      queueMicrotask(() => deps.notify(send.refId));
    },
    async onSigned(_tx: DbOrTx, send: TreasurySend) {
      queueMicrotask(() => deps.notify(send.refId));
    },
    async onFailed(tx: DbOrTx, send: TreasurySend) {
      await tx
        .update(buyOrders)
        .set({
          status: "failed",
          problem: "Sending the CPXTB failed on chain; our team was alerted and will deliver or refund.",
          updatedAt: deps.now(),
        })
        .where(and(eq(buyOrders.id, send.refId), eq(buyOrders.status, "paid")));
      queueMicrotask(() => deps.notify(send.refId));
    },
  };
}

/**
 * The scanner (run by the treasury runtime): finds ETH payments to the treasury in new blocks, so an order whose
 * tab was closed still gets its tokens; re-checks orders waiting for confirmations; marks unpaid quotes expired.
 */
export async function scanPayments(deps: BuyDeps): Promise<void> {
  const { chain, treasury } = requireReady(deps);
  const now = deps.now();
  const cursorKey = `buy-scan:${chain.chainId}:${treasury.address.toLowerCase()}`;
  const head = await chain.client.getBlockNumber();
  const [cursorRow] = await deps.db.select().from(appMeta).where(eq(appMeta.key, cursorKey));
  let cursor = cursorRow ? BigInt(cursorRow.value) : head > 100n ? head - 100n : 0n;

  const watching = await deps.db
    .select()
    .from(buyOrders)
    .where(
      and(
        eq(buyOrders.chainId, chain.chainId),
        eq(buyOrders.method, "eth"),
        inArray(buyOrders.status, ["quoted", "confirming", "expired"]),
        gte(buyOrders.expiresAt, new Date(now.getTime() - LATE_WINDOW_MS)),
      ),
    )
    .orderBy(asc(buyOrders.createdAt));

  for (const order of watching) {
    if (order.status === "confirming" && order.payTxHash) {
      await verifyEthPayment(deps, order.id, order.payTxHash as Hex).catch((error) =>
        deps.log.warn({ orderId: order.id, err: String(error) }, "buy order re-check failed"),
      );
    }
  }
  const waiting = watching.filter((o) => o.status !== "confirming" && !o.payTxHash);
  if (waiting.length === 0) {
    cursor = head;
  } else {
    const until = head < cursor + SCAN_BLOCKS_PER_PASS ? head : cursor + SCAN_BLOCKS_PER_PASS;
    const treasuryAddress = getAddress(treasury.address);
    for (let n = cursor + 1n; n <= until; n++) {
      const block = await chain.client.getBlock({ blockNumber: n, includeTransactions: true });
      for (const tx of block.transactions) {
        if (!tx.to || getAddress(tx.to) !== treasuryAddress || tx.value === 0n) continue;
        const from = getAddress(tx.from);
        const candidates = waiting.filter((o) => o.buyerAddress === from && !o.payTxHash);
        const match = candidates.find((o) => o.ethAmountWei === tx.value) ?? candidates[0];
        if (!match) {
          deps.log.warn(
            { txHash: tx.hash, from, eth: formatEth(tx.value) },
            "ETH to the treasury matches no open order: refund it by hand",
          );
          continue;
        }
        await verifyEthPayment(deps, match.id, tx.hash).then(
          (o) => {
            match.payTxHash = o.payTxHash;
          },
          (error) => deps.log.warn({ orderId: match.id, err: String(error) }, "scanned payment not accepted"),
        );
      }
      cursor = n;
    }
  }
  await deps.db
    .insert(appMeta)
    .values({ key: cursorKey, value: cursor.toString() })
    .onConflictDoUpdate({ target: appMeta.key, set: { value: cursor.toString(), updatedAt: now } });

  const expired = await deps.db
    .update(buyOrders)
    .set({ status: "expired", updatedAt: now })
    .where(
      and(
        eq(buyOrders.status, "quoted"),
        eq(buyOrders.method, "eth"),
        lt(buyOrders.expiresAt, now),
        sql`${buyOrders.payTxHash} is null`,
      ),
    )
    .returning({ id: buyOrders.id });
  for (const { id } of expired) deps.notify(id);
}

export type { Address };
