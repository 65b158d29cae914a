import { createHash } from "node:crypto";
import {
  type PublicRefundLink,
  REFUND_LINK_DAYS,
  REFUNDABLE_PAYMENT_STATUSES,
  type RecordRefundRequest,
} from "@common/refunds.ts";
import { MANAGER_ROLES } from "@common/team.ts";
import { eq } from "drizzle-orm";
import { decodeEventLog, getAddress, type Hash, isAddress } from "viem";
import { transferEvent } from "../../chain/indexer.ts";
import { toChainError } from "../../chain/rpc-errors.ts";
import type { Chain } from "../../chain/service.ts";
import type { DbOrTx } from "../../db/client.ts";
import { merchants } from "../../db/schema.ts";
import { AppError } from "../../errors.ts";
import { createId, createToken } from "../../lib/ids.ts";
import { type AuditContext, recordAudit } from "../audit/record.ts";
import { formatTokens } from "./amounts.ts";
import * as refundRepo from "./refund-repository.ts";
import * as repo from "./repository.ts";
import { getPaymentOfOwner, type PaymentsDeps, readReceipt, requireChain } from "./service.ts";
import { refundableOf, refundLinkState, toRefundLinkResponse } from "./views.ts";

const REFUND_LINK_MS = REFUND_LINK_DAYS * 24 * 60 * 60 * 1000;

/**
 * Who asks for a money-moving action on a payment (today always the business's owner; decision 018), with where
 * from, for the audit log.
 */
export type RefundActor = AuditContext & { userId: string };

function assertRefundable(p: repo.PaymentRow) {
  if (!(REFUNDABLE_PAYMENT_STATUSES as readonly string[]).includes(p.status) || p.amountReceived <= 0n) {
    throw new AppError(
      "CONFLICT",
      "Only a payment that received tokens (completed, paid late, partly paid or expired after a partial payment) can be refunded.",
    );
  }
}

/**
 * Where money-moving actions on a payment are authorised, inside the transaction that performs them. Today the
 * owner check is the locking query itself; the team roles (a staff member may not refund) belong here, and the
 * audit-log row is written in the same transaction, so the check, the log and the change commit or roll back
 * together.
 */
const refundScope = (actor: RefundActor) => ({ userId: actor.userId, roles: MANAGER_ROLES });

async function authorizeRefund(
  tx: DbOrTx,
  actor: RefundActor,
  paymentId: string,
  _action: "refund.record" | "refund.link",
): Promise<repo.PaymentRow> {
  // Staff may not refund (decision 021): the role is part of the locking query.
  const payment = await refundRepo.lockPaymentOfOwner(tx, refundScope(actor), paymentId);
  if (!payment) throw new AppError("NOT_FOUND", "No such payment.");
  return payment;
}

type VerifiedRefund = {
  txHash: string;
  logIndex: number;
  blockNumber: bigint;
  blockTime: Date | null;
  from: string;
  to: string;
  value: bigint;
};

/**
 * Verifies a refund transaction the way a payment is verified (decision 007, fast path): a successful receipt
 * holding a Transfer log emitted by the token contract, from one of the merchant's addresses, to the refund
 * address, of exactly the amount, with the engine's confirmations. Each failure says which part did not match.
 */
async function verifyRefundTransfer(
  chain: Chain,
  txHash: Hash,
  expect: { from: Set<string>; to: string; amount: bigint },
): Promise<VerifiedRefund> {
  const { receipt, head } = await readReceipt(
    chain,
    txHash,
    "This transaction is not in a block (unknown hash, or not mined yet). Nothing was recorded.",
  );
  if (receipt.status !== "success")
    throw new AppError("UNPROCESSABLE", "This transaction failed on chain (reverted). Nothing was recorded.");
  const token = getAddress(chain.token.address);
  const transfers: { logIndex: number; from: string; to: string; value: bigint }[] = [];
  for (const log of receipt.logs) {
    if (getAddress(log.address) !== token) continue;
    try {
      const decoded = decodeEventLog({ abi: [transferEvent], data: log.data, topics: log.topics });
      transfers.push({
        logIndex: log.logIndex,
        from: getAddress(decoded.args.from),
        to: getAddress(decoded.args.to),
        value: decoded.args.value,
      });
    } catch {
      // Another event of the token (Approval...).
    }
  }
  if (transfers.length === 0)
    throw new AppError(
      "UNPROCESSABLE",
      `This transaction holds no ${chain.token.symbol} transfer (another token?). Nothing was recorded.`,
      { reason: "no_token_transfer", token: chain.token.symbol },
    );
  const fromMerchant = transfers.filter((t) => expect.from.has(t.from));
  if (fromMerchant.length === 0)
    throw new AppError(
      "UNPROCESSABLE",
      "This transfer was not sent from your receiving wallet. Send the refund from the wallet that received the payment.",
    );
  const toPayer = fromMerchant.filter((t) => t.to === expect.to);
  if (toPayer.length === 0)
    throw new AppError(
      "UNPROCESSABLE",
      `This transfer went to another address than the refund address ${expect.to}. Nothing was recorded.`,
      { reason: "other_recipient", address: expect.to },
    );
  const exact = toPayer.find((t) => t.value === expect.amount);
  if (!exact) {
    const sent = formatTokens(toPayer[0]!.value, chain.token.decimals);
    const expected = formatTokens(expect.amount, chain.token.decimals);
    throw new AppError(
      "UNPROCESSABLE",
      `This transfer's amount (${sent} ${chain.token.symbol}) is not the refund's amount (${expected}). Nothing was recorded.`,
      { reason: "amount_differs", sent, expected, token: chain.token.symbol },
    );
  }
  const confirmations = head - receipt.blockNumber + 1n;
  if (confirmations < BigInt(chain.confirmations)) {
    const seen = Number(confirmations < 0n ? 0n : confirmations);
    throw new AppError(
      "CONFLICT",
      `This transaction has ${seen} of ${chain.confirmations} confirmations. Try again in a moment.`,
      { reason: "not_confirmed", confirmations: seen, required: chain.confirmations },
    );
  }
  let blockTime: Date | null = null;
  try {
    const block = await chain.client.getBlock({ blockNumber: receipt.blockNumber });
    blockTime = new Date(Number(block.timestamp) * 1000);
  } catch (error) {
    throw toChainError(error, "the transaction's block");
  }
  return {
    txHash: receipt.transactionHash.toLowerCase(),
    logIndex: exact.logIndex,
    blockNumber: receipt.blockNumber,
    blockTime,
    from: exact.from,
    to: exact.to,
    value: exact.value,
  };
}

