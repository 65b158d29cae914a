import type { PaymentStatus } from "@common/payments.ts";
import { type AnyColumn, and, eq, gt, isNotNull, isNull, or, type SQL, sql } from "drizzle-orm";
import { type DbOrTx, rowsOf } from "../../db/client.ts";
import { chainTransfers, paymentAmounts, payments } from "../../db/schema.ts";
import { createId } from "../../lib/ids.ts";
import { MAX_TAG, tagUnit, toleranceOf } from "./amounts.ts";
import type * as repo from "./repository.ts";
import { coverTime, isLive, nextStatus, OPEN_STATUSES, type Sums } from "./state.ts";

export type EvaluationContext = {
  /**
   * The chain head the confirmations are counted against, or how to read it once the payments are locked (the
   * expiry job: a head read before could predate what the indexer committed for them meanwhile, and a head older
   * than a payment's credits would undo its confirmations).
   */
  head: bigint | (() => Promise<bigint>);
  confirmations: number;
  now: Date;
  /**
   * The chain's time: the newest block the indexer processed (PAYMENTS.md, States). An uncovered payment expires
   * only once it is past `expiresAt`; null (unknown) never expires anything.
   */
  chainTime: Date | null;
  /** Why this evaluation happens, for the timeline ("transfer 0xabc:1 in block 12", "reorg at block 40"...). */
  cause: string;
  transferId?: string | null;
  blockNumber?: bigint | null;
  /** The USD rate now, read when a payment asked in CPXTB (no locked price) becomes paid; null if unavailable. */
  completionPrice?: () => Promise<{ priceE18: bigint; at: Date } | null>;
  /**
   * Credits of cancelled payments were handed back to these merchants' inboxes in the caller's transaction (a
   * transfer matched before the cancellation committed, evaluated after it: decision 033); told to the caller, who
   * tells the inboxes once it commits.
   */
  releasedToInbox?: (merchantIds: string[]) => void;
};

/** One payment to re-evaluate and why (its timeline cause: the transfer that touched it, a reorg...). */
export type Evaluation = {
  paymentId: string;
  cause: string;
  transferId?: string | null;
  blockNumber?: bigint | null;
};

/** What a batch of evaluations shares: the head, the chain's time, the clock. */
export type BatchContext = Omit<EvaluationContext, "cause" | "transferId" | "blockNumber">;

/**
 * Rows as one statement parameter (a JSON array) that `json_to_recordset` turns into a table: the same statement
 * for 1 row or 10,000 (no limit on bind parameters, one plan), on PostgreSQL and PGlite alike. Bigints travel as
 * decimal strings, dates as ISO strings; the record's column types convert them.
 */
export function jsonRecords(rows: readonly object[]): SQL {
  return sql`${JSON.stringify(rows, (_key, value) => (typeof value === "bigint" ? value.toString() : value))}::json`;
}

/** `column` is one of `values` (one parameter, whatever their number). */
export function inList(column: AnyColumn | SQL, values: readonly string[]): SQL {
  return sql`${column} in (select json_array_elements_text(${JSON.stringify(values)}::json))`;
}

/** Sums of the credits: all of them, and those with enough confirmations. */
function creditSums(
  credits: { value: bigint; blockNumber: bigint }[],
  head: bigint,
  confirmations: number,
): Sums {
  const confirmedBelow = head - BigInt(confirmations) + 1n;
  let seen = 0n;
  let confirmed = 0n;
  for (const c of credits) {
    seen += c.value;
    if (c.blockNumber <= confirmedBelow) confirmed += c.value;
  }
  return { seen, confirmed };
}

/**
 * Recomputes a payment from its credits and writes the result; a status change goes to the timeline with its
 * cause and to the outbox, in the caller's transaction. Idempotent: nothing changes, nothing is written.
 */
export async function evaluatePayment(
  db: DbOrTx,
  paymentId: string,
  ctx: EvaluationContext,
): Promise<PaymentStatus | null> {
  const { cause, transferId, blockNumber, ...shared } = ctx;
  const statuses = await evaluatePayments(db, [{ paymentId, cause, transferId, blockNumber }], shared);
  return statuses.get(paymentId) ?? null;
}

/** A payment's evaluation before it is written. */
type Outcome = {
  payment: repo.PaymentRow;
  why: Evaluation;
  next: PaymentStatus;
  live: boolean;
  sums: Sums;
  coveredAt: Date | null;
  requested: bigint;
  /** Set while its remaining amount is still to be reserved. */
  remainder: { first: bigint; last: bigint } | null;
};

