import { type User, userResponse } from "@common/auth.ts";
import { DEFAULT_LOCALE, type Locale } from "@common/locales.ts";
import type { PageMeta } from "@common/page-meta.ts";
import type { IndexHtml } from "./index-html.ts";
import { pageHtmlText } from "./page-meta.ts";
import type { PageRenderer, PageTranslator } from "./routes.ts";

const DASHBOARD_PATH = /^\/merchant\/?$/;

/** Whether a page request is for the merchant dashboard, the one signed-in page the server renders. */
export const isDashboardPath = (path: string) => DASHBOARD_PATH.test(path);

/** The page's title and description: the ones its frame shows (`merchant.page.*`), in the reader's language. */
const DASHBOARD_META_IDS = {
  title: "merchant.page.title",
  description: "merchant.page.description",
} as const;

export type DashboardPageSources = {
  index: IndexHtml;
  render: PageRenderer;
  /** The catalogs' words (the server-rendering entry's): the `<title>` and description are the page's own. */
  translate: PageTranslator;
  origin: string;
  /** Elements the first paint uses (the backdrop's preload): they stay in the head. */
  preload: string;
  /** The dashboard's own code (modulepreload links): it waits with the entry's until the page has painted. */
  code: string;
  /**
   * The reader's language (decision 038, `requestLocale`): the frame is rendered in it and the HTML says so, so the
   * browser hydrates it in the same words.
   */
  locale?: Locale;
};

/**
 * The dashboard of a signed-in user with its frame in the HTML (decision 025): the header, the page's title and
 * backdrop, and the business section in its loading state, rendered with the user as `GET /api/user` answers it.
 * The browser hydrates that markup and loads the business itself, as before. The page holds the user's name and
 * email: it is sent `no-store`, for this request only.
 */
export async function renderDashboardPage(user: User, sources: DashboardPageSources): Promise<string | null> {
  // The answer of GET /api/user exactly: the schema drops whatever else the caller's value carries.
  const data = { "/api/user": userResponse.parse(user) };
  const markup = await sources.render("/merchant", data, sources.locale);
  if (markup === null) return null;
  // The same words the page's frame gives the document (PageFrame: `merchant.page.title`), so the title does not
  // change back to English, or at all, when the browser hydrates.
  const locale = sources.locale ?? DEFAULT_LOCALE;
  const meta: PageMeta = {
    title: await sources.translate(locale, DASHBOARD_META_IDS.title),
    description: await sources.translate(locale, DASHBOARD_META_IDS.description),
  };
  return pageHtmlText(sources.index, meta, `${sources.origin}/merchant`, sources.origin, {
    body: { markup, data },
    head: sources.code,
    preload: sources.preload,
    locale: sources.locale,
  });
}