/**
 * Records a refund the merchant sent from its wallet (decision 018): the transfer is verified on chain first, then
 * one transaction locks the payment (owner in the query), refuses a transaction already recorded (unique key) or
 * credited to a payment, adds the amount only while received minus refunded covers it (conditional update) and
 * writes the `payment.refunded` outbox event. Nothing is written when any check fails.
 */
export async function recordRefund(
  deps: PaymentsDeps,
  actor: RefundActor,
  paymentId: string,
  input: RecordRefundRequest,
): Promise<repo.PaymentRow> {
  const chain = requireChain(deps.chain);
  const payment = await getPaymentOfOwner(deps.db, refundScope(actor), paymentId);
  assertRefundable(payment);
  const amount = BigInt(input.amountBase);
  const left = refundableOf(payment);
  if (amount > left) {
    const refundable = formatTokens(left, payment.tokenDecimals);
    throw new AppError(
      "CONFLICT",
      `A refund can be at most what was received minus what was refunded: ${refundable} ${chain.token.symbol}.`,
      { reason: "above_refundable", refundable, token: chain.token.symbol },
    );
  }
  const to = getAddress(input.toAddress.toLowerCase());
  const allowed = await refundRepo.refundAddressesOf(deps.db, payment.id);
  if (!allowed.some((a) => a.address === to))
    throw new AppError(
      "UNPROCESSABLE",
      "A refund goes to an address that paid this payment, or to one the payer gave through a refund link.",
    );
  const [merchant] = await deps.db
    .select({ wallet: merchants.walletAddress })
    .from(merchants)
    .where(eq(merchants.id, payment.merchantId));
  // The wallet that received the payment, or the business's current one (both proven by a signature).
  const from = new Set([
    getAddress(payment.receivingAddress),
    ...(merchant ? [getAddress(merchant.wallet)] : []),
  ]);
  const verified = await verifyRefundTransfer(chain, input.txHash.toLowerCase() as Hash, {
    from,
    to,
    amount,
  });
  const refundLinks = await refundRepo.listRefundLinksOfPayment(deps.db, payment.id);
  const link = refundLinks.find((l) => l.address && getAddress(l.address) === to);
  const now = deps.now();
  const updated = await deps.db.transaction(async (tx) => {
    assertRefundable(await authorizeRefund(tx, actor, payment.id, "refund.record"));
    if (await refundRepo.isTxCreditedToPayment(tx, chain.chainId, verified.txHash))
      throw new AppError("CONFLICT", "This transaction is a payment, not a refund. Nothing was recorded.");
    const inserted = await refundRepo.insertRefund(tx, {
      id: createId("rfd"),
      paymentId: payment.id,
      merchantId: payment.merchantId,
      chainId: chain.chainId,
      tokenAddress: chain.token.address,
      txHash: verified.txHash,
      logIndex: verified.logIndex,
      blockNumber: verified.blockNumber,
      blockTime: verified.blockTime,
      fromAddress: verified.from,
      toAddress: verified.to,
      amount: verified.value,
      refundRequestId: link?.id ?? null,
      createdAt: now,
    });
    if (!inserted)
      throw new AppError(
        "CONFLICT",
        "This transaction is already recorded as a refund. Nothing was recorded.",
      );
    const row = await refundRepo.addRefundedAmount(tx, payment.id, verified.value, now);
    if (!row)
      throw new AppError(
        "CONFLICT",
        "This refund is more than what was received minus what was already refunded. Nothing was recorded.",
      );
    await repo.insertEvent(tx, {
      paymentId: payment.id,
      merchantId: payment.merchantId,
      type: "payment.refunded",
    });
    await recordAudit(tx, actor, {
      action: "refund.recorded",
      businessId: payment.merchantId,
      target: payment.id,
      metadata: {
        reference: payment.reference,
        amount: formatTokens(verified.value, payment.tokenDecimals),
        to: verified.to,
        txHash: verified.txHash,
      },
    });
    return row;
  });
  deps.notify();
  return updated;
}

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

