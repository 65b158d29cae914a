import { DEFAULT_LOCALE, type Locale, MESSAGE_AREAS } from "@common/locales";
import { renderToString } from "react-dom/server";
import { Router } from "wouter";
import { App } from "./app/app";
import { prerenderedPageFor } from "./app/lazy-pages";
import { prepareServerRender, t } from "./i18n/i18n";
import { queryClient } from "./lib/query-client";

/**
 * Server rendering of the content pages (decision 009) and the pay page (decision 017), built by `vite build` into
 * dist/ssr and called by the server: the HTML of `url` (a path, with its query for /easy-payment) inside #root, or null when the path is not a page rendered on the server. `data` is
 * the query data the page reads (by query key); the server embeds the same JSON so the browser hydrates identical
 * markup (decision 017). Client-only parts (toasts, session start, the live users widget) render nothing here
 * and in the browser's hydrating render (`useHydrated`). A translated page (the checkout) is rendered in `locale`
 * (decision 038); the others are English.
 */
export async function renderPage(
  url: string,
  data: Record<string, unknown>,
  locale: Locale = DEFAULT_LOCALE,
): Promise<string | null> {
  const [path = "/", search = ""] = url.split("?", 2);
  const page = prerenderedPageFor(path);
  if (!page) return null;
  await page.preload();
  const activate = await prepareServerRender(locale, page.areas);
  // Seeded, rendered and cleared in one synchronous step: concurrent renders never see each other's data or
  // language, and no query is left behind with a garbage-collection timer that would keep the server process alive.
  try {
    activate();
    for (const [key, value] of Object.entries(data)) queryClient.setQueryData([key], value);
    return renderToString(
      <Router ssrPath={path} ssrSearch={search}>
        <App />
      </Router>,
    );
  } finally {
    queryClient.clear();
  }
}

/**
 * A message in `locale` for the page titles and descriptions the server writes (the pay page's, the dashboard's):
 * from the area its id names ("merchant.page.title": `merchant`).
 */
export async function translate(
  locale: Locale,
  id: string,
  values?: Record<string, string | number>,
): Promise<string> {
  const area = MESSAGE_AREAS.find((name) => id.startsWith(`${name}.`)) ?? "pay";
  const activate = await prepareServerRender(locale, [area]);
  activate();
  return t(id, values);
}
