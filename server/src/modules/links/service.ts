import { randomBytes } from "node:crypto";
import {
  type CreateLinkRequest,
  checkAmountIn,
  createLinkRequest,
  type Link,
  type PublicLink,
  type UpdateLinkRequest,
} from "@common/links.ts";
import type { Locale } from "@common/locales.ts";
import type { Db, DbOrTx } from "../../db/client.ts";
import { AppError } from "../../errors.ts";
import { createId } from "../../lib/ids.ts";
import { type AuditContext, recordAudit } from "../audit/record.ts";
import { isUniqueViolation } from "../auth/service.ts";
import type { MerchantScope } from "../merchants/repository.ts";
import { formatCents, formatTokens } from "../payments/amounts.ts";
import * as payments from "../payments/service.ts";
import * as repo from "./repository.ts";

const SLUG_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789";

/** A made-up slug: 10 characters of an alphabet without look-alikes (50 bits). */
function randomSlug(): string {
  return [...randomBytes(10)].map((b) => SLUG_ALPHABET[b % SLUG_ALPHABET.length]).join("");
}

export function linkUrl(baseUrl: string, slug: string) {
  return `${baseUrl.replace(/\/+$/, "")}/l/${slug}`;
}

export function toLinkResponse(l: repo.LinkWithStats, baseUrl: string): Link {
  const s = l.stats;
  return {
    id: l.id,
    slug: l.slug,
    url: linkUrl(baseUrl, l.slug),
    title: l.title,
    description: l.description,
    imageUrl: l.imageUrl,
    pricing: l.pricing,
    currency: l.currency,
    amount: l.amount,
    minAmount: l.minAmount,
    quantityLimit: l.quantityLimit,
    active: l.active,
    stats: {
      requests: s.requests,
      paid: s.paid,
      paidTotal: formatTokens(s.paidTotal, s.decimals),
      paidUsd: s.paidUsdCents === null ? null : formatCents(s.paidUsdCents),
      remaining: l.quantityLimit === null ? null : Math.max(0, l.quantityLimit - s.held),
    },
    createdAt: l.createdAt.toISOString(),
    updatedAt: l.updatedAt.toISOString(),
  };
}

export function toPublicLink(l: repo.PublicLinkRow): PublicLink {
  return {
    slug: l.slug,
    title: l.title,
    description: l.description,
    imageUrl: l.imageUrl,
    pricing: l.pricing,
    currency: l.currency,
    amount: l.amount,
    minAmount: l.minAmount,
    active: l.active,
    soldOut: l.quantityLimit !== null && l.stats.held >= l.quantityLimit,
    merchant: l.merchant,
  };
}

/** Who changes a link: a member (the audit log's actor), or an API key (no member; the key named in the entry). */
export type LinkActor = AuditContext & { apiKeyId?: string };
const via = (actor: LinkActor) => (actor.apiKeyId ? { apiKey: actor.apiKeyId } : {});

const SLUG_TAKEN = "This link address is taken: choose another slug.";

export async function createLink(
  db: DbOrTx,
  scope: MerchantScope,
  actor: LinkActor,
  input: CreateLinkRequest,
  baseUrl: string,
) {
  const merchantId = await repo.merchantIdFor(db, scope);
  if (!merchantId) throw new AppError("NOT_FOUND", "You have not registered a business yet.");
  const id = createId("lnk");
  for (let attempt = 0; ; attempt++) {
    const slug = input.slug ?? randomSlug();
    try {
      // One transaction per try: a slug taken by someone else aborts only that try.
      await db.transaction(async (tx) => {
        await repo.insertLink(tx, {
          id,
          merchantId,
          slug,
          title: input.title,
          description: input.description || null,
          imageUrl: input.imageUrl || null,
          pricing: input.pricing,
          currency: input.currency,
          amount: input.pricing === "fixed" ? input.amount! : null,
          minAmount: input.pricing === "open" ? input.minAmount! : null,
          quantityLimit: input.quantityLimit ?? null,
          active: input.active ?? true,
        });
        await recordAudit(tx, actor, {
          action: "link.created",
          businessId: merchantId,
          target: id,
          metadata: {
            slug,
            title: input.title,
            pricing: input.pricing,
            currency: input.currency,
            ...via(actor),
          },
        });
      });
      break;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      if (input.slug || attempt >= 3) throw new AppError("CONFLICT", SLUG_TAKEN);
    }
  }
  return getLink(db, scope, id, baseUrl);
}

export async function getLink(db: DbOrTx, scope: MerchantScope, id: string, baseUrl: string) {
  const [link] = await repo.listLinksOfOwner(db, scope, { id });
  if (!link) throw new AppError("NOT_FOUND", "No such payment link.");
  return toLinkResponse(link, baseUrl);
}

export async function listLinks(
  db: DbOrTx,
  scope: MerchantScope,
  baseUrl: string,
  filter: { productsOnly?: boolean } = {},
) {
  const links = await repo.listLinksOfOwner(db, scope, filter);
  return { items: links.map((l) => toLinkResponse(l, baseUrl)) };
}