/**
 * `evaluatePayment` for many payments at once (the indexer's batches), with a number of statements that does not
 * depend on how many: the payments locked in one statement (in id order, so two batches never wait on each other
 * in a cycle), their credits read in one, the new states computed as one payment at a time would, then the
 * reservations, the payments, the timeline and the outbox written with one statement each. A payment listed twice
 * is evaluated once, with the last cause given. Returns each payment's status afterwards.
 */
export async function evaluatePayments(
  db: DbOrTx,
  evaluations: readonly Evaluation[],
  ctx: BatchContext,
): Promise<Map<string, PaymentStatus>> {
  const statuses = new Map<string, PaymentStatus>();
  if (evaluations.length === 0) return statuses;
  const why = new Map(evaluations.map((e) => [e.paymentId, e]));
  const ids = [...why.keys()].sort();
  const locked = await db
    .select()
    .from(payments)
    .where(inList(payments.id, ids))
    .orderBy(payments.id)
    .for("update");
  if (locked.length === 0) return statuses;
  const head = typeof ctx.head === "bigint" ? ctx.head : await ctx.head();
  const credits = new Map<
    string,
    { value: bigint; blockNumber: bigint; logIndex: number; blockTime: Date | null }[]
  >();
  for (const c of await db
    .select({
      paymentId: chainTransfers.paymentId,
      value: chainTransfers.value,
      blockNumber: chainTransfers.blockNumber,
      logIndex: chainTransfers.logIndex,
      blockTime: chainTransfers.blockTime,
    })
    .from(chainTransfers)
    .where(and(inList(chainTransfers.paymentId, ids), isNull(chainTransfers.orphanedAt)))) {
    const list = credits.get(c.paymentId!) ?? [];
    list.push(c);
    credits.set(c.paymentId!, list);
  }

  // A cancelled payment holds no credit (decision 033): a transfer claimed for it by a match made before the
  // cancellation committed (the payment lock, taken above, decided it) goes back to the merchant's inbox.
  const cancelledWithCredits = locked.filter((p) => p.status === "cancelled" && credits.has(p.id));
  if (cancelledWithCredits.length > 0) {
    const released = await db
      .update(chainTransfers)
      .set({ paymentId: null, creditedBy: null })
      .where(
        inList(
          chainTransfers.paymentId,
          cancelledWithCredits.map((p) => p.id),
        ),
      )
      .returning({ merchantId: chainTransfers.merchantId });
    for (const p of cancelledWithCredits) credits.delete(p.id);
    const merchantIds = [
      ...new Set(released.map((r) => r.merchantId).filter((m): m is string => m !== null)),
    ];
    if (merchantIds.length > 0) ctx.releasedToInbox?.(merchantIds);
  }

  // The states, and what each payment's reservation needs (reserveRequested of one payment, PAYMENTS.md Matching 2).
  const outcomes: Outcome[] = [];
  const releaseAll: string[] = [];
  const dropRemainder: string[] = [];
  for (const payment of locked) {
    const own = credits.get(payment.id) ?? [];
    const sums = creditSums(own, head, ctx.confirmations);
    const tolerance = toleranceOf(payment.amountDue, payment.toleranceBps);
    const coveredAt = coverTime(own, payment.amountDue - tolerance);
    const next = nextStatus({
      current: payment.status,
      sums,
      due: payment.amountDue,
      tolerance,
      expiresAt: payment.expiresAt,
      coveredAt,
      chainTime: ctx.chainTime,
    });
    const live = payment.live && isLive(next, ctx.now, payment.monitorUntil);
    if (payment.live && !live) releaseAll.push(payment.id);
    const left = payment.amountDue - sums.confirmed;
    const owesRest = live && (next === "partial" || next === "expired") && sums.confirmed > 0n && left > 0n;
    const outcome: Outcome = {
      payment,
      why: why.get(payment.id)!,
      next,
      live,
      sums,
      coveredAt,
      requested: next === "completed" || next === "paid_late" || next === "invalid" || left < 0n ? 0n : left,
      remainder: null,
    };
    if (owesRest) {
      const unit = tagUnit(payment.tokenDecimals);
      const first = ((left + unit - 1n) / unit) * unit;
      outcome.remainder = { first, last: first + BigInt(REMAINDER_TRIES - 1) * unit };
    } else if (payment.live && live && payment.amountRequested !== payment.amountDue) {
      dropRemainder.push(payment.id);
    }
    outcomes.push(outcome);
  }
  const owing = outcomes.filter((o) => o.remainder !== null);
  if (owing.length > 0) {
    // The remainder a payment holds is kept while its rest stays the same; another one is released.
    const held = new Map(
      (
        await db
          .select({ paymentId: paymentAmounts.paymentId, amount: paymentAmounts.amount })
          .from(paymentAmounts)
          .where(
            and(
              inList(
                paymentAmounts.paymentId,
                owing.map((o) => o.payment.id),
              ),
              eq(paymentAmounts.kind, "remainder"),
            ),
          )
      ).map((r) => [r.paymentId, r.amount]),
    );
    for (const o of owing) {
      const amount = held.get(o.payment.id);
      if (amount !== undefined && amount >= o.remainder!.first && amount <= o.remainder!.last) {
        o.requested = amount;
        o.remainder = null;
      } else if (amount !== undefined) {
        dropRemainder.push(o.payment.id);
      }
    }
  }
  if (releaseAll.length > 0 || dropRemainder.length > 0) {
    await db
      .delete(paymentAmounts)
      .where(
        or(
          inList(paymentAmounts.paymentId, releaseAll),
          and(eq(paymentAmounts.kind, "remainder"), inList(paymentAmounts.paymentId, dropRemainder)),
        ),
      );
  }
  const toReserve = owing.filter((o) => o.remainder !== null);
  if (toReserve.length > 0) {
    const reserved = await reserveRemainders(db, toReserve, ctx.now);
    for (const o of toReserve) {
      // Lost to another payment of this batch (same address, same rest) or taken meanwhile: one at a time.
      o.requested =
        reserved.get(o.payment.id) ?? (await reserveRemainder(db, o.payment, o.remainder!.first, ctx.now));
    }
  }

  // The rate now, read once for the batch, when a payment asked in CPXTB first receives tokens (decision 011).
  let price: Promise<{ priceE18: bigint; at: Date } | null> | undefined;
  const priceNow = (read: NonNullable<BatchContext["completionPrice"]>) => {
    price ??= read();
    return price;
  };
  const updates: object[] = [];
  const timeline: object[] = [];
  const events: object[] = [];
  for (const o of outcomes) {
    const { payment, next, live, sums, requested, coveredAt } = o;
    const current = payment.status;
    statuses.set(payment.id, next);
    const overpaid = sums.confirmed > payment.amountDue;
    const paid = next === "completed" || next === "paid_late";
    const changed =
      next !== current ||
      live !== payment.live ||
      requested !== payment.amountRequested ||
      sums.confirmed !== payment.amountReceived ||
      sums.seen !== payment.amountSeen ||
      overpaid !== payment.overpaid;
    if (!changed) continue;
    // Kept through `invalid`, so a payment whose log comes back is restored to what it was.
    const completedAt = paid && !payment.completedAt ? ctx.now : payment.completedAt;
    // A payment asked in CPXTB is valued at the rate when its tokens first arrive (a partial payment, or one
    // that expires after a partial payment, is worth what it received, not $0), kept from then on; a stale or
    // unreadable price is tried again at the next change.
    const completedPrice =
      sums.confirmed > 0n &&
      payment.priceE18 === null &&
      payment.completedPriceE18 === null &&
      ctx.completionPrice
        ? await priceNow(ctx.completionPrice)
        : null;
    updates.push({
      id: payment.id,
      status: next,
      live,
      amount_requested: requested,
      amount_received: sums.confirmed,
      amount_seen: sums.seen,
      overpaid,
      completed_at: completedAt,
      set_price: completedPrice !== null,
      completed_price_e18: completedPrice?.priceE18 ?? null,
      completed_price_at: completedPrice?.at ?? null,
      updated_at: ctx.now,
    });
    // Paid after its expiry, before the expiry job saw it: the timeline still shows it expired first, on chain.
    const steps: { from: PaymentStatus; to: PaymentStatus; cause: string }[] =
      next === "paid_late" && OPEN_STATUSES.includes(current)
        ? [
            {
              from: current,
              to: "expired",
              cause: `expired at ${payment.expiresAt.toISOString()}: covered by a block of ${coveredAt?.toISOString()}`,
            },
            { from: "expired", to: next, cause: o.why.cause },
          ]
        : next !== current
          ? [{ from: current, to: next, cause: o.why.cause }]
          : [];
    for (const step of steps) {
      timeline.push({
        payment_id: payment.id,
        from_status: step.from,
        to_status: step.to,
        cause: step.cause,
        transfer_id: o.why.transferId ?? null,
        block_number: o.why.blockNumber ?? null,
        created_at: ctx.now,
      });
      events.push({
        id: createId("evt"),
        payment_id: payment.id,
        merchant_id: payment.merchantId,
        type: `payment.${step.to}`,
      });
    }
    if (
      steps.length === 0 &&
      (sums.seen !== payment.amountSeen ||
        sums.confirmed !== payment.amountReceived ||
        requested !== payment.amountRequested)
    ) {
      events.push({
        id: createId("evt"),
        payment_id: payment.id,
        merchant_id: payment.merchantId,
        type: "payment.updated",
      });
    }
  }
  if (updates.length > 0) {
    await db.execute(sql`
      update payments as p set
        status = r.status, live = r.live, amount_requested = r.amount_requested,
        amount_received = r.amount_received, amount_seen = r.amount_seen, overpaid = r.overpaid,
        completed_at = r.completed_at,
        completed_price_e18 = case when r.set_price then r.completed_price_e18 else p.completed_price_e18 end,
        completed_price_at = case when r.set_price then r.completed_price_at else p.completed_price_at end,
        updated_at = r.updated_at
      from json_to_recordset(${jsonRecords(updates)}) as r(id text, status text, live boolean,
        amount_requested numeric, amount_received numeric, amount_seen numeric, overpaid boolean,
        completed_at timestamptz, set_price boolean, completed_price_e18 numeric, completed_price_at timestamptz,
        updated_at timestamptz)
      where p.id = r.id`);
  }
  if (timeline.length > 0) {
    // A payment's timeline reads in id order: ids made in one millisecond are sorted before they are handed out,
    // so an entry written after another (expired, then paid_late) sorts after it.
    const ids = timeline.map(() => createId("ptl")).sort();
    const rows = timeline.map((entry, i) => ({ ...entry, id: ids[i] }));
    await db.execute(sql`
      insert into payment_timeline (id, payment_id, from_status, to_status, cause, transfer_id, block_number, created_at)
      select r.id, r.payment_id, r.from_status, r.to_status, r.cause, r.transfer_id, r.block_number, r.created_at
      from json_to_recordset(${jsonRecords(rows)}) as r(id text, payment_id text, from_status text,
        to_status text, cause text, transfer_id text, block_number bigint, created_at timestamptz)`);
  }
  if (events.length > 0) {
    // In array order (a function scan keeps it): a payment's events keep their order in the outbox (seq).
    await db.execute(sql`
      insert into payment_events (id, payment_id, merchant_id, type)
      select r.id, r.payment_id, r.merchant_id, r.type
      from json_to_recordset(${jsonRecords(events)}) as r(id text, payment_id text, merchant_id text, type text)`);
  }
  return statuses;
}

