import type { Locale } from "@common/locales.ts";
import {
  type CreatePaymentRequest,
  EXPIRY_MINUTES,
  MONITORING_WINDOW_HOURS,
  type PaymentStatus,
} from "@common/payments.ts";
import { and, eq, inArray, isNull, lt, lte, sql } from "drizzle-orm";
import { decodeEventLog, getAddress, type Hash, TransactionReceiptNotFoundError } from "viem";
import { type IndexedRange, type TransferLog, transferEvent } from "../../chain/indexer.ts";
import { toChainError } from "../../chain/rpc-errors.ts";
import type { Chain } from "../../chain/service.ts";
import type { Config } from "../../config.ts";
import type { Db, DbOrTx } from "../../db/client.ts";
import { merchants, payments } from "../../db/schema.ts";
import { AppError } from "../../errors.ts";
import { createId, createReference } from "../../lib/ids.ts";
import { type AuditContext, recordAudit } from "../audit/record.ts";
import { isUniqueViolation } from "../auth/service.ts";
import { holdLinkUnit } from "../links/repository.ts";
import type { MerchantScope } from "../merchants/repository.ts";
import {
  assertTaggableDecimals,
  formatTokens,
  MAX_TAG,
  parseTokenAmount,
  parseUsdCents,
  roundUpTo3Decimals,
  tagUnit,
  usdCentsToBaseUnits,
} from "./amounts.ts";
import {
  type BatchContext,
  type Evaluation,
  evaluatePayment,
  evaluatePayments,
  findPaymentsAwaitingConfirmations,
  orphanMissingInRange,
  orphanTransfersAbove,
} from "./engine.ts";
import {
  type InsertOutcome,
  insertPayments,
  type MerchantSelector,
  type NewPayment,
  PaymentInsertQueue,
  type TagSpace,
} from "./payment-inserts.ts";
import * as refundRepo from "./refund-repository.ts";
import * as repo from "./repository.ts";
import {
  refundableOf,
  toPaymentResponse,
  toPublicPayment,
  toRefundLinkResponse,
  toRefundResponse,
  toTimelineEntry,
  toTransferResponse,
} from "./views.ts";

/**
 * An unmatched transfer as the pay pages of its address hear it: where it went and its amount, nothing else (not
 * its sender, hash or any payment): a payer who sent a wrong amount recognises theirs and pastes its hash.
 */
export type UnmatchedTransfer = { id: string; merchantId: string; to: string; amount: string };

export type PaymentsDeps = {
  db: Db;
  chain: Chain | null;
  config: Config;
  now: () => Date;
  /** Asks the outbox publisher to publish what was just committed. */
  notify: () => void;
  /** Transfers that matched no payment were committed for these merchants (their inbox changed). */
  /** The inboxes of these businesses changed; `unmatched`: the new transfers that matched no payment. */
  inboxChanged?: (merchantIds: Iterable<string>, unmatched?: UnmatchedTransfer[]) => void;
};

const MONITORING_WINDOW_MS = MONITORING_WINDOW_HOURS * 60 * 60 * 1000;
const MAX_INSERT_ATTEMPTS = 25;

export function requireChain(chain: Chain | null): Chain {
  if (!chain)
    throw new AppError(
      "SERVICE_UNAVAILABLE",
      "Payments are unavailable: no blockchain connection is configured.",
    );
  return chain;
}

/** https anywhere; http only to localhost outside production (a shop under development). */
export function checkSuccessUrl(url: string, config: Config): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new AppError("VALIDATION_ERROR", "The success URL is not a valid URL.");
  }
  const local = ["localhost", "127.0.0.1", "[::1]"].includes(parsed.hostname);
  if (parsed.protocol === "https:" || (parsed.protocol === "http:" && local && config.env !== "production")) {
    return parsed.toString();
  }
  throw new AppError(
    "VALIDATION_ERROR",
    "The success URL must use https:// (http:// only to localhost in development).",
  );
}

type Creation = {
  amountUsdCents: bigint | null;
  price: { priceE18: bigint; source: string; at: Date } | null;
  baseAmount: bigint;
  description: string | null;
  orderId: string | null;
  successUrl: string | null;
  payerEmail: string | null;
  payerLocale?: Locale | null;
  expiresInMs: number;
  regeneratedFromId?: string;
  /**
   * The payment link it is made from (issue 35): the insert runs in one transaction with `holdLinkUnit`, which
   * locks the link's row and refuses when it is switched off or its quantity limit is reached.
   */
  linkId?: string | null;
};

class AlreadyRegenerated extends Error {}

