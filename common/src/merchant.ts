import * as z from "zod";
import "./zod-messages.ts";
import { evmAddress } from "./chain.ts";
import { LOCALES } from "./locales.ts";
import { BUSINESS_TYPES, MEMBER_ROLES, PAGE_THEMES } from "./merchant-values.ts";

export {
  BUSINESS_TYPES,
  MEMBER_ROLES,
  type MemberRole,
  PAGE_THEMES,
  type PageTheme,
} from "./merchant-values.ts";

/** A logo: an https URL, or a small inline image (data:image/png|jpeg|webp|gif;base64, at most ~64 KB). */
export const MAX_LOGO_DATA_URL_CHARS = 90_000;
export const logoUrl = z
  .string()
  .trim()
  .max(MAX_LOGO_DATA_URL_CHARS, "the logo is too large (at most 64 KB)")
  .refine(
    (v) =>
      /^data:image\/(png|jpeg|webp|gif);base64,[A-Za-z0-9+/]+={0,2}$/.test(v) ||
      (/^https:\/\/[^\s]+$/.test(v) && v.length <= 2048 && URL.canParse(v)),
    "The logo must be an https:// address or an image (PNG, JPEG, WebP or GIF) of at most 64 KB.",
  );

const httpsUrl = z
  .string()
  .trim()
  .max(2048)
  .refine(
    (v) => /^https?:\/\/[^\s]+$/.test(v) && URL.canParse(v),
    "Enter a full web address that starts with https:// or http://.",
  );

/** The pay page's look: its accent colour (6-digit hex) and theme ("auto" follows the payer's own theme). */
export const pageTheme = z.enum(PAGE_THEMES);
export const brandColor = z
  .string()
  .trim()
  .regex(/^#[0-9a-fA-F]{6}$/, "Enter a colour like #1a7f5a: # and 6 hex digits.")
  .transform((v) => v.toLowerCase());

/** The language the pay pages open in when the payer has chosen none; null: the payer's browser's (decision 038). */
export const payLanguage = z.enum(LOCALES, `Choose one of the languages: ${LOCALES.join(", ")}.`).nullable();

/** Most tip presets the counter offers (besides "No tip"). */
export const MAX_TIP_PRESETS = 4;
/**
 * Tip percentages the counter (`/pos`) offers, whole percents 1-100, at most four; repeated ones kept once, in
 * increasing order. Empty: the counter asks for no tip.
 */
export const tipPresets = z
  .array(
    z
      .number("Enter tips as whole percents, like 10, 15, 20.")
      .int("Enter tips as whole percents, like 10, 15, 20.")
      .min(1, "A tip is at least 1%.")
      .max(100, "A tip is at most 100%."),
  )
  .max(MAX_TIP_PRESETS, `Offer at most ${MAX_TIP_PRESETS} tips.`)
  .transform((v) => [...new Set(v)].sort((a, b) => a - b));

const merchantFields = {
  name: z
    .string()
    .trim()
    .min(2, "The business name needs at least 2 characters.")
    .max(100, "The business name can be at most 100 characters."),
  businessType: z.enum(BUSINESS_TYPES),
  contactEmail: z
    .email("Enter a valid contact email, like owner@example.com.")
    .max(254, "The contact email is too long."),
  website: httpsUrl.nullish(),
  description: z.string().trim().max(1000).nullish(),
  logoUrl: logoUrl.nullish(),
  /** Underpayment accepted as paid, in basis points (100 = 1%); at most 10%. */
  toleranceBps: z.number().int().min(0).max(1000),
  brandColor: brandColor.nullish(),
  pageTheme,
  payLanguage: payLanguage.optional(),
  tipPresets,
};

/** Proof that the signed-in user controls `walletAddress`: an EIP-191 signature of the server's message. */
export const walletProof = z.object({
  nonce: z.string().min(16).max(64),
  signature: z.string().regex(/^0x[0-9a-fA-F]{130}$/, "The signature must be 65 bytes in hex."),
});

export const walletChallengeRequest = z.object({ address: evmAddress });
export const walletChallengeResponse = z.object({
  address: z.string(),
  nonce: z.string(),
  message: z.string(),
  expiresAt: z.string(),
});

export const createMerchantRequest = z.object({
  ...merchantFields,
  toleranceBps: merchantFields.toleranceBps.default(0),
  pageTheme: pageTheme.default("auto"),
  tipPresets: tipPresets.default([]),
  walletAddress: evmAddress,
  proof: walletProof,
});
export type CreateMerchantRequest = z.infer<typeof createMerchantRequest>;

/** Any subset of the fields; a new walletAddress needs a new proof. */
export const updateMerchantRequest = z
  .object({
    ...merchantFields,
    walletAddress: evmAddress,
    proof: walletProof,
  })
  .partial()
  .refine((v) => !v.walletAddress || v.proof, { message: "A new wallet address needs a signature proof." });
export type UpdateMerchantRequest = z.infer<typeof updateMerchantRequest>;

/** A member's role in a business (decision 021): owner > admin > staff. */
export const memberRole = z.enum(MEMBER_ROLES);

export const merchantResponse = z.object({
  id: z.string(),
  /** The signed-in user's role in this business: what the client offers follows from it. */
  role: memberRole,
  /** How many businesses the user is a member of (the dashboard offers a switcher from 2 on). */
  businessCount: z.number().int(),
  name: z.string(),
  businessType: z.enum(BUSINESS_TYPES),
  contactEmail: z.string(),
  website: z.string().nullable(),
  description: z.string().nullable(),
  logoUrl: z.string().nullable(),
  walletAddress: z.string(),
  walletVerifiedAt: z.string(),
  toleranceBps: z.number().int(),
  brandColor: z.string().nullable(),
  pageTheme,
  payLanguage,
  tipPresets: z.array(z.number().int()),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Merchant = z.infer<typeof merchantResponse>;
