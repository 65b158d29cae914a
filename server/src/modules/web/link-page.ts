import { type PublicLink, publicLinkKey } from "@common/links.ts";
import type { Locale } from "@common/locales.ts";
import type { FastifyRequest } from "fastify";
import { AppError } from "../../errors.ts";
import { requestLocale } from "../../lib/i18n.ts";
import type { IndexHtml } from "./index-html.ts";
import { pageHtmlText } from "./page-meta.ts";
import type { PageRenderer, PageTranslator } from "./routes.ts";

const LINK_PATH = /^\/l\/([^/]+)\/?$/;

/** The slug of a payment link's page (`/l/{slug}`), as the page reads it, or null for any other page. */
export function linkSlugOf(path: string): string | null {
  const segment = LINK_PATH.exec(path)?.[1];
  if (segment === undefined) return null;
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

export type LinkPageSources = {
  index: IndexHtml;
  render: PageRenderer;
  /** The link's public view, as `GET /api/links/public/:slug` answers it (null: no such link). */
  publicLink: (slug: string) => Promise<PublicLink>;
  /** A message of the app's catalogs in a language: the page's title and description when the merchant wrote none. */
  translate: PageTranslator;
  origin: string;
  /** The page's own code as modulepreload links, in its language (none: the app loads it itself). */
  pageCode?: (locale: Locale) => string;
};

/**
 * A payment link's page with the link in its HTML, like the pay page (decision 017): title, price, image and the
 * Pay button arrive painted, with the data beside them for hydration. An unknown slug answers 404 with its
 * explanation.
 */
export async function renderLinkPage(
  request: FastifyRequest,
  url: { path: string; search: string },
  slug: string,
  sources: LinkPageSources,
): Promise<{ html: string; status: number; locale: Locale }> {
  const valid = /^[A-Za-z0-9-]{1,64}$/.test(slug);
  let link: PublicLink | null = null;
  if (valid) {
    try {
      link = await sources.publicLink(slug);
    } catch (error) {
      if (!(error instanceof AppError && error.code === "NOT_FOUND")) throw error;
    }
  }
  const data: Record<string, unknown> = { [publicLinkKey(slug)]: link };
  // In its reader's language like the pay page it leads to (decision 038).
  const locale = requestLocale(request);
  const markup = await sources.render(url.path, data, locale);
  // The merchant's own title and description as written; ours in the reader's language (decision 038).
  const meta = link
    ? {
        title: link.title,
        description:
          link.description?.slice(0, 160) ||
          (await sources.translate(locale, "pay.meta.linkDescription", { merchant: link.merchant.name })),
      }
    : {
        title: await sources.translate(locale, "pay.meta.title"),
        description: await sources.translate(locale, "pay.meta.linkNotFound"),
      };
  const html = pageHtmlText(sources.index, meta, `${sources.origin}${url.path}`, sources.origin, {
    body: markup === null ? undefined : { markup, data },
    head: sources.pageCode?.(locale),
    locale,
  });
  return { html, status: link ? 200 : 404, locale };
}