const insertQueues = new WeakMap<PaymentsDeps, PaymentInsertQueue>();

function insertQueueOf(deps: PaymentsDeps, tags: TagSpace) {
  let queue = insertQueues.get(deps);
  if (!queue) {
    queue = new PaymentInsertQueue(deps.db, tags);
    insertQueues.set(deps, queue);
  }
  return queue;
}

/**
 * Inserts a payment with a free tag (PAYMENTS.md, Unique tag): one statement reads the merchant, picks a tag no
 * live payment holds and inserts, grouped with the creations arriving at the same time. The partial unique index
 * over live amounts decides; when a concurrent insert took the tag first, the insert runs again and sees it.
 */
async function insertWithFreeTag(deps: PaymentsDeps, merchant: MerchantSelector, chain: Chain, c: Creation) {
  const decimals = chain.token.decimals;
  const tags = { maxTag: MAX_TAG, tagUnit: tagUnit(decimals) };
  for (let attempt = 0; attempt < MAX_INSERT_ATTEMPTS; attempt++) {
    const now = deps.now();
    const expiresAt = new Date(now.getTime() + c.expiresInMs);
    const values: NewPayment = {
      // The id's time is the row's created_at: a time range is also an id range (`listPaymentsOfOwner`).
      id: createId("pay", now),
      reference: createReference(),
      chainId: chain.chainId,
      tokenAddress: chain.token.address,
      tokenDecimals: decimals,
      amountUsdCents: c.amountUsdCents,
      priceE18: c.price?.priceE18 ?? null,
      priceSource: c.price?.source ?? null,
      priceAt: c.price?.at ?? null,
      baseAmount: c.baseAmount,
      description: c.description,
      orderId: c.orderId,
      successUrl: c.successUrl,
      payerEmail: c.payerEmail,
      payerLocale: c.payerLocale ?? null,
      expiresAt,
      monitorUntil: new Date(expiresAt.getTime() + MONITORING_WINDOW_MS),
      regeneratedFromId: c.regeneratedFromId ?? null,
      linkId: c.linkId ?? null,
      createdAt: now,
      cause: c.regeneratedFromId ? `regenerated from ${c.regeneratedFromId}` : "created",
    };
    let outcome: InsertOutcome;
    try {
      const from = c.regeneratedFromId;
      const linkId = c.linkId;
      outcome = linkId
        ? await deps.db.transaction(async (tx) => {
            // Under the link's row lock: parallel buyers of its last unit are served one at a time.
            await holdLinkUnit(tx, linkId);
            const [inserted] = await insertPayments(tx, [{ merchant, values }], tags);
            if (inserted!.kind !== "inserted") return inserted!;
            if (from) await linkRegenerated(tx, from, inserted!.payment.id, now);
            return inserted!;
          })
        : !from
          ? await insertQueueOf(deps, tags).insert({ merchant, values })
          : await deps.db.transaction(async (tx) => {
              const [inserted] = await insertPayments(tx, [{ merchant, values }], tags);
              if (inserted!.kind !== "inserted") return inserted!;
              const linked = await tx
                .update(payments)
                .set({ regeneratedToId: inserted!.payment.id, updatedAt: now })
                .where(
                  and(
                    eq(payments.id, from),
                    eq(payments.status, "expired"),
                    isNull(payments.regeneratedToId),
                  ),
                )
                .returning({ to: payments.regeneratedToId });
              if (linked.length === 0) throw new AlreadyRegenerated();
              return inserted!;
            });
    } catch (error) {
      if (
        isUniqueViolation(error, "payment_amounts_key") ||
        isUniqueViolation(error, "payments_reference_unique")
      )
        continue;
      throw error;
    }
    switch (outcome.kind) {
      case "inserted":
        deps.notify();
        return outcome.payment;
      case "tag-taken":
        continue;
      case "no-merchant":
        throw new AppError("NOT_FOUND", "You have not registered a business yet.");
      case "no-free-tag":
        throw new AppError(
          "CONFLICT",
          "All 999 unique amounts for this price are in use by open payments. Change the amount slightly or wait for some to expire.",
        );
    }
  }
  throw new AppError(
    "CONFLICT",
    "Too many payments of this amount are being created at once. Please try again.",
  );
}

/** Links an expired payment to its successor, once (a second regeneration finds it linked already). */
async function linkRegenerated(tx: DbOrTx, from: string, to: string, now: Date) {
  const linked = await tx
    .update(payments)
    .set({ regeneratedToId: to, updatedAt: now })
    .where(and(eq(payments.id, from), eq(payments.status, "expired"), isNull(payments.regeneratedToId)))
    .returning({ to: payments.regeneratedToId });
  if (linked.length === 0) throw new AlreadyRegenerated();
}