/** Tries of a free remaining amount: the exact rest, then one micro-token more each time. */
const REMAINDER_TRIES = MAX_TAG;

/**
 * Reserves the remaining amount of each payment (PAYMENTS.md, Matching 2) in one statement: the first amount from
 * its exact rest, one micro-token more each try, that no live payment holds (one index probe per try). Two
 * payments of the batch that pick the same amount: `on conflict` skips the second, absent from the answer.
 */
async function reserveRemainders(
  db: DbOrTx,
  owing: readonly Outcome[],
  now: Date,
): Promise<Map<string, bigint>> {
  const rows = owing.map((o) => ({
    payment_id: o.payment.id,
    chain_id: o.payment.chainId,
    token_address: o.payment.tokenAddress,
    receiving_address: o.payment.receivingAddress,
    first: o.remainder!.first,
    unit: tagUnit(o.payment.tokenDecimals),
  }));
  const result = await db.execute(sql`
    insert into payment_amounts (chain_id, token_address, receiving_address, amount, payment_id, kind, created_at)
    select r.chain_id, r.token_address, r.receiving_address, c.amount, r.payment_id, 'remainder',
      ${now.toISOString()}::timestamptz
    from json_to_recordset(${jsonRecords(rows)}) as r(payment_id text, chain_id int, token_address text,
      receiving_address text, first numeric, unit numeric)
    cross join lateral (
      select r.first + s.k * r.unit as amount
      from generate_series(0, ${REMAINDER_TRIES - 1}) as s(k)
      where not exists (
        select 1 from payment_amounts a
        where a.chain_id = r.chain_id and a.token_address = r.token_address
          and a.receiving_address = r.receiving_address and a.amount = r.first + s.k * r.unit)
      limit 1
    ) as c
    on conflict do nothing
    returning payment_id, amount`);
  return new Map(
    rowsOf<{ payment_id: string; amount: string }>(result).map((r) => [r.payment_id, BigInt(r.amount)]),
  );
}

