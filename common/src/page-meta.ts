/**
 * Title and description of each public page, read by the page itself (document head) and by the server (the
 * HTML it serves, so link previews and crawlers see them without running JavaScript).
 */
export type PageMeta = { title: string; description: string; image?: string; type?: "website" | "article" };

export const SITE_NAME = "CPXTB Pay";
export const DEFAULT_SOCIAL_IMAGE = "/images/social-card.png";
/** Every social preview image is 1200x630 (scripts/render-social-images.mjs renders them). */
export const SOCIAL_IMAGE_SIZE = { width: 1200, height: 630 } as const;

/**
 * The path of a page's social preview image. Link previews need PNG or JPEG, so an SVG illustration (the blog's)
 * is announced by its PNG rendering, committed beside it.
 */
export function socialImagePath(image: string | undefined): string {
  return (image ?? DEFAULT_SOCIAL_IMAGE).replace(/\.svg$/, ".png");
}

export const PUBLIC_PAGES = {
  "/": {
    title: "Accept CPXTB payments",
    description:
      "CPXTB Pay gives merchants payment links and QR codes any wallet can pay, and shows each payment the moment the chain confirms it.",
  },
  "/blog": {
    title: "Blog",
    description:
      "Guides about accepting crypto payments as a small business: QR payments, confirmations, fees, webhooks and security.",
  },
  "/about": {
    title: "About the platform",
    description:
      "What CPXTB Pay is, how it turns a token transfer into a confirmed payment, and what it does for merchants and payers.",
  },
  "/about-us": {
    title: "About us",
    description: "The CPXTB Pay team, our mission and the principles we build by.",
  },
  "/contact": {
    title: "Contact Us",
    description:
      "Questions about accepting CPXTB, a payment that went wrong, or a partnership: write to the team.",
  },
  "/presentation": {
    title: "Platform Presentation",
    description:
      "CPXTB Pay in twelve slides: the problem, how a payment works, the merchant tools and how to start.",
  },
  "/privacy-policy": {
    title: "Privacy Policy",
    description: "What data CPXTB Pay keeps, why, for how long, and the choices you have.",
  },
  "/terms-of-service": {
    title: "Terms of Service",
    description: "The terms for using CPXTB Pay as a merchant or a payer.",
  },
  "/legal-documents": {
    title: "Legal Documents",
    description: "The merchant agreement, acceptable use policy and other documents that govern CPXTB Pay.",
  },
} as const satisfies Record<string, PageMeta>;

export type PublicPagePath = keyof typeof PUBLIC_PAGES;

export function formatPageTitle(title: string): string {
  return title === SITE_NAME ? title : `${title} · ${SITE_NAME}`;
}