/** The rate for valuing a payment asked in CPXTB when it is paid; never blocks the payment when unavailable. */
function completionPriceOf(chain: Chain) {
  return async () => {
    try {
      const price = await chain.price.getPrice();
      return price.stale ? null : { priceE18: price.priceE18, at: price.updatedAt };
    } catch {
      return null;
    }
  };
}

async function lockPrice(chain: Chain) {
  const price = await chain.price.getQuotablePrice();
  return { priceE18: price.priceE18, source: price.source, at: price.updatedAt };
}

export async function createPayment(
  deps: PaymentsDeps,
  merchant: MerchantSelector,
  input: CreatePaymentRequest,
  options: { linkId?: string; payerLocale?: Locale } = {},
) {
  const chain = requireChain(deps.chain);
  const decimals = chain.token.decimals;
  assertTaggableDecimals(decimals);
  let amountUsdCents: bigint | null = null;
  let price: Creation["price"] = null;
  let baseAmount: bigint;
  if (input.currency === "USD") {
    amountUsdCents = parseUsdCents(input.amount);
    price = await lockPrice(chain);
    baseAmount = roundUpTo3Decimals(usdCentsToBaseUnits(amountUsdCents, price.priceE18, decimals), decimals);
  } else {
    baseAmount = parseTokenAmount(input.amount, decimals);
  }
  return insertWithFreeTag(deps, merchant, chain, {
    amountUsdCents,
    price,
    baseAmount,
    description: input.description ?? null,
    orderId: input.orderId ?? null,
    successUrl: input.successUrl ? checkSuccessUrl(input.successUrl, deps.config) : null,
    payerEmail: input.payerEmail ?? null,
    // A link's page gives the language its payer read it in; a request may name the payer's.
    payerLocale: options.payerLocale ?? input.payerLanguage ?? null,
    expiresInMs: (input.expiresInMinutes ?? EXPIRY_MINUTES.default) * 60_000,
    linkId: options.linkId ?? null,
  });
}

/**
 * A new payment for an expired one that received nothing: a new rate and the default expiry of a new payment
 * (EXPIRY_MINUTES.default; a business sets no default of its own), linked both ways.
 */
export async function regeneratePayment(deps: PaymentsDeps, old: repo.PaymentRow): Promise<repo.PaymentRow> {
  const chain = requireChain(deps.chain);
  if (old.regeneratedToId) {
    const [successor] = await deps.db.select().from(payments).where(eq(payments.id, old.regeneratedToId));
    if (successor) return successor;
  }
  if (old.status !== "expired" || old.amountSeen > 0n) {
    throw new AppError("CONFLICT", "Only an expired payment that received nothing can be regenerated.");
  }
  let price: Creation["price"] = null;
  let baseAmount = old.baseAmount;
  if (old.amountUsdCents !== null) {
    price = await lockPrice(chain);
    baseAmount = roundUpTo3Decimals(
      usdCentsToBaseUnits(old.amountUsdCents, price.priceE18, chain.token.decimals),
      chain.token.decimals,
    );
  }
  try {
    return await insertWithFreeTag(deps, { id: old.merchantId }, chain, {
      amountUsdCents: old.amountUsdCents,
      price,
      baseAmount,
      description: old.description,
      orderId: old.orderId,
      successUrl: old.successUrl,
      payerEmail: old.payerEmail,
      payerLocale: old.payerLocale,
      // A fresh request gets a fresh window: the default a new payment gets, not what the old one had.
      expiresInMs: EXPIRY_MINUTES.default * 60_000,
      regeneratedFromId: old.id,
      linkId: old.linkId,
    });
  } catch (error) {
    if (!(error instanceof AlreadyRegenerated)) throw error;
    const [again] = await deps.db.select().from(payments).where(eq(payments.id, old.id));
    const [successor] = again?.regeneratedToId
      ? await deps.db.select().from(payments).where(eq(payments.id, again.regeneratedToId))
      : [];
    if (!successor) throw new AppError("CONFLICT", "The payment could not be regenerated. Please try again.");
    return successor;
  }
}

/** A payment of the scope's business (membership is part of the query), or 404. */
export async function getPaymentOfOwner(db: DbOrTx, ownerId: MerchantScope, id: string) {
  const payment = await repo.findPaymentOfOwner(db, ownerId, id);
  if (!payment) throw new AppError("NOT_FOUND", "No such payment.");
  return payment;
}

