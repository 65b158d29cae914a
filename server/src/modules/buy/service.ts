import type {
  BuyAmountInput,
  BuyDeliverTo,
  BuyOrder,
  BuyProblemDetails,
  BuyUnavailableReason,
  CreateBuyOrderRequest,
} from "@common/buy.ts";
import { and, asc, desc, eq, gte, inArray, lt, sql } from "drizzle-orm";
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
import { appMeta, buyOrders, managedWallets, treasuryReceipts, treasurySends } from "../../db/schema.ts";
import { AppError } from "../../errors.ts";
import { createId } from "../../lib/ids.ts";
import { SEND_NOTES, type Treasury, type TreasurySend } from "../treasury/treasury.ts";
import type { Buyer } from "./ownership.ts";
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

/** Why buying is unavailable here, for the buy page to say in its reader's words (issue 37); null when it is not. */
export function buyUnavailableCode(deps: BuyDeps): BuyUnavailableReason | null {
  if (!deps.chain) return "no_chain";
  if (!deps.treasury) return "no_treasury";
  return null;
}

const UNAVAILABLE_SENTENCES: Record<BuyUnavailableReason, string> = {
  no_chain: "Buying CPXTB is unavailable: the server has no chain connection.",
  no_treasury: "Buying CPXTB is unavailable: no treasury is configured.",
};

export function buyUnavailableReason(deps: BuyDeps): string | null {
  const code = buyUnavailableCode(deps);
  return code && UNAVAILABLE_SENTENCES[code];
}

/** The chain and the treasury a buy needs; else a 503 with `details.reason` (`no_chain`, `no_treasury`). */
export function requireReady(deps: BuyDeps): { chain: Chain; treasury: Treasury } {
  const code = buyUnavailableCode(deps);
  if (code) throw new AppError("SERVICE_UNAVAILABLE", UNAVAILABLE_SENTENCES[code], { reason: code });
  return { chain: deps.chain!, treasury: deps.treasury! };
}

/**
 * A quote at the current price (not locked: creating the order locks it). Stale prices refuse (503), with
 * `details.reason` `price_stale` (chain/price.ts), as every other price failure names its own.
 */
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

/**
 * The address an order asking for delivery to the managed wallet (`deliverTo: "managed"`) sends to: the signed-in
 * account's managed wallet, read from the database for the session's user (decision 032) — an address the client
 * sends is never taken as "managed". Null when the order delivers to its own wallet.
 */
export async function managedDeliveryAddress(
  db: DbOrTx,
  buyer: Buyer,
  deliverTo: BuyDeliverTo | undefined,
): Promise<Address | null> {
  if (deliverTo !== "managed") return null;
  if (!buyer.userId) {
    throw new AppError("UNAUTHENTICATED", "Sign in to buy CPXTB for your CPXTB wallet.", {
      reason: "sign_in_for_managed_wallet",
    });
  }
  const [wallet] = await db
    .select({ address: managedWallets.address })
    .from(managedWallets)
    .where(eq(managedWallets.userId, buyer.userId));
  if (!wallet) {
    throw new AppError(
      "CONFLICT",
      "Your account has no CPXTB wallet yet: sign in with Google, Facebook, X or Apple to get one.",
      { reason: "no_managed_wallet" },
    );
  }
  return getAddress(wallet.address);
}

/** Where an order's CPXTB goes: its managed wallet when it asked for that, otherwise the wallet that bought. */
export const deliveryAddressOf = (order: Pick<OrderRow, "deliverTo" | "buyerAddress">): Address =>
  getAddress(order.deliverTo ?? order.buyerAddress);

/**
 * An ETH order for a wallet the buyer proved is theirs (`proveWallet`, checked after the cheap refusals): the
 * transfer that pays it is matched by its sender, so an order for someone else's wallet could take their ETH.
 */
export async function createOrder(
  deps: BuyDeps,
  input: CreateBuyOrderRequest,
  buyer: Buyer,
  proveWallet: () => Promise<void>,
): Promise<OrderRow> {
  const { chain, treasury } = requireReady(deps);
  if (input.method === "paypal") throw new AppError("BAD_REQUEST", "Use /api/buy/paypal/orders for PayPal.");
  const q = await quote(deps, input);
  if (q.ethAmountWei === null) {
    throw new AppError(
      "SERVICE_UNAVAILABLE",
      "Paying with ETH is unavailable: the server has no ETH/USD price (ETH_USD_FEED_ADDRESS).",
      { reason: "no_eth_price" },
    );
  }
  // The ETH still comes from the proven wallet (the transfer is matched by its sender); only where the CPXTB
  // goes changes. Resolved before the proof, so a refusal does not spend the buyer's signature.
  const deliverTo = await managedDeliveryAddress(deps.db, buyer, input.deliverTo);
  await proveWallet();
  return insertOrder(deps, chain, treasury, { ...q, method: "eth", input, buyer, deliverTo });
}