/**
 * Changes a link: the price fields are checked together as they will be stored (switching to "payer chooses"
 * drops the fixed price unless a minimum replaces it, and the other way round).
 */
export async function updateLink(
  db: DbOrTx,
  scope: MerchantScope,
  actor: LinkActor,
  id: string,
  patch: UpdateLinkRequest,
  baseUrl: string,
) {
  const [current] = await repo.listLinksOfOwner(db, scope, { id });
  if (!current) throw new AppError("NOT_FOUND", "No such payment link.");
  const pricing = patch.pricing ?? current.pricing;
  const switched = pricing !== current.pricing;
  const merged = {
    title: patch.title ?? current.title,
    pricing,
    currency: patch.currency ?? current.currency,
    amount: patch.amount !== undefined ? patch.amount : switched ? null : current.amount,
    minAmount: patch.minAmount !== undefined ? patch.minAmount : switched ? null : current.minAmount,
  };
  const check = createLinkRequest.safeParse(merged);
  if (!check.success) {
    const issue = check.error.issues[0]!;
    throw new AppError("VALIDATION_ERROR", issue.message);
  }
  const fields = Object.entries(patch)
    .filter(([key, value]) => key !== "active" && value !== undefined)
    .map(([key]) => key);
  try {
    await db.transaction(async (tx) => {
      await repo.updateLinkOfOwner(tx, scope, id, {
        ...(patch.title !== undefined ? { title: patch.title } : {}),
        ...(patch.description !== undefined ? { description: patch.description || null } : {}),
        ...(patch.imageUrl !== undefined ? { imageUrl: patch.imageUrl || null } : {}),
        ...(patch.quantityLimit !== undefined ? { quantityLimit: patch.quantityLimit } : {}),
        ...(patch.active !== undefined ? { active: patch.active } : {}),
        ...(patch.slug !== undefined ? { slug: patch.slug } : {}),
        pricing: merged.pricing,
        currency: merged.currency,
        amount: merged.pricing === "fixed" ? merged.amount : null,
        minAmount: merged.pricing === "open" ? merged.minAmount : null,
      });
      // Switching off and on is its own entry (what a merchant looks for); other changes name their fields.
      const base = { businessId: current.merchantId, target: id };
      if (fields.length > 0)
        await recordAudit(tx, actor, {
          ...base,
          action: "link.updated",
          metadata: { fields, ...via(actor) },
        });
      if (patch.active !== undefined && patch.active !== current.active)
        await recordAudit(tx, actor, {
          ...base,
          action: patch.active ? "link.switched_on" : "link.switched_off",
          metadata: { slug: patch.slug ?? current.slug, ...via(actor) },
        });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError("CONFLICT", SLUG_TAKEN);
    throw error;
  }
  return getLink(db, scope, id, baseUrl);
}

export async function getPublicLink(db: Db, slug: string): Promise<PublicLink> {
  const link = await repo.findLinkBySlug(db, slug);
  if (!link) throw new AppError("NOT_FOUND", "No payment link has this address.");
  return toPublicLink(link);
}

/** Thousandths of a decimal amount (USD has 2 decimals, CPXTB 3): amounts compared exactly. */
function milli(amount: string): bigint {
  const [whole, fraction = ""] = amount.split(".");
  return BigInt(whole!) * 1000n + BigInt(fraction.padEnd(3, "0").slice(0, 3) || "0");
}

/**
 * "Pay" on a link's page: a fresh payment request (its own unique amount) of the link's business, made by the
 * payments engine's one creation path with the link's id; the quantity limit is checked under the link's row lock
 * in the same transaction as the insert.
 */
export async function payLink(
  deps: payments.PaymentsDeps,
  slug: string,
  body: { amount?: string | null; payerEmail?: string | null },
  /** The payer's language on the link's page, given the business's default for its pay pages. */
  payerLocale: (payLanguage: Locale | null) => Locale,
) {
  const link = await repo.findLinkBySlug(deps.db, slug);
  if (!link) throw new AppError("NOT_FOUND", "No payment link has this address.");
  if (!link.active)
    throw new AppError("CONFLICT", "This payment link is switched off: it takes no payments.");
  let amount: string;
  if (link.pricing === "fixed") {
    amount = link.amount!;
  } else {
    const chosen = body.amount?.trim();
    if (!chosen) throw new AppError("VALIDATION_ERROR", "Enter the amount you want to pay.");
    const invalid = checkAmountIn(link.currency, chosen);
    if (invalid) throw new AppError("VALIDATION_ERROR", invalid);
    if (milli(chosen) < milli(link.minAmount!)) {
      throw new AppError(
        "VALIDATION_ERROR",
        `The least you can pay here is ${link.minAmount} ${link.currency}.`,
        { minAmount: link.minAmount, currency: link.currency },
      );
    }
    amount = chosen;
  }
  return payments.createPayment(
    deps,
    { id: link.merchantId },
    {
      currency: link.currency,
      amount,
      description: link.title,
      payerEmail: body.payerEmail ?? null,
    },
    { linkId: link.id, payerLocale: payerLocale(link.merchant.payLanguage) },
  );
}