/** The merchant's view of one payment with its timeline, transfers and refunds. */
export async function paymentDetail(
  db: DbOrTx,
  payment: repo.PaymentRow,
  paymentBaseUrl: string,
  now: Date = new Date(),
) {
  const [timeline, transfers, refunds, refundLinks, refundAddresses] = await Promise.all([
    repo.listTimeline(db, payment.id),
    repo.listTransfersOfPayment(db, payment.id),
    refundRepo.listRefundsOfPayment(db, payment.id),
    refundRepo.listRefundLinksOfPayment(db, payment.id),
    refundRepo.refundAddressesOf(db, payment.id),
  ]);
  return {
    ...toPaymentResponse(payment, paymentBaseUrl),
    timeline: timeline.map(toTimelineEntry),
    transfers: transfers.map((t) => toTransferResponse(t, payment.tokenDecimals)),
    refunds: refunds.map((r) => toRefundResponse(r, payment.tokenDecimals)),
    refundLinks: refundLinks.map((l) => toRefundLinkResponse(l, now)),
    refundAddresses,
    refundableBase: refundableOf(payment).toString(),
  };
}

/** A page of `listPaymentsOfOwner` (which reads one row more than `limit` to know whether more follow). */
export function toPaymentPage(rows: repo.PaymentRow[], limit: number, paymentBaseUrl: string) {
  const page = rows.slice(0, limit);
  return {
    items: page.map((p) => toPaymentResponse(p, paymentBaseUrl)),
    nextCursor: rows.length > limit ? page.at(-1)!.id : null,
  };
}

export async function getPublicPayment(deps: PaymentsDeps, reference: string) {
  const found = await repo.findPaymentByReference(deps.db, reference);
  if (!found) throw new AppError("NOT_FOUND", "No payment has this reference.");
  return publicView(deps, found.payment, found.merchant);
}

export async function publicView(
  deps: PaymentsDeps,
  payment: repo.PaymentRow,
  merchant: repo.PublicMerchant,
) {
  const [transfers, refunds, head, successor] = await Promise.all([
    repo.listTransfersOfPayment(deps.db, payment.id),
    refundRepo.listRefundsOfPayment(deps.db, payment.id),
    repo.findIndexedHead(deps.db, payment.chainId, payment.tokenAddress),
    payment.regeneratedToId
      ? deps.db
          .select({ reference: payments.reference })
          .from(payments)
          .where(eq(payments.id, payment.regeneratedToId))
      : Promise.resolve([]),
  ]);
  return toPublicPaymentView(deps, {
    payment,
    merchant,
    head,
    transfers,
    refunds,
    regeneratedToReference: successor[0]?.reference ?? null,
  });
}

/** The payer's view of a payment from its rows (see PublicPaymentCache for the cached read). */
export function toPublicPaymentView(
  deps: PaymentsDeps,
  rows: Omit<Parameters<typeof toPublicPayment>[0], "token" | "confirmationsRequired">,
) {
  return toPublicPayment({
    ...rows,
    token: { symbol: deps.chain?.token.symbol ?? "CPXTB" },
    confirmationsRequired: deps.chain?.confirmations ?? 1,
  });
}

/**
 * A transaction's receipt and the chain's head, read together (for its confirmations). A hash that is in no block
 * (unknown, or not mined yet) answers 404 with `notMined`; a node that fails answers 502/504.
 */
export async function readReceipt(chain: Chain, txHash: Hash, notMined: string) {
  try {
    const [receipt, head] = await Promise.all([
      chain.client.getTransactionReceipt({ hash: txHash }),
      chain.client.getBlockNumber({ cacheTime: 0 }),
    ]);
    return { receipt, head };
  } catch (error) {
    if (
      error instanceof TransactionReceiptNotFoundError ||
      (error as Error).name === "TransactionReceiptNotFoundError"
    ) {
      throw new AppError("NOT_FOUND", notMined);
    }
    throw toChainError(error, "the transaction receipt");
  }
}

/**
 * Fast path (PAYMENTS.md, Matching 1): the receipt must be a success and hold a Transfer log of the token to the
 * payment's address that no payment holds yet; that log is credited whatever its amount.
 */
