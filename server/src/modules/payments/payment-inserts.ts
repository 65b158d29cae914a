import { randomInt } from "node:crypto";
import type { Locale } from "@common/locales.ts";
import { type SQL, sql } from "drizzle-orm";
import { type DbOrTx, rowsOf } from "../../db/client.ts";
import { createId } from "../../lib/ids.ts";
import { memberMerchantId } from "../merchants/repository.ts";
import type { PaymentRow } from "./repository.ts";

/** The payment's fields the caller decides; the merchant's columns and the tag come from the database. */
export type NewPayment = {
  id: string;
  reference: string;
  chainId: number;
  tokenAddress: string;
  tokenDecimals: number;
  amountUsdCents: bigint | null;
  priceE18: bigint | null;
  priceSource: string | null;
  priceAt: Date | null;
  baseAmount: bigint;
  description: string | null;
  orderId: string | null;
  successUrl: string | null;
  payerEmail: string | null;
  /** The payer's language, when the payer asked for the payment (a link's page). */
  payerLocale: Locale | null;
  expiresAt: Date;
  monitorUntil: Date;
  regeneratedFromId: string | null;
  /** The payment link it was made from (issue 35), or null. */
  linkId: string | null;
  createdAt: Date;
  /** The first timeline row's cause ("created", "regenerated from pay_..."). */
  cause: string;
};

/**
 * Which merchant a payment is for: the business a signed-in member acts for (dashboard; any role may create
 * payments, membership is checked by the insert itself) or its id (API keys, regeneration).
 */
export type MerchantSelector = { ownerId: string } | { id: string };

export type PaymentInsert = { merchant: MerchantSelector; values: NewPayment };

export type InsertOutcome =
  | { kind: "inserted"; payment: PaymentRow }
  | { kind: "no-merchant" }
  | { kind: "no-free-tag" }
  /** The tag it picked was taken meanwhile (a concurrent insert, or another row of the same batch): try again. */
  | { kind: "tag-taken" };

export type TagSpace = { maxTag: number; tagUnit: bigint };

/**
 * Inserts payments, each with its first timeline row and its `payment.created` event, in one statement (one round
 * trip, atomic). The statement reads each payment's merchant (receiving address and tolerance as they are now,
 * scoped by the selector) and picks its tag: the first one from a random start, going round, that no live payment
 * of that amount holds (an index probe of `payment_amounts_key` per tag tried, usually one).
 *
 * The unique index of live amounts decides (PAYMENTS.md, Unique tag; `payment_amounts` also holds the remaining
 * amounts of partial payments): a row whose amount became taken meanwhile (a concurrent statement, or an earlier
 * row of the same statement) is skipped by `on conflict do nothing` and reported as
 * `tag-taken`; the caller tries again and then sees it. Outcomes are in the order of `rows`.
 */