export async function insertOrder(
  deps: BuyDeps,
  chain: Chain,
  treasury: Treasury,
  o: Awaited<ReturnType<typeof quote>> & {
    method: "eth" | "paypal";
    input: { buyerAddress: string; returnTo?: string | null };
    buyer: Buyer;
    /** The managed wallet the CPXTB goes to (`managedDeliveryAddress`), or null for `buyerAddress`. */
    deliverTo: Address | null;
    paypalOrderId?: string;
  },
): Promise<OrderRow> {
  const now = deps.now();
  const [row] = await deps.db
    .insert(buyOrders)
    .values({
      id: createId("ord"),
      userId: o.buyer.userId,
      ownerTokenHash: o.buyer.userId ? null : o.buyer.ownerTokenHash,
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
      deliverTo: o.deliverTo,
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

/** Which of the treasury's fixed notes a send carries, for the page to say in the buyer's language. */
const noteReasonOf = (note: string | null) =>
  (Object.keys(SEND_NOTES) as (keyof typeof SEND_NOTES)[]).find((key) => SEND_NOTES[key] === note) ?? null;

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
    deliveryAddress: deliveryAddressOf(order),
    toManagedWallet: order.deliverTo !== null,
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
          noteReason: noteReasonOf(send.lastError),
        }
      : null,
    problem: order.problem,
    problemDetails: order.problemDetails ?? null,
    refundDue: order.refundDue,
    returnTo: order.returnTo,
    approveUrl,
  };
}

/** Serialises deciding which order an ETH transfer pays (scanner, submitted hashes, every instance). */
const ASSIGN_LOCK = 7_301_155_220_013;

/** An ETH transfer to the treasury as the chain reports it. */
export type EthTransfer = {
  hash: Hex;
  from: Address;
  to: Address;
  value: bigint;
  block: bigint;
  blockTime: Date;
  confirmed: boolean;
};

export type ReceiptRow = typeof treasuryReceipts.$inferSelect;

/** What an ETH transfer to the treasury was recorded as; `unconfirmed`: it fits no order and waits for blocks. */
export type Assignment =
  | { kind: "order"; order: OrderRow }
  | { kind: "receipt"; receipt: ReceiptRow }
  | { kind: "unconfirmed" };

/** Reads a transaction: it must be a succeeded, mined ETH transfer to the treasury. */
export async function readEthTransfer(deps: BuyDeps, txHash: Hex): Promise<EthTransfer> {
  const { chain, treasury } = requireReady(deps);
  const client = chain.client;
  const [tx, receipt] = await Promise.all([
    client
      .getTransaction({ hash: txHash })
      .catch((e) => (e instanceof TransactionNotFoundError ? null : Promise.reject(e))),
    client
      .getTransactionReceipt({ hash: txHash })
      .catch((e) => (e instanceof TransactionReceiptNotFoundError ? null : Promise.reject(e))),
  ]);
  if (!tx)
    throw new AppError("NOT_FOUND", "This transaction is not on the chain (yet). Try again in a moment.", {
      reason: "tx_not_found",
    });
  if (!tx.to || getAddress(tx.to) !== getAddress(treasury.address)) {
    throw new AppError("UNPROCESSABLE", "This transaction does not pay the treasury address of this order.", {
      reason: "tx_wrong_recipient",
    });
  }
  if (!receipt)
    throw new AppError("NOT_FOUND", "This transaction is not mined yet. Try again in a moment.", {
      reason: "tx_not_mined",
    });
  if (receipt.status !== "success")
    throw new AppError("UNPROCESSABLE", "This transaction failed on chain.", {
      reason: "tx_failed",
    });
  if (tx.value === 0n)
    throw new AppError("UNPROCESSABLE", "This transaction sends no ETH.", { reason: "tx_no_eth" });
  const [block, head] = await Promise.all([
    client.getBlock({ blockNumber: receipt.blockNumber }),
    client.getBlockNumber(),
  ]);
  return {
    hash: tx.hash,
    from: getAddress(tx.from),
    to: getAddress(tx.to),
    value: tx.value,
    block: receipt.blockNumber,
    blockTime: new Date(Number(block.timestamp) * 1000),
    confirmed: head - receipt.blockNumber + 1n >= BigInt(chain.confirmations),
  };
}