export async function submitTransaction(deps: PaymentsDeps, payment: repo.PaymentRow, txHash: Hash) {
  const chain = requireChain(deps.chain);
  const { receipt, head } = await readReceipt(
    chain,
    txHash,
    "This transaction is not in a block yet. Try again once it is mined.",
  );
  if (receipt.status !== "success")
    throw new AppError("UNPROCESSABLE", "This transaction failed on chain (reverted).");
  const token = getAddress(chain.token.address);
  const candidates: TransferLog[] = [];
  for (const log of receipt.logs) {
    if (getAddress(log.address) !== token) continue;
    try {
      const decoded = decodeEventLog({ abi: [transferEvent], data: log.data, topics: log.topics });
      if (decoded.args.to !== payment.receivingAddress) continue;
      candidates.push({
        txHash: log.transactionHash,
        logIndex: log.logIndex,
        blockNumber: log.blockNumber,
        blockHash: log.blockHash,
        blockTime: new Date(0),
        from: decoded.args.from,
        to: decoded.args.to,
        value: decoded.args.value,
      });
    } catch {
      // Another event of the token (Approval...).
    }
  }
  if (candidates.length === 0) {
    throw new AppError(
      "UNPROCESSABLE",
      "This transaction holds no CPXTB transfer to this payment's address.",
    );
  }
  let blockTime: Date;
  try {
    const block = await chain.client.getBlock({ blockNumber: receipt.blockNumber });
    blockTime = new Date(Number(block.timestamp) * 1000);
  } catch (error) {
    throw toChainError(error, "the transaction's block");
  }
  const tip = await repo.findIndexedTip(deps.db, chain.chainId, chain.token.address);
  const outcome = await deps.db.transaction(async (tx) => {
    const stored: repo.TransferRow[] = [];
    for (const log of candidates) {
      const { row } = await repo.upsertTransfer(tx, {
        ...toNewTransfer(chain, log, blockTime),
        merchantId: payment.merchantId,
      });
      stored.push(row);
    }
    // Cancelled (now, under its lock: a cancellation committed meanwhile counts): the transfers stay stored for
    // the merchant, unclaimed, so they are in the inbox (decision 033).
    if ((await repo.findPaymentForUpdate(tx, payment.id))?.status === "cancelled")
      return "cancelled" as const;
    if (stored.every((r) => r.paymentId === payment.id)) return "already-here" as const;
    const free = stored.filter((r) => r.paymentId === null);
    if (free.length === 0) return "taken" as const;
    // A log of exactly this payment's amount first; never one that exactly pays another open payment.
    const exact = free.find((r) => r.value === payment.amountDue);
    let chosen = exact;
    if (!chosen) {
      for (const r of free) {
        const other = await repo.findPaymentByAmount(tx, {
          chainId: r.chainId,
          tokenAddress: r.tokenAddress,
          to: r.toAddress,
          value: r.value,
          blockTime,
        });
        if (!other || other.id === payment.id) {
          chosen = r;
          break;
        }
      }
    }
    if (!chosen) return "taken" as const;
    if (!(await repo.claimTransfer(tx, chosen.id, payment.id, "tx_hash", payment.merchantId)))
      return "taken" as const;
    await evaluatePayment(tx, payment.id, {
      // The node's head when the receipt was read, or the indexer's once the payment is locked if it has moved
      // past it meanwhile (it may have confirmed the payment's other credits: never count against an older head).
      head: async () => maxOf(head, await repo.findIndexedHead(tx, chain.chainId, chain.token.address)),
      confirmations: chain.confirmations,
      completionPrice: completionPriceOf(chain),
      now: deps.now(),
      chainTime: tip?.blockTime ?? null,
      cause: `transaction ${chosen.txHash} (log ${chosen.logIndex}) submitted, block ${chosen.blockNumber}`,
      transferId: chosen.id,
      blockNumber: chosen.blockNumber,
    });
    return "credited" as const;
  });
  deps.notify();
  if (outcome === "cancelled") {
    deps.inboxChanged?.([payment.merchantId]);
    throw new AppError(
      "CONFLICT",
      "This payment was cancelled by the business. Your transfer was received and the business can see it; contact them for a refund.",
    );
  }
  if (outcome === "taken")
    throw new AppError("CONFLICT", "This transaction's transfer is already credited to another payment.");
}

/**
 * Cancels a payment that received nothing (decision 033): the merchant's counter or dashboard turns it
 * `cancelled`, with its timeline entry and its `payment.cancelled` event (live channel, webhooks) in the same
 * transaction. Its amount stays reserved through the monitoring window, so a transfer that comes later matches no
 * other payment and lands in the merchant's inbox. Under the payment's row lock: a transfer being credited takes
 * the same lock, so one of them wins and the other sees it (409 here, or the credit handed to the inbox).
 * Cancelling a cancelled payment answers it again (idempotent).
 */
