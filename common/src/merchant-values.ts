// The business contract's plain values, apart from its zod schemas (merchant.ts re-exports them); see
// payment-values.ts.

export const BUSINESS_TYPES = [
  "retail",
  "ecommerce",
  "services",
  "food",
  "digital",
  "nonprofit",
  "other",
] as const;

/** The pay page's look: its accent colour (6-digit hex) and theme ("auto" follows the payer's own theme). */
export const PAGE_THEMES = ["auto", "light", "dark"] as const;
export type PageTheme = (typeof PAGE_THEMES)[number];

/** A member's role in a business (decision 021): owner > admin > staff. */
export const MEMBER_ROLES = ["owner", "admin", "staff"] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];
