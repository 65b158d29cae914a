import { renderToString } from "react-dom/server";
import { Router } from "wouter";
import { AppLayout } from "./app/app-layout";
import { prerenderedPageFor } from "./app/lazy-pages";
import { ThemeProvider } from "./features/theme/theme-provider";
import { queryClient } from "./lib/query-client";

/**
 * Server rendering of the content pages (decision 009), built by `vite build` into dist/ssr and called by the
 * server: the HTML of `path` inside #root, or null when the path is not a page rendered on the server. `data` is
 * the query data the page reads (by query key); the server embeds the same JSON so the browser's first render
 * matches. Client-only parts (toasts, session start, the live users widget) render nothing here.
 */
export async function renderPage(path: string, data: Record<string, unknown>): Promise<string | null> {
  const page = prerenderedPageFor(path);
  if (!page) return null;
  await page.preload();
  // Seeded, rendered and cleared in one synchronous step: concurrent renders never see each other's data, and no
  // query is left behind with a garbage-collection timer that would keep the server process alive.
  try {
    for (const [key, value] of Object.entries(data)) queryClient.setQueryData([key], value);
    return disableButtons(
      renderToString(
        <Router ssrPath={path}>
          <ThemeProvider>
            <AppLayout />
          </ThemeProvider>
        </Router>,
      ),
    );
  } finally {
    queryClient.clear();
  }
}

/**
 * Buttons do nothing until the app replaces this HTML, so they arrive disabled (links work as they are): a tap
 * that comes too early is refused visibly instead of lost, and Playwright waits for the live button.
 * index.css keeps them at full opacity while the page is the server's.
 */
function disableButtons(markup: string): string {
  return markup.replace(/<button(?=[\s>])/g, "<button disabled");
}