export async function cancelPayment(
  deps: PaymentsDeps,
  scope: MerchantScope,
  id: string,
  /** Who cancelled, as the timeline says it: "Ada Lovelace", "the API (key …)". */
  by: string,
): Promise<repo.PaymentRow> {
  const found = await getPaymentOfOwner(deps.db, scope, id);
  const changed = await deps.db.transaction(async (tx) => {
    const payment = await repo.findPaymentForUpdate(tx, found.id);
    if (!payment) throw new AppError("NOT_FOUND", "No such payment.");
    if (payment.status === "cancelled") return false;
    if (payment.status !== "pending" || payment.amountSeen > 0n || (await repo.hasCredits(tx, payment.id))) {
      const received =
        payment.status === "pending" || payment.status === "processing" || payment.status === "partial";
      throw new AppError(
        "CONFLICT",
        received
          ? "This payment has already received a transfer: it cannot be cancelled (refund it once it is paid)."
          : `This payment is ${payment.status.replace("_", " ")}: only an open payment that received nothing can be cancelled.`,
        received ? undefined : { reason: "not_cancellable", status: payment.status },
      );
    }
    const now = deps.now();
    await tx.update(payments).set({ status: "cancelled", updatedAt: now }).where(eq(payments.id, payment.id));
    await repo.insertTimeline(tx, {
      paymentId: payment.id,
      fromStatus: payment.status,
      toStatus: "cancelled",
      cause: `cancelled by ${by}`,
      createdAt: now,
    });
    await repo.insertEvent(tx, {
      paymentId: payment.id,
      merchantId: payment.merchantId,
      type: "payment.cancelled",
    });
    return true;
  });
  if (changed) deps.notify();
  return (await repo.findPaymentOfOwner(deps.db, scope, found.id))!;
}

function toNewTransfer(chain: Chain, log: TransferLog, blockTime: Date): repo.NewTransfer {
  return {
    chainId: chain.chainId,
    tokenAddress: chain.token.address,
    txHash: log.txHash,
    logIndex: log.logIndex,
    blockNumber: log.blockNumber,
    blockHash: log.blockHash,
    blockTime,
    fromAddress: log.from,
    toAddress: log.to,
    value: log.value,
    merchantId: null,
  };
}

const maxOf = (a: bigint, b: bigint | null) => (b !== null && b > a ? b : a);

/** Assigns an inbox transfer of the merchant to one of its payments (scoped by owner in both queries). */
export async function assignTransfer(
  deps: PaymentsDeps,
  ownerId: MerchantScope,
  transferId: string,
  paymentId: string,
) {
  const chain = requireChain(deps.chain);
  const transfer = await repo.findTransferOfOwner(deps.db, ownerId, transferId);
  if (!transfer) throw new AppError("NOT_FOUND", "No such transfer in your inbox.");
  const payment = await repo.findPaymentOfOwner(deps.db, ownerId, paymentId);
  if (!payment) throw new AppError("NOT_FOUND", "No such payment.");
  if (transfer.orphanedAt)
    throw new AppError("CONFLICT", "This transfer was removed from the chain by a reorganisation.");
  if (payment.status === "cancelled")
    throw new AppError("CONFLICT", "This payment was cancelled: a transfer cannot be credited to it.");
  if (transfer.toAddress !== payment.receivingAddress) {
    throw new AppError("UNPROCESSABLE", "This transfer went to another address than the payment's.");
  }
  const tip = await repo.findIndexedTip(deps.db, chain.chainId, chain.token.address);
  await deps.db.transaction(async (tx) => {
    if (!(await repo.claimTransfer(tx, transfer.id, payment.id, "merchant", payment.merchantId))) {
      throw new AppError("CONFLICT", "This transfer is already credited to a payment.");
    }
    await evaluatePayment(tx, payment.id, {
      // Read once the payment is locked: the indexer may have confirmed the transfer meanwhile, and nothing would
      // evaluate the payment again for a block it has passed (decision 024).
      head: async () =>
        maxOf(transfer.blockNumber, await repo.findIndexedHead(tx, chain.chainId, chain.token.address)),
      confirmations: chain.confirmations,
      completionPrice: completionPriceOf(chain),
      now: deps.now(),
      chainTime: tip?.blockTime ?? null,
      cause: `transfer ${transfer.txHash} (log ${transfer.logIndex}) assigned by the merchant`,
      transferId: transfer.id,
      blockNumber: transfer.blockNumber,
    });
  });
  deps.notify();
  return (await repo.findPaymentOfOwner(deps.db, ownerId, paymentId))!;
}

/**
 * "Not a payment": takes an unmatched transfer out of the inbox (kept with the chain's transfers), audited in the
 * same transaction. 404 when the business has no such transfer waiting in its inbox.
 */