export async function insertPayments(
  db: DbOrTx,
  rows: PaymentInsert[],
  tags: TagSpace,
): Promise<InsertOutcome[]> {
  if (rows.length === 0) return [];
  const n = (x: bigint | null) => (x === null ? null : x.toString());
  const ts = (x: Date | null) => (x === null ? null : x.toISOString());
  const tuples: SQL[] = rows.map(({ merchant, values: v }, ord) => {
    const ownerId = "ownerId" in merchant ? merchant.ownerId : null;
    const merchantId = "id" in merchant ? merchant.id : null;
    return sql`(${ord}::int, ${ownerId}::text, ${merchantId}::text, ${randomInt(tags.maxTag)}::int, ${v.id}::text,
      ${v.reference}::text, ${v.chainId}::int, ${v.tokenAddress}::text, ${v.tokenDecimals}::int,
      ${n(v.amountUsdCents)}::bigint, ${n(v.priceE18)}::numeric, ${v.priceSource}::text, ${ts(v.priceAt)}::timestamptz,
      ${v.baseAmount.toString()}::numeric, ${v.description}::text, ${v.orderId}::text, ${v.successUrl}::text,
      ${v.payerEmail}::text, ${ts(v.expiresAt)}::timestamptz, ${ts(v.monitorUntil)}::timestamptz,
      ${v.regeneratedFromId}::text, ${ts(v.createdAt)}::timestamptz, ${v.cause}::text, ${createId("ptl")}::text,
      ${createId("evt")}::text, ${v.linkId}::text, ${v.payerLocale}::text)`;
  });
  const unit = sql`${tags.tagUnit.toString()}::numeric`;
  const maxTag = sql`${tags.maxTag}::int`;
  const result = await db.execute(sql`
    with v (ord, owner_id, merchant_id, start, id, reference, chain_id, token_address, token_decimals,
      amount_usd_cents, price_e18, price_source, price_at, base_amount, description, order_id, success_url,
      payer_email, expires_at, monitor_until, regenerated_from_id, created_at, cause, timeline_id, event_id, link_id,
      payer_locale) as (
      values ${sql.join(tuples, sql`, `)}
    ), c as materialized (
      select v.*, m.id as m_id, m.wallet_address, m.tolerance_bps, pick.tag
      from v
      left join lateral (
        select id, wallet_address, tolerance_bps from merchants where id = v.merchant_id
        union all
        select id, wallet_address, tolerance_bps from merchants where id = ${memberMerchantId(sql`v.owner_id`)}
      ) as m on true
      left join lateral (
        select t.tag from generate_series(0, ${maxTag} - 1) as s(i),
          lateral (select (v.start + s.i) % ${maxTag} + 1 as tag) as t
        -- A scalar subquery: probed tag by tag, never planned as a join over all the merchant's live payments.
        where not (select exists (
          select 1 from payment_amounts a
          where a.chain_id = v.chain_id and a.token_address = v.token_address
            and a.receiving_address = m.wallet_address and a.amount = v.base_amount + t.tag * ${unit}))
        limit 1
      ) as pick on m.id is not null
    ), r as (
      -- The reservation decides: a row whose amount another statement reserved meanwhile is skipped here, and its
      -- payment is not inserted (the foreign key is checked at the end of the statement).
      insert into payment_amounts (chain_id, token_address, receiving_address, amount, payment_id, kind, created_at)
      select chain_id, token_address, wallet_address, base_amount + tag * ${unit}, id, 'due', created_at
      from c where m_id is not null and tag is not null
      order by ord
      on conflict do nothing
      returning payment_id
    ), p as (
      insert into payments (id, reference, merchant_id, chain_id, token_address, token_decimals, receiving_address,
        amount_usd_cents, price_e18, price_source, price_at, base_amount, tag, amount_due, amount_requested,
        tolerance_bps, description, order_id, success_url, payer_email, payer_locale, expires_at, monitor_until,
        regenerated_from_id, link_id, created_at, updated_at, created_by)
      select id, reference, m_id, chain_id, token_address, token_decimals, wallet_address, amount_usd_cents,
        price_e18, price_source, price_at, base_amount, tag, base_amount + tag * ${unit},
        base_amount + tag * ${unit}, tolerance_bps, description, order_id, success_url, payer_email, payer_locale,
        expires_at,
        monitor_until, regenerated_from_id, link_id, created_at, created_at, owner_id
      from c join r on r.payment_id = c.id
      order by ord
      returning id
    ), t as (
      insert into payment_timeline (id, payment_id, from_status, to_status, cause, created_at)
      select c.timeline_id, p.id, null, 'pending', c.cause, c.created_at from p join c on c.id = p.id
    ), e as (
      insert into payment_events (id, payment_id, merchant_id, type)
      select c.event_id, p.id, c.m_id, 'payment.created' from p join c on c.id = p.id
    )
    select c.ord, c.m_id as "merchantId", c.wallet_address as "receivingAddress", c.tag,
      c.tolerance_bps as "toleranceBps", p.id is not null as inserted
    from c left join p on p.id = c.id`);
  const byOrd = new Map(
    rowsOf<{
      ord: number;
      merchantId: string | null;
      receivingAddress: string | null;
      tag: number | null;
      toleranceBps: number | null;
      inserted: boolean;
    }>(result).map((r) => [Number(r.ord), r]),
  );
  return rows.map(({ merchant, values: v }, ord): InsertOutcome => {
    const row = byOrd.get(ord);
    if (!row?.merchantId) return { kind: "no-merchant" };
    if (row.tag === null) return { kind: "no-free-tag" };
    if (!row.inserted) return { kind: "tag-taken" };
    const { cause: _cause, ...fields } = v;
    const tag = Number(row.tag);
    return {
      kind: "inserted",
      payment: {
        ...fields,
        merchantId: row.merchantId,
        receivingAddress: row.receivingAddress!,
        tag,
        amountDue: v.baseAmount + BigInt(tag) * tags.tagUnit,
        amountRequested: v.baseAmount + BigInt(tag) * tags.tagUnit,
        toleranceBps: Number(row.toleranceBps),
        amountReceived: 0n,
        amountSeen: 0n,
        amountRefunded: 0n,
        overpaid: false,
        status: "pending",
        live: true,
        completedAt: null,
        completedPriceE18: null,
        completedPriceAt: null,
        regeneratedToId: null,
        createdBy: "ownerId" in merchant ? merchant.ownerId : null,
        updatedAt: v.createdAt,
      },
    };
  });
}

const MAX_BATCH = 100;
const MAX_BATCHES_IN_FLIGHT = 2;

/**
 * Group insert: creations that arrive while earlier ones are being written go into the database together, one
 * statement (and one commit) for the lot instead of one each. A batch that fails as a whole is retried row by row,
 * so one bad row fails only its own request.
 */
export class PaymentInsertQueue {
  private queue: { row: PaymentInsert; resolve: (o: InsertOutcome) => void; reject: (e: unknown) => void }[] =
    [];
  private inFlight = 0;
  private scheduled = false;

  constructor(
    private readonly db: DbOrTx,
    private readonly tags: TagSpace,
  ) {}

  insert(row: PaymentInsert): Promise<InsertOutcome> {
    return new Promise((resolve, reject) => {
      this.queue.push({ row, resolve, reject });
      this.schedule();
    });
  }

  private schedule() {
    if (this.scheduled || this.inFlight >= MAX_BATCHES_IN_FLIGHT || this.queue.length === 0) return;
    this.scheduled = true;
    // After the current I/O callbacks: requests that arrived together travel together.
    setImmediate(() => {
      this.scheduled = false;
      void this.run();
    });
  }

  private async run() {
    if (this.inFlight >= MAX_BATCHES_IN_FLIGHT || this.queue.length === 0) return;
    const batch = this.queue.splice(0, MAX_BATCH);
    this.inFlight++;
    try {
      const outcomes = await insertPayments(
        this.db,
        batch.map((b) => b.row),
        this.tags,
      );
      for (const [i, b] of batch.entries()) b.resolve(outcomes[i]!);
    } catch (error) {
      if (batch.length === 1) batch[0]!.reject(error);
      else {
        await Promise.all(
          batch.map((b) =>
            insertPayments(this.db, [b.row], this.tags).then((o) => b.resolve(o[0]!), b.reject),
          ),
        );
      }
    } finally {
      this.inFlight--;
      this.schedule();
    }
  }
}