/** A refund link for the payer to give an address (shown once: only its hash is stored). */
export async function createRefundLink(deps: PaymentsDeps, actor: RefundActor, paymentId: string) {
  const token = createToken(32);
  const now = deps.now();
  const link = await deps.db.transaction(async (tx) => {
    const payment = await authorizeRefund(tx, actor, paymentId, "refund.link");
    assertRefundable(payment);
    if (refundableOf(payment) === 0n)
      throw new AppError("CONFLICT", "Everything this payment received has been refunded already.");
    await recordAudit(tx, actor, {
      action: "refund.link_created",
      businessId: payment.merchantId,
      target: payment.id,
      metadata: { reference: payment.reference },
    });
    return refundRepo.insertRefundLink(tx, {
      id: createId("rfl"),
      paymentId: payment.id,
      merchantId: payment.merchantId,
      tokenHash: hashToken(token),
      expiresAt: new Date(now.getTime() + REFUND_LINK_MS),
      createdAt: now,
    });
  });
  return {
    link: toRefundLinkResponse(link, now),
    url: `${deps.config.publicUrl}/refund/${token}`,
  };
}

async function findLink(deps: PaymentsDeps, token: string) {
  const found = await refundRepo.findRefundLinkByTokenHash(deps.db, hashToken(token));
  if (!found)
    throw new AppError("NOT_FOUND", "This refund link does not exist. Check the link with the merchant.");
  return found;
}

function expiredError() {
  return new AppError("GONE", "This refund link has expired. Ask the merchant for a new one.");
}

/** What the payer's refund page shows; an expired, unused link answers 410. */
export async function getPublicRefundLink(deps: PaymentsDeps, token: string): Promise<PublicRefundLink> {
  const { link, payment, merchant } = await findLink(deps, token);
  const state = refundLinkState(link, deps.now());
  if (state === "expired") throw expiredError();
  return {
    state,
    merchant,
    description: payment.description,
    token: { symbol: deps.chain?.token.symbol ?? "CPXTB" },
    amountReceived: formatTokens(payment.amountReceived, payment.tokenDecimals),
    amountRefunded: formatTokens(payment.amountRefunded, payment.tokenDecimals),
    expiresAt: link.expiresAt.toISOString(),
    address: link.address,
    networkChainId: payment.chainId,
  };
}

/**
 * The payer gives the address to refund to: a valid address (EIP-55 checksum when it has mixed case), not the
 * zero address, the token or the merchant's own; set once, while the link is open. The merchant's dashboard hears
 * it through a `payment.refund_address` outbox event (not a webhook type).
 */
export async function submitRefundAddress(deps: PaymentsDeps, token: string, address: string) {
  const found = await findLink(deps, token);
  const trimmed = address.trim();
  if (!isAddress(trimmed, { strict: true }))
    throw new AppError(
      "VALIDATION_ERROR",
      "address: this is not a valid address (its upper- and lower-case letters do not match its checksum). Copy it again from your wallet.",
    );
  const checksummed = getAddress(trimmed);
  const { payment } = found;
  if (BigInt(checksummed) === 0n)
    throw new AppError("VALIDATION_ERROR", "address: the zero address cannot receive a refund.");
  if (
    checksummed === getAddress(payment.receivingAddress) ||
    checksummed === getAddress(payment.tokenAddress)
  )
    throw new AppError(
      "VALIDATION_ERROR",
      "address: this is the merchant's or the token's address, not yours. Enter the address of your own wallet.",
    );
  const now = deps.now();
  const updated = await deps.db.transaction(async (tx) => {
    const row = await refundRepo.submitRefundLinkAddress(tx, found.link.tokenHash, checksummed, now);
    if (row)
      await repo.insertEvent(tx, {
        paymentId: payment.id,
        merchantId: payment.merchantId,
        type: "payment.refund_address",
      });
    return row;
  });
  if (!updated) {
    const again = await refundRepo.findRefundLinkByTokenHash(deps.db, found.link.tokenHash);
    if (again?.link.submittedAt)
      throw new AppError("CONFLICT", "An address was already given through this link. It can be used once.");
    throw expiredError();
  }
  deps.notify();
  return getPublicRefundLink(deps, token);
}