/** One payment's remaining amount, when the batch's statement could not reserve it (see reserveRemainders). */
async function reserveRemainder(
  db: DbOrTx,
  payment: repo.PaymentRow,
  first: bigint,
  now: Date,
): Promise<bigint> {
  const unit = tagUnit(payment.tokenDecimals);
  const key = sql`${payment.chainId}::int, ${payment.tokenAddress}::text, ${payment.receivingAddress}::text`;
  for (let attempt = 0; attempt < 3; attempt++) {
    // The first amount no live payment holds (one index probe per try), inserted by the same statement; a
    // concurrent insert of that amount makes `on conflict` skip it, and the next attempt sees it taken.
    const result = await db.execute(sql`
      insert into payment_amounts (chain_id, token_address, receiving_address, amount, payment_id, kind, created_at)
      select ${key}, c.amount, ${payment.id}::text, 'remainder', ${now.toISOString()}::timestamptz
      from (
        select ${first.toString()}::numeric + k * ${unit.toString()}::numeric as amount
        from generate_series(0, ${REMAINDER_TRIES - 1}) as s(k)
      ) as c
      where not (select exists (
        select 1 from payment_amounts a
        where a.chain_id = ${payment.chainId} and a.token_address = ${payment.tokenAddress}
          and a.receiving_address = ${payment.receivingAddress} and a.amount = c.amount))
      limit 1
      on conflict do nothing
      returning amount`);
    const [row] = rowsOf<{ amount: string }>(result);
    if (row) return BigInt(row.amount);
  }
  // Every nearby amount is live elsewhere: the rest is asked for without a reservation (the fast path credits it).
  return first;
}