/**
 * How well a transfer fits an open order of its sender (lower is better; null: not at all): exact and in time,
 * then more than due (least excess), then less than due (least short), then after the quote expired (exact
 * first, least late first).
 */
function fitScore(order: OrderRow, t: EthTransfer): [number, bigint] | null {
  if (order.buyerAddress !== t.from || getAddress(order.treasuryAddress) !== t.to) return null;
  if (t.blockTime.getTime() > order.expiresAt.getTime() + LATE_WINDOW_MS) return null;
  const due = order.ethAmountWei!;
  // Late: the exact amount first, then the quote that expired last (the one the buyer most likely paid).
  const late = BigInt(t.blockTime.getTime() - order.expiresAt.getTime());
  if (late > 0n) return [t.value === due ? 3 : 4, late];
  if (t.value === due) return [0, 0n];
  if (t.value > due) return [1, t.value - due];
  return [2, due - t.value];
}

/** The order a transfer pays among open orders: the best fit, then the oldest (the same answer on every path). */
export function matchOrder(open: OrderRow[], t: EthTransfer): OrderRow | null {
  let best: { order: OrderRow; score: [number, bigint] } | null = null;
  for (const order of open) {
    const score = fitScore(order, t);
    if (!score) continue;
    const better =
      !best ||
      score[0] < best.score[0] ||
      (score[0] === best.score[0] &&
        (score[1] < best.score[1] ||
          (score[1] === best.score[1] &&
            (order.createdAt < best.order.createdAt ||
              (order.createdAt.getTime() === best.order.createdAt.getTime() && order.id < best.order.id)))));
    if (better) best = { order, score };
  }
  return best?.order ?? null;
}

/** What a confirmed transfer does to the order it pays. */
function outcomeFor(
  order: OrderRow,
  t: EthTransfer,
): {
  to: OrderRow["status"];
  problem: string | null;
  problemDetails: BuyProblemDetails | null;
  refundDue: boolean;
} {
  const due = order.ethAmountWei!;
  if (t.blockTime > order.expiresAt) {
    return {
      to: "late",
      problem:
        "Paid after the quote expired: no CPXTB is sent at the old price; the ETH is listed for refund.",
      problemDetails: { reason: "paid_late" },
      refundDue: true,
    };
  }
  if (t.value < due) {
    const paid = formatEth(t.value);
    const owed = formatEth(due);
    return {
      to: "underpaid",
      problem: `Paid ${paid} ETH of the ${owed} ETH due: no CPXTB is sent; the ETH is listed for refund.`,
      problemDetails: { reason: "underpaid", paid, due: owed },
      refundDue: true,
    };
  }
  if (t.value > due) {
    const excess = formatEth(t.value - due);
    return {
      to: "paid",
      problem: `Paid ${excess} ETH more than due; the excess is listed for refund.`,
      problemDetails: { reason: "overpaid", excess },
      refundDue: true,
    };
  }
  return { to: "paid", problem: null, problemDetails: null, refundDue: false };
}

/**
 * Records an ETH transfer to the treasury exactly once, the same way whether its hash was submitted or the
 * scanner found it: the order of its sender that it fits (`matchOrder`), whichever order the hash was posted to;
 * otherwise, once confirmed, a treasury receipt listed for refund with its sender. `relatedTo`: the order the
 * hash was posted to, noted on a receipt. An order holding the transfer is settled once it is confirmed.
 */
