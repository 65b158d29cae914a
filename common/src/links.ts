import * as z from "zod";
import { LINK_CURRENCIES, LINK_PRICINGS, type LinkPricing } from "./link-values.ts";
import { pageTheme } from "./merchant.ts";

/** An uploaded image is stored like the business's logo: a data URL of at most 64 KB. */
export const MAX_LINK_IMAGE_BYTES = 64 * 1024;

import { tokenAmount, usdAmount } from "./payments.ts";

export { LINK_CURRENCIES, LINK_PRICINGS, type LinkPricing, publicLinkKey } from "./link-values.ts";

/** A link's address part: lower-case letters, digits and single dashes, 3 to 64 characters. */
export const linkSlug = z
  .string({ error: "Enter the link's address." })
  .trim()
  .toLowerCase()
  .regex(
    /^[a-z0-9](?:[a-z0-9]|-(?=[a-z0-9])){2,63}$/,
    "The link address must be 3 to 64 letters, digits or dashes (no dash at the start or end).",
  );

/** The link's image, kept like the business's logo: an https URL, or a small inline image of at most 64 KB. */
const imageUrl = z
  .string({ error: "The image must be an https:// address or an uploaded image." })
  .trim()
  .max(90_000, "The image is too large: at most 64 KB.")
  .refine(
    (v) =>
      /^data:image\/(png|jpeg|webp|gif);base64,[A-Za-z0-9+/]+={0,2}$/.test(v) ||
      (/^https:\/\/[^\s]+$/.test(v) && v.length <= 2048 && URL.canParse(v)),
    "The image must be an https:// address or an image (PNG, JPEG, WebP or GIF) of at most 64 KB.",
  );

const amountIn = (currency: "USD" | "CPXTB") => (currency === "USD" ? usdAmount : tokenAmount);

const linkFields = {
  title: z
    .string({ error: "Give the link a title." })
    .trim()
    .min(1, "Give the link a title.")
    .max(120, "The title can be at most 120 characters."),
  description: z
    .string({ error: "The description must be text." })
    .trim()
    .max(1000, "The description can be at most 1000 characters.")
    .nullish(),
  imageUrl: imageUrl
    .nullish()
    .describe("An https:// URL or a data:image (png, jpeg, webp, gif) of at most 64 KB."),
  pricing: z
    .enum(LINK_PRICINGS, { error: "Choose a fixed price or let the payer choose." })
    .describe("`fixed`: the price is `amount`; `open`: the payer chooses, at least `minAmount`."),
  currency: z.enum(LINK_CURRENCIES, { error: "Choose USD or CPXTB." }),
  amount: z
    .string({ error: "Enter the price." })
    .nullish()
    .describe("The fixed price (USD with 2 decimals, CPXTB with 3). Only for `fixed`."),
  minAmount: z
    .string({ error: "Enter the least a payer may pay." })
    .nullish()
    .describe("The least a payer may choose. Only for `open`."),
  quantityLimit: z
    .number({ error: "The quantity limit must be a whole number of at least 1." })
    .int("The quantity limit must be a whole number of at least 1.")
    .min(1, "The quantity limit must be a whole number of at least 1.")
    .max(1_000_000, "The quantity limit can be at most 1,000,000.")
    .nullish()
    .describe("How many may be sold (open requests hold one each until they expire unpaid); null: no limit."),
  active: z
    .boolean({ error: "Say whether the link is on (true) or off (false)." })
    .optional()
    .describe("False: the link's page says it is switched off and takes no payment."),
};

type PriceFields = {
  pricing?: LinkPricing;
  currency?: "USD" | "CPXTB";
  amount?: string | null;
  minAmount?: string | null;
};