/** Payments whose credits may have changed confirmation state since `fromBlock` (or are awaiting them). */
export async function findPaymentsAwaitingConfirmations(
  db: DbOrTx,
  key: { chainId: number; tokenAddress: string },
  fromBlock: bigint,
): Promise<string[]> {
  const recent = await db
    .select({ id: chainTransfers.paymentId })
    .from(chainTransfers)
    .where(
      and(
        eq(chainTransfers.chainId, key.chainId),
        eq(chainTransfers.tokenAddress, key.tokenAddress),
        isNotNull(chainTransfers.paymentId),
        isNull(chainTransfers.orphanedAt),
        gt(chainTransfers.blockNumber, fromBlock),
      ),
    );
  const processing = await db
    .select({ id: payments.id })
    .from(payments)
    .where(eq(payments.status, "processing"));
  return [...new Set([...recent.map((r) => r.id!), ...processing.map((r) => r.id)])];
}

/** Orphans the transfers above `block` (a reorg took them) and returns the payments they credited. */
export async function orphanTransfersAbove(
  db: DbOrTx,
  key: { chainId: number; tokenAddress: string },
  block: bigint,
  now: Date,
): Promise<string[]> {
  const rows = await db
    .update(chainTransfers)
    .set({ orphanedAt: now })
    .where(
      and(
        eq(chainTransfers.chainId, key.chainId),
        eq(chainTransfers.tokenAddress, key.tokenAddress),
        gt(chainTransfers.blockNumber, block),
        isNull(chainTransfers.orphanedAt),
      ),
    )
    .returning({ paymentId: chainTransfers.paymentId });
  return [...new Set(rows.map((r) => r.paymentId).filter((id): id is string => id !== null))];
}

/** Orphans stored transfers of blocks [from, to] that the chain no longer has (`present` = "tx:logIndex" keys). */
export async function orphanMissingInRange(
  db: DbOrTx,
  key: { chainId: number; tokenAddress: string },
  from: bigint,
  to: bigint,
  present: Set<string>,
  now: Date,
): Promise<string[]> {
  const stored = await db
    .select({
      id: chainTransfers.id,
      txHash: chainTransfers.txHash,
      logIndex: chainTransfers.logIndex,
      paymentId: chainTransfers.paymentId,
    })
    .from(chainTransfers)
    .where(
      and(
        eq(chainTransfers.chainId, key.chainId),
        eq(chainTransfers.tokenAddress, key.tokenAddress),
        sql`${chainTransfers.blockNumber} between ${from.toString()} and ${to.toString()}`,
        isNull(chainTransfers.orphanedAt),
      ),
    );
  const missing = stored.filter((r) => !present.has(`${r.txHash}:${r.logIndex}`));
  if (missing.length === 0) return [];
  await db
    .update(chainTransfers)
    .set({ orphanedAt: now })
    .where(
      inList(
        chainTransfers.id,
        missing.map((r) => r.id),
      ),
    );
  return missing.map((r) => r.paymentId).filter((id): id is string => id !== null);
}
