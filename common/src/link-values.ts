/** Plain values of the links contract (no zod): the link's page imports these. */
export const LINK_PRICINGS = ["fixed", "open"] as const;
export type LinkPricing = (typeof LINK_PRICINGS)[number];
export const LINK_CURRENCIES = ["USD", "CPXTB"] as const;

/** The query key of a link's public view (the server renders /l/{slug} with it). */
export const publicLinkKey = (slug: string) => `/api/links/public/${encodeURIComponent(slug)}`;