export async function dismissTransfer(
  deps: PaymentsDeps,
  scope: MerchantScope,
  transferId: string,
  actor: AuditContext,
) {
  await deps.db.transaction(async (tx) => {
    const transfer = await repo.dismissTransfer(tx, scope, transferId, deps.now());
    if (!transfer) throw new AppError("NOT_FOUND", "This transfer is not in your inbox (any more).");
    await recordAudit(tx, actor, {
      action: "transfer.dismissed",
      businessId: transfer.merchantId,
      target: transfer.id,
      metadata: {
        txHash: transfer.txHash,
        from: transfer.fromAddress,
        amount: formatTokens(transfer.value, requireChain(deps.chain).token.decimals),
      },
    });
  });
}

/** Payments the expiry job evaluates in one transaction (a fixed number of statements however many, decision 024). */
const EXPIRY_BATCH = 1000;
/** Batches one run of the job goes through at most; what is left waits for the next run (a second later). */
const EXPIRY_BATCHES_PER_RUN = 20;

/**
 * Expires open payments once the chain's time (the indexer's, `TransferIndexer.chainTime`) is past their expiry,
 * and releases the amounts of those past their monitoring window. Without a chain time nothing expires: a payment
 * paid in a block the indexer has not reached yet must not be called expired.
 *
 * Each batch is one `evaluatePayments` in one transaction, as the indexer's ranges are: the payments locked, then
 * re-evaluated from their credits, so one paid since it was found due is kept paid, never expired. Returns how
 * many payments were found past their expiry.
 */
export async function expireDue(deps: PaymentsDeps, chain: Chain, chainTime: Date | null): Promise<number> {
  const expiryCause = chainTime ? `expiry time reached (chain time ${chainTime.toISOString()})` : null;
  let found = 0;
  for (let batch = 0; batch < EXPIRY_BATCHES_PER_RUN; batch++) {
    const now = deps.now();
    const due = chainTime
      ? await deps.db
          .select({ id: payments.id })
          .from(payments)
          .where(
            and(
              inArray(payments.status, ["pending", "partial"] satisfies PaymentStatus[]),
              lt(payments.expiresAt, chainTime),
            ),
          )
          .limit(EXPIRY_BATCH)
      : [];
    const releasable = await deps.db
      .select({ id: payments.id })
      .from(payments)
      // Written as the condition of `payments_live_closed_monitor_idx` (literals, not parameters), so the planner
      // reads those few rows, not every expired payment.
      .where(
        and(
          sql`${payments.live} and ${payments.status} in ('expired', 'cancelled')`,
          lte(payments.monitorUntil, now),
        ),
      )
      .limit(EXPIRY_BATCH);
    if (due.length === 0 && releasable.length === 0) break;
    const evaluations: Evaluation[] = [
      ...due.map(({ id }) => ({ paymentId: id, cause: expiryCause! })),
      ...releasable.map(({ id }) => ({ paymentId: id, cause: "monitoring window over" })),
    ];
    await deps.db.transaction((tx) =>
      evaluatePayments(tx, evaluations, {
        ...batchContext(deps, chain, chainTime),
        now,
        // Read once the payments are locked: the indexer may have credited and confirmed one of them meanwhile.
        head: async () => (await repo.findIndexedHead(tx, chain.chainId, chain.token.address)) ?? 0n,
      }),
    );
    deps.notify();
    found += due.length;
    if (due.length < EXPIRY_BATCH && releasable.length < EXPIRY_BATCH) break;
  }
  return found;
}

/** What a batch of evaluations shares, as the indexer and the expiry job see it. */
function batchContext(deps: PaymentsDeps, chain: Chain, chainTime: Date | null): Omit<BatchContext, "head"> {
  return {
    confirmations: chain.confirmations,
    completionPrice: completionPriceOf(chain),
    now: deps.now(),
    chainTime,
  };
}