export async function recordEthTransfer(
  deps: BuyDeps,
  t: EthTransfer,
  relatedTo: string | null = null,
  retried = false,
): Promise<Assignment> {
  const { chain, treasury } = requireReady(deps);
  const hash = t.hash.toLowerCase();
  let result: Assignment = { kind: "unconfirmed" };
  let changed: { before: OrderRow["status"]; order: OrderRow } | null = null;
  try {
    await deps.db.transaction(async (dbTx) => {
      await dbTx.execute(sql`select pg_advisory_xact_lock(${ASSIGN_LOCK})`);
      const [receipt] = await dbTx.select().from(treasuryReceipts).where(eq(treasuryReceipts.txHash, hash));
      if (receipt) {
        result = { kind: "receipt", receipt };
        return;
      }
      const [holder] = await dbTx.select().from(buyOrders).where(eq(buyOrders.payTxHash, hash));
      let order = holder;
      if (!order) {
        const open = await dbTx
          .select()
          .from(buyOrders)
          .where(
            and(
              eq(buyOrders.chainId, chain.chainId),
              eq(buyOrders.method, "eth"),
              eq(buyOrders.buyerAddress, t.from),
              inArray(buyOrders.status, ["quoted", "expired"]),
              sql`${buyOrders.payTxHash} is null`,
              gte(buyOrders.expiresAt, new Date(t.blockTime.getTime() - LATE_WINDOW_MS)),
            ),
          );
        order = matchOrder(open, t) ?? undefined;
      }
      if (!order) {
        if (!t.confirmed) return;
        const related =
          relatedTo ??
          (
            await dbTx
              .select({ id: buyOrders.id })
              .from(buyOrders)
              .where(and(eq(buyOrders.chainId, chain.chainId), eq(buyOrders.buyerAddress, t.from)))
              .orderBy(desc(buyOrders.createdAt))
              .limit(1)
          )[0]?.id ??
          null;
        const reason = related
          ? `No open order from ${t.from} fits ${formatEth(t.value)} ETH (its orders are already paid, or their quotes expired over a day before): listed for refund.`
          : `No order was placed from ${t.from}: listed for refund.`;
        const [row] = await dbTx
          .insert(treasuryReceipts)
          .values({
            id: createId("rcp"),
            chainId: chain.chainId,
            treasuryAddress: getAddress(treasury.address),
            txHash: hash,
            fromAddress: t.from,
            valueWei: t.value,
            block: t.block,
            blockTime: t.blockTime,
            reason,
            relatedOrderId: related,
            createdAt: deps.now(),
          })
          .returning();
        result = { kind: "receipt", receipt: row! };
        deps.log.warn(
          { txHash: hash, from: t.from, eth: formatEth(t.value), relatedOrderId: related },
          "ETH to the treasury pays no order: listed for refund",
        );
        return;
      }
      if (!["quoted", "confirming", "expired"].includes(order.status)) {
        result = { kind: "order", order };
        return;
      }
      const outcome = t.confirmed ? outcomeFor(order, t) : null;
      const [updated] = await dbTx
        .update(buyOrders)
        .set({
          status: outcome?.to ?? "confirming",
          payTxHash: hash,
          payFrom: t.from,
          payValueWei: t.value,
          payBlock: t.block,
          paidAt: t.blockTime,
          problem: outcome?.problem ?? null,
          problemDetails: outcome?.problemDetails ?? null,
          refundDue: outcome?.refundDue ?? false,
          updatedAt: deps.now(),
        })
        .where(
          and(eq(buyOrders.id, order.id), inArray(buyOrders.status, ["quoted", "confirming", "expired"])),
        )
        .returning();
      if (!updated) {
        // Closed meanwhile by a path outside the lock: nothing to record on it.
        result = { kind: "order", order };
        return;
      }
      if (updated.status === "paid") {
        await treasury.enqueue(dbTx, {
          kind: "order",
          refId: order.id,
          to: deliveryAddressOf(order),
          amount: order.tokenAmount,
        });
      }
      result = { kind: "order", order: updated };
      if (updated.status !== order.status) changed = { before: order.status, order: updated };
    });
  } catch (error) {
    // The lock serialises every path; the unique keys (pay_tx_hash, receipt tx_hash) are the last word if
    // anything wrote without it: read what the transfer became.
    if (isUniqueViolation(error) && !retried) return recordEthTransfer(deps, t, relatedTo, true);
    throw error;
  }
  const c = changed as { before: OrderRow["status"]; order: OrderRow } | null;
  if (c) {
    deps.log.info(
      { orderId: c.order.id, from: c.before, to: c.order.status, txHash: hash },
      "buy order changed",
    );
    if (c.order.refundDue) {
      deps.log.warn(
        { orderId: c.order.id, txHash: hash, problem: c.order.problem },
        "buy order listed for refund",
      );
    }
    deps.notify(c.order.id);
  }
  return result;
}

/**
 * A hash the order page submits: recorded like the scanner would (`recordEthTransfer`), then answered for this
 * order. A transfer that fits another order, or none, is not taken by this one.
 */
