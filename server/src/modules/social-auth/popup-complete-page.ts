import { directionOf, type Locale } from "@common/locales.ts";
import { translator } from "../../lib/i18n.ts";
import { escapeHtml } from "../web/page-meta.ts";

/** Where the basic login's window comes back to from the provider (client: features/social/social-session.ts). */
export const POPUP_COMPLETE_PATH = "/auth/social-complete";

const STYLE =
  ":root{color-scheme:light dark}body{font:16px/1.5 system-ui,sans-serif;margin:0;padding:24px;background:Canvas;color:CanvasText}";

/**
 * The end of the basic login's window, in its reader's language (issue 37): its script (client/public,
 * social-complete.js) tells the page that opened the window and closes it; a window the browser does not let a
 * script close says what happened. No app here: the app's entry stays without this page's words and code.
 */
export function popupCompletePage(locale: Locale): string {
  const t = translator(locale);
  return `<!doctype html>
<html lang="${locale}" dir="${directionOf(locale)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<link rel="icon" type="image/svg+xml" href="/favicon.svg">
<title>${escapeHtml(t("page.socialComplete.title"))} · CPXTB Pay</title>
<style>${STYLE}</style>
<script src="/social-complete.js" defer></script>
</head>
<body>
<main><p>${escapeHtml(t("page.socialComplete.text"))}</p></main>
</body>
</html>
`;
}
