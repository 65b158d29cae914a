import { eq } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.ts";
import { merchants, paymentLinks, payments } from "../../db/schema.ts";
import { type MerchantScope, merchantIdOf } from "../merchants/repository.ts";

/** The business's origins, with membership and role checked by the query itself (decision 021). */
export async function findEmbedOrigins(db: DbOrTx, scope: MerchantScope): Promise<string[] | undefined> {
  const [row] = await db
    .select({ origins: merchants.embedOrigins })
    .from(merchants)
    .where(eq(merchants.id, merchantIdOf(scope)));
  return row?.origins;
}

export async function setEmbedOrigins(db: DbOrTx, scope: MerchantScope, origins: string[]) {
  const [row] = await db
    .update(merchants)
    .set({ embedOrigins: origins, updatedAt: new Date() })
    .where(eq(merchants.id, merchantIdOf(scope)))
    .returning({ id: merchants.id, origins: merchants.embedOrigins });
  return row;
}

/** The origins the business of the payment `reference` lets frame its checkout; null for no such payment. */
export async function embedOriginsOfPayment(db: DbOrTx, reference: string): Promise<string[] | null> {
  const [row] = await db
    .select({ origins: merchants.embedOrigins })
    .from(payments)
    .innerJoin(merchants, eq(merchants.id, payments.merchantId))
    .where(eq(payments.reference, reference));
  return row ? row.origins : null;
}

/** The origins the business of the payment link `slug` lets frame the link's page; null for no such link. */
export async function embedOriginsOfLink(db: DbOrTx, slug: string): Promise<string[] | null> {
  const [row] = await db
    .select({ origins: merchants.embedOrigins })
    .from(paymentLinks)
    .innerJoin(merchants, eq(merchants.id, paymentLinks.merchantId))
    .where(eq(paymentLinks.slug, slug.toLowerCase()));
  return row ? row.origins : null;
}