export async function submitEthPayment(deps: BuyDeps, order: OrderRow, txHash: Hex): Promise<OrderRow> {
  if (order.method !== "eth") throw new AppError("BAD_REQUEST", "This order is not paid with ETH.");
  const t = await readEthTransfer(deps, txHash);
  const result = await recordEthTransfer(deps, t, order.id);
  if (result.kind === "order" && result.order.id === order.id) return result.order;
  if (result.kind === "order") {
    throw new AppError(
      "CONFLICT",
      "This transaction already paid another order: its sender, amount and time fit that order.",
      { reason: "tx_paid_other_order" },
    );
  }
  if (t.from !== order.buyerAddress) {
    throw new AppError(
      "UNPROCESSABLE",
      `This transaction was sent from ${t.from}, not from this order's wallet ${order.buyerAddress}; it does not pay this order.${result.kind === "receipt" ? " The ETH is listed for refund." : ""}`,
      {
        reason: "tx_other_sender",
        from: t.from,
        wallet: order.buyerAddress,
        refund: result.kind === "receipt",
      },
    );
  }
  if (order.payTxHash) {
    throw new AppError(
      "CONFLICT",
      `This order is already paid by another transaction.${result.kind === "receipt" ? " This second payment is listed for refund." : " Once it is confirmed, this second payment is listed for refund."}`,
      { reason: "order_already_paid", refund: result.kind === "receipt" },
    );
  }
  throw new AppError(
    "UNPROCESSABLE",
    `This transaction does not fit this order (quote expired more than a day before it, or another treasury).${result.kind === "receipt" ? " The ETH is listed for refund." : ""}`,
    { reason: "tx_does_not_fit", refund: result.kind === "receipt" },
  );
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
          problemDetails: { reason: "delivery_failed" },
          updatedAt: deps.now(),
        })
        .where(and(eq(buyOrders.id, send.refId), eq(buyOrders.status, "paid")));
      queueMicrotask(() => deps.notify(send.refId));
    },
  };
}

/**
 * The scanner (run by the treasury runtime): records every ETH transfer to the treasury in confirmed blocks —
 * the order it pays (so an order whose tab was closed still gets its tokens) or, paying none, a receipt listed
 * for refund; settles orders waiting for confirmations; marks unpaid quotes expired.
 */
export async function scanPayments(deps: BuyDeps): Promise<void> {
  const { chain, treasury } = requireReady(deps);
  const now = deps.now();
  const cursorKey = `buy-scan:${chain.chainId}:${treasury.address.toLowerCase()}`;
  const head = await chain.client.getBlockNumber();
  const confirmedHead = head - BigInt(Math.max(chain.confirmations, 1)) + 1n;
  const [cursorRow] = await deps.db.select().from(appMeta).where(eq(appMeta.key, cursorKey));
  let cursor = cursorRow ? BigInt(cursorRow.value) : confirmedHead > 100n ? confirmedHead - 100n : 0n;

  const confirming = await deps.db
    .select()
    .from(buyOrders)
    .where(
      and(
        eq(buyOrders.chainId, chain.chainId),
        eq(buyOrders.method, "eth"),
        eq(buyOrders.status, "confirming"),
      ),
    )
    .orderBy(asc(buyOrders.createdAt));
  for (const order of confirming) {
    if (!order.payTxHash) continue;
    await readEthTransfer(deps, order.payTxHash as Hex)
      .then((t) => recordEthTransfer(deps, t))
      .catch((error) =>
        deps.log.warn({ orderId: order.id, err: String(error) }, "buy order re-check failed"),
      );
  }

  const until = confirmedHead < cursor + SCAN_BLOCKS_PER_PASS ? confirmedHead : cursor + SCAN_BLOCKS_PER_PASS;
  const treasuryAddress = getAddress(treasury.address);
  let failure: unknown = null;
  for (let n = cursor + 1n; n <= until && failure === null; n++) {
    try {
      const block = await chain.client.getBlock({ blockNumber: n, includeTransactions: true });
      for (const tx of block.transactions) {
        if (!tx.to || getAddress(tx.to) !== treasuryAddress || tx.value === 0n) continue;
        if (getAddress(tx.from) === treasuryAddress) continue;
        let transfer: EthTransfer;
        try {
          transfer = await readEthTransfer(deps, tx.hash);
        } catch (error) {
          // A reverted transfer moved no ETH; anything else (the node) stops this pass here.
          if (error instanceof AppError && error.code === "UNPROCESSABLE") continue;
          throw error;
        }
        await recordEthTransfer(deps, transfer);
      }
      cursor = n;
    } catch (error) {
      failure = error;
    }
  }
  await deps.db
    .insert(appMeta)
    .values({ key: cursorKey, value: cursor.toString() })
    .onConflictDoUpdate({ target: appMeta.key, set: { value: cursor.toString(), updatedAt: now } });
  if (failure !== null) throw failure;

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