function checkPrice(v: PriceFields, ctx: z.core.$RefinementCtx) {
  if (!v.pricing || !v.currency) return;
  const field = v.pricing === "fixed" ? "amount" : "minAmount";
  const other = v.pricing === "fixed" ? "minAmount" : "amount";
  const value = v[field];
  if (value === undefined || value === null || value === "") {
    ctx.addIssue({
      code: "custom",
      path: [field],
      message:
        v.pricing === "fixed" ? "A fixed-price link needs its price." : "Set the least a payer may pay.",
    });
  } else {
    const check = amountIn(v.currency).safeParse(value);
    if (!check.success)
      ctx.addIssue({ code: "custom", path: [field], message: check.error.issues[0]!.message });
  }
  if (v[other] !== undefined && v[other] !== null && v[other] !== "")
    ctx.addIssue({
      code: "custom",
      path: [other],
      message:
        v.pricing === "fixed"
          ? "A fixed-price link has no minimum."
          : "A payer-chooses link has no fixed price.",
    });
}

export const createLinkRequest = z
  .object({
    ...linkFields,
    slug: linkSlug.optional().describe("The address part of /l/{slug}; made up when left out."),
  })
  .superRefine(checkPrice);
export type CreateLinkRequest = z.input<typeof createLinkRequest>;

/** Any of the fields; pricing, currency and amounts are checked together as they will be stored. */
export const updateLinkRequest = z
  .object({
    title: linkFields.title.optional(),
    description: linkFields.description,
    imageUrl: linkFields.imageUrl,
    pricing: linkFields.pricing.optional(),
    currency: linkFields.currency.optional(),
    amount: linkFields.amount,
    minAmount: linkFields.minAmount,
    quantityLimit: linkFields.quantityLimit,
    active: linkFields.active,
    slug: linkSlug.optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), "Nothing to change: give a field to change.");
export type UpdateLinkRequest = z.input<typeof updateLinkRequest>;

export const linkStats = z.object({
  /** Payment requests made from the link (each "Pay"). */
  requests: z.number().int(),
  /** Of those, paid (completed or paid late). */
  paid: z.number().int(),
  /** What the paid ones received, in CPXTB. */
  paidTotal: z.string(),
  /** The USD value of the paid ones asked in USD (null when none was). */
  paidUsd: z.string().nullable(),
  /** Units left under the quantity limit (open requests hold one); null without a limit. */
  remaining: z.number().int().nullable(),
});

export const linkResponse = z.object({
  id: z.string(),
  slug: z.string(),
  url: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  imageUrl: z.string().nullable(),
  pricing: z.enum(LINK_PRICINGS),
  currency: z.enum(LINK_CURRENCIES),
  amount: z.string().nullable(),
  minAmount: z.string().nullable(),
  quantityLimit: z.number().int().nullable(),
  active: z.boolean(),
  stats: linkStats,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Link = z.infer<typeof linkResponse>;

export const listLinksQuery = z.object({
  /** Only the switched-on fixed-price links: the point of sale's item grid (a product is a fixed-price link). */
  products: z
    .enum(["true", "false"])
    .transform((v) => v === "true")
    .optional(),
});
export const listLinksResponse = z.object({ items: z.array(linkResponse) });

export const linkIdParams = z.object({ id: z.string().regex(/^lnk_[0-9a-z]{26}$/, "unknown link") });
export const linkSlugParams = z.object({ slug: z.string().regex(/^[A-Za-z0-9-]{1,64}$/, "unknown link") });

/** What the link's page shows (`GET /api/links/public/:slug`). */
export const publicLinkResponse = z.object({
  slug: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  imageUrl: z.string().nullable(),
  pricing: z.enum(LINK_PRICINGS),
  currency: z.enum(LINK_CURRENCIES),
  amount: z.string().nullable(),
  minAmount: z.string().nullable(),
  active: z.boolean(),
  soldOut: z.boolean(),
  merchant: z.object({
    name: z.string(),
    logoUrl: z.string().nullable(),
    brandColor: z.string().nullable(),
    pageTheme,
  }),
});
export type PublicLink = z.infer<typeof publicLinkResponse>;

/** "Pay" on a link's page: the amount only for a payer-chooses link (in the link's currency). */
export const payLinkRequest = z.object({
  amount: z.string().trim().max(32).nullish(),
  payerEmail: z.email().max(254).nullish(),
});
export const payLinkResponse = z.object({ reference: z.string(), paymentUrl: z.string() });

export function checkAmountIn(currency: "USD" | "CPXTB", amount: string): string | null {
  const check = amountIn(currency).safeParse(amount);
  return check.success ? null : check.error.issues[0]!.message;
}