/** The indexer's view of payments: what to watch, and how logs and reorgs change payments. */
export function createPaymentsSink(deps: PaymentsDeps, chain: Chain) {
  const key = { chainId: chain.chainId, tokenAddress: chain.token.address };
  /** Merchants with a new unmatched transfer since the last commit (told after it; extra news is harmless). */
  const inboxes = new Set<string>();
  /** Those transfers by id (a range retried after a rollback stores them again: each is told once). */
  const unmatched = new Map<string, UnmatchedTransfer>();
  const batch = (head: bigint, chainTime: Date | null) => ({
    ...batchContext(deps, chain, chainTime),
    head,
    releasedToInbox: (ids: string[]) => {
      for (const id of ids) inboxes.add(id);
    },
  });
  return {
    watchedAddresses: (db: DbOrTx) => repo.findWatchedAddresses(db),
    /**
     * A range's logs in bulk (decision 022): the same statements for 1 log or 10,000 — the logs stored in one,
     * matched by amount in one, claimed in one, and every payment they or the new head touch evaluated together
     * (`evaluatePayments`), all in the indexer's transaction.
     */
    async applyRange(db: DbOrTx, range: IndexedRange) {
      const touched = new Map<string, Evaluation>();
      if (range.from <= range.to) {
        for (const id of await orphanMissingInRange(
          db,
          key,
          range.from,
          range.to,
          range.present,
          deps.now(),
        )) {
          touched.set(id, {
            paymentId: id,
            cause: `transfer removed from block range ${range.from}-${range.to}`,
            blockNumber: range.to,
          });
        }
      }
      // One row per log (a range's logs are distinct; a repeated one would be stored once anyway).
      const logs = [...new Map(range.logs.map((log) => [`${log.txHash}:${log.logIndex}`, log])).values()];
      if (logs.length > 0) {
        const merchantsByAddress = new Map(
          (await db.select({ id: merchants.id, a: merchants.walletAddress }).from(merchants)).map((m) => [
            m.a,
            m.id,
          ]),
        );
        const stored = await repo.upsertTransfers(
          db,
          logs.map((log) => ({
            ...toNewTransfer(chain, log, log.blockTime),
            merchantId: merchantsByAddress.get(log.to) ?? null,
          })),
        );
        const causeOf = (log: TransferLog) =>
          `transfer ${log.txHash} (log ${log.logIndex}) in block ${log.blockNumber}`;
        const unclaimed: number[] = [];
        stored.forEach(({ row, inserted }, i) => {
          const log = logs[i]!;
          if (!row.paymentId) {
            unclaimed.push(i);
            return;
          }
          touched.set(row.paymentId, {
            paymentId: row.paymentId,
            cause: inserted ? causeOf(log) : `${causeOf(log)}, seen again`,
            transferId: row.id,
            blockNumber: log.blockNumber,
          });
        });
        const matches = await repo.findPaymentsByAmount(
          db,
          key,
          unclaimed.map((i) => ({ to: logs[i]!.to, value: logs[i]!.value, blockTime: logs[i]!.blockTime })),
        );
        const claims = unclaimed.flatMap((i, n) => {
          const payment = matches[n];
          return payment
            ? [{ transferId: stored[i]!.row.id, paymentId: payment.id, merchantId: payment.merchantId }]
            : [];
        });
        const claimed = await repo.claimTransfers(db, claims, "amount");
        const paymentOf = new Map(claims.map((c) => [c.transferId, c.paymentId]));
        // In chain order, so a payment paid twice in the batch names its last transfer (as one at a time would).
        for (const i of unclaimed) {
          const { row, inserted } = stored[i]!;
          const log = logs[i]!;
          const paymentId = paymentOf.get(row.id);
          if (paymentId && claimed.has(row.id)) {
            touched.set(paymentId, {
              paymentId,
              cause: causeOf(log),
              transferId: row.id,
              blockNumber: log.blockNumber,
            });
          } else if (inserted && row.merchantId) {
            inboxes.add(row.merchantId);
            unmatched.set(row.id, {
              id: row.id,
              merchantId: row.merchantId,
              to: log.to,
              amount: formatTokens(log.value, chain.token.decimals),
            });
          }
        }
      }
      const since = range.from - BigInt(chain.confirmations) - 1n;
      const evaluations = [...touched.values()];
      for (const paymentId of await findPaymentsAwaitingConfirmations(db, key, since)) {
        if (touched.has(paymentId)) continue;
        evaluations.push({ paymentId, cause: `block ${range.head}: confirmations`, blockNumber: range.head });
      }
      await evaluatePayments(db, evaluations, batch(range.head, range.chainTime));
    },
    async applyReorg(db: DbOrTx, reorg: { ancestor: bigint; head: bigint; chainTime: Date | null }) {
      const cause = `chain reorganisation: blocks above ${reorg.ancestor} replaced`;
      const affected = await orphanTransfersAbove(db, key, reorg.ancestor, deps.now());
      await evaluatePayments(
        db,
        affected.map((paymentId) => ({ paymentId, cause, blockNumber: reorg.ancestor })),
        batch(reorg.head, reorg.chainTime),
      );
    },
    afterCommit() {
      deps.notify();
      if (inboxes.size === 0) return;
      deps.inboxChanged?.([...inboxes], [...unmatched.values()]);
      inboxes.clear();
      unmatched.clear();
    },
  };
}
