import type { Locale } from "@common/locales.ts";
import { and, eq, sql } from "drizzle-orm";
import { type DbOrTx, rowsOf } from "../../db/client.ts";
import { paymentLinks } from "../../db/schema.ts";
import { AppError } from "../../errors.ts";
import { type MerchantScope, merchantIdOf } from "../merchants/repository.ts";

export type LinkRow = typeof paymentLinks.$inferSelect;
export type NewLink = typeof paymentLinks.$inferInsert;

/** A link's numbers: requests made from it, the paid ones and what they brought, the units held. */
export type LinkStatsRow = {
  requests: number;
  paid: number;
  /** Base units of the token (`decimals`), summed over the paid requests. */
  paidTotal: bigint;
  decimals: number;
  /** Cents of the paid requests asked in USD; null when none was. */
  paidUsdCents: bigint | null;
  held: number;
};

const PAID = sql`('completed', 'paid_late')`;
/**
 * Whether a payment holds one of its link's units: every request does while it can still be paid or was paid
 * (anything received counts), and gives its unit back when it expired (or was cancelled) receiving nothing.
 */
const HOLDS = sql`(p.status not in ('expired', 'cancelled', 'invalid') or p.amount_seen > 0)`;

const statsOf = sql`
  left join lateral (
    select count(*)::int as requests,
      (count(*) filter (where p.status in ${PAID}))::int as paid,
      coalesce(sum(p.amount_received) filter (where p.status in ${PAID}), 0)::text as paid_total,
      coalesce(max(p.token_decimals), 18)::int as decimals,
      (sum(p.amount_usd_cents) filter (where p.status in ${PAID}))::text as paid_usd_cents,
      (count(*) filter (where ${HOLDS}))::int as held
    from payments p where p.link_id = l.id
  ) s on true`;

type RawStats = {
  requests: number;
  paid: number;
  paid_total: string;
  decimals: number;
  paid_usd_cents: string | null;
  held: number;
};

const toStats = (r: RawStats): LinkStatsRow => ({
  requests: Number(r.requests),
  paid: Number(r.paid),
  paidTotal: BigInt(r.paid_total),
  decimals: Number(r.decimals),
  paidUsdCents: r.paid_usd_cents === null ? null : BigInt(r.paid_usd_cents),
  held: Number(r.held),
});

type RawLink = RawStats & {
  id: string;
  merchant_id: string;
  slug: string;
  title: string;
  description: string | null;
  image_url: string | null;
  pricing: "fixed" | "open";
  currency: "USD" | "CPXTB";
  amount: string | null;
  min_amount: string | null;
  quantity_limit: number | null;
  active: boolean;
  created_at: Date | string;
  updated_at: Date | string;
};

const toLink = (r: RawLink): LinkRow & { stats: LinkStatsRow } => ({
  id: r.id,
  merchantId: r.merchant_id,
  slug: r.slug,
  title: r.title,
  description: r.description,
  imageUrl: r.image_url,
  pricing: r.pricing,
  currency: r.currency,
  amount: r.amount,
  minAmount: r.min_amount,
  quantityLimit: r.quantity_limit === null ? null : Number(r.quantity_limit),
  active: r.active,
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
  stats: toStats(r),
});

export type LinkWithStats = ReturnType<typeof toLink>;

/** The business a scope acts for (membership and role checked in the query), or null. */
export async function merchantIdFor(db: DbOrTx, scope: MerchantScope): Promise<string | null> {
  const [row] = rowsOf<{ id: string | null }>(await db.execute(sql`select ${merchantIdOf(scope)} as id`));
  return row?.id ?? null;
}

export async function insertLink(db: DbOrTx, values: NewLink): Promise<void> {
  await db.insert(paymentLinks).values(values);
}

/** The scope's links with their numbers, newest first; `productsOnly`: switched-on fixed-price links. */
export async function listLinksOfOwner(
  db: DbOrTx,
  scope: MerchantScope,
  filter: { productsOnly?: boolean; id?: string } = {},
): Promise<LinkWithStats[]> {
  const result = await db.execute(sql`
    select l.*, s.* from payment_links l ${statsOf}
    where l.merchant_id = ${merchantIdOf(scope)}
      ${filter.productsOnly ? sql`and l.active and l.pricing = 'fixed'` : sql``}
      ${filter.id ? sql`and l.id = ${filter.id}` : sql``}
    order by l.id desc
    limit 1000`);
  return rowsOf<RawLink>(result).map(toLink);
}

export async function updateLinkOfOwner(
  db: DbOrTx,
  scope: MerchantScope,
  id: string,
  patch: Partial<NewLink>,
): Promise<boolean> {
  const rows = await db
    .update(paymentLinks)
    .set({ ...patch, updatedAt: new Date() })
    .where(and(eq(paymentLinks.id, id), eq(paymentLinks.merchantId, merchantIdOf(scope))))
    .returning({ id: paymentLinks.id });
  return rows.length > 0;
}

export type PublicLinkRow = LinkWithStats & {
  merchant: {
    name: string;
    logoUrl: string | null;
    brandColor: string | null;
    pageTheme: "auto" | "light" | "dark";
    /** The language its pay pages open in (decision 038), or null for the reader's browser's. */
    payLanguage: Locale | null;
  };
};

/** A link by its slug with its business's public face and its units held. */
export async function findLinkBySlug(db: DbOrTx, slug: string): Promise<PublicLinkRow | null> {
  const result = await db.execute(sql`
    select l.*, s.*, m.name as m_name, m.logo_url as m_logo_url, m.brand_color as m_brand_color,
      m.page_theme as m_page_theme, m.pay_language as m_pay_language
    from payment_links l join merchants m on m.id = l.merchant_id ${statsOf}
    where l.slug = ${slug.toLowerCase()}`);
  const [row] = rowsOf<
    RawLink & {
      m_name: string;
      m_logo_url: string | null;
      m_brand_color: string | null;
      m_page_theme: "auto";
      m_pay_language: Locale | null;
    }
  >(result);
  if (!row) return null;
  return {
    ...toLink(row),
    merchant: {
      name: row.m_name,
      logoUrl: row.m_logo_url,
      brandColor: row.m_brand_color,
      pageTheme: row.m_page_theme,
      payLanguage: row.m_pay_language,
    },
  };
}

/**
 * Called in the transaction that inserts a payment under the link: locks the link's row (parallel "Pay"s on one
 * link wait here, one at a time, on every instance), then refuses when the link is switched off or every unit
 * of its quantity limit is held by a request that can still be paid or was paid.
 */
export async function holdLinkUnit(tx: DbOrTx, linkId: string): Promise<void> {
  const [link] = rowsOf<{ active: boolean; quantity_limit: number | null }>(
    await tx.execute(sql`select active, quantity_limit from payment_links where id = ${linkId} for update`),
  );
  if (!link) throw new AppError("NOT_FOUND", "No payment link has this address.");
  if (!link.active)
    throw new AppError("CONFLICT", "This payment link is switched off: it takes no payments.");
  if (link.quantity_limit === null) return;
  const [held] = rowsOf<{ n: number }>(
    await tx.execute(sql`select count(*)::int as n from payments p where p.link_id = ${linkId} and ${HOLDS}`),
  );
  if (Number(held?.n ?? 0) >= Number(link.quantity_limit)) {
    throw new AppError("CONFLICT", "Sold out: every unit of this link is sold or held by an open payment.");
  }
}
