import { PUBLIC_PAGES, SITE_NAME } from "@common/page-meta.ts";
import type { BlogPost } from "./content-store.ts";

export function escapeXml(value: string): string {
  return value
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

/** RFC 822 date of a calendar day (noon UTC, so no reader shows it a day off). */
const rfc822 = (isoDay: string) => new Date(`${isoDay}T12:00:00Z`).toUTCString();

export function renderRss(origin: string, posts: BlogPost[]): string {
  const items = posts
    .map((post) => {
      const url = `${origin}/blog/${post.slug}`;
      const categories = post.tags.map((tag) => `      <category>${escapeXml(tag)}</category>`).join("\n");
      return [
        "    <item>",
        `      <title>${escapeXml(post.title)}</title>`,
        `      <link>${escapeXml(url)}</link>`,
        `      <guid isPermaLink="true">${escapeXml(url)}</guid>`,
        `      <pubDate>${rfc822(post.date)}</pubDate>`,
        `      <description>${escapeXml(post.summary)}</description>`,
        categories,
        "    </item>",
      ].join("\n");
    })
    .join("\n");
  const latest = posts[0]?.date;
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">
  <channel>
    <title>${escapeXml(`${SITE_NAME} Blog`)}</title>
    <link>${escapeXml(`${origin}/blog`)}</link>
    <atom:link href="${escapeXml(`${origin}/rss.xml`)}" rel="self" type="application/rss+xml" />
    <description>${escapeXml(PUBLIC_PAGES["/blog"].description)}</description>
    <language>en</language>
${latest ? `    <lastBuildDate>${rfc822(latest)}</lastBuildDate>\n` : ""}${items}
  </channel>
</rss>
`;
}

export function renderSitemap(origin: string, posts: BlogPost[]): string {
  const pages = Object.keys(PUBLIC_PAGES).map((path) => ({ loc: `${origin}${path}`, lastmod: undefined }));
  const entries = [
    ...pages,
    ...posts.map((post) => ({
      loc: `${origin}/blog/${post.slug}`,
      lastmod: post.date as string | undefined,
    })),
  ]
    .map(
      ({ loc, lastmod }) =>
        `  <url>\n    <loc>${escapeXml(loc)}</loc>\n${lastmod ? `    <lastmod>${lastmod}</lastmod>\n` : ""}  </url>`,
    )
    .join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${entries}
</urlset>
`;
}

/**
 * Crawlers may read every public page (the sitemap lists them); accounts, dashboards, checkouts of one payment and
 * the API are nobody's search result.
 */
const PRIVATE_PATHS = [
  "/api/",
  "/merchant",
  "/profile",
  "/settings",
  "/payments",
  "/reports",
  "/webhooks",
  "/developers",
  "/audit-log",
  "/team",
  "/invitations/",
  "/pay/",
  "/payment/",
  // A payment link's page is a checkout too (each Pay a request of its own); /links is the dashboard's screen.
  "/l/",
  "/links",
  "/refund/",
  "/easy-payment",
  "/reset-password",
  "/social-login-test",
  "/pos",
];

export function renderRobots(origin: string): string {
  return [
    "User-agent: *",
    ...PRIVATE_PATHS.map((path) => `Disallow: ${path}`),
    "",
    `Sitemap: ${origin}/sitemap.xml`,
    "",
  ].join("\n");
}
