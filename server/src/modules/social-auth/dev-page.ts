import { SOCIAL_PROVIDER_NAMES, type SocialProvider } from "@common/social.ts";
import { escapeHtml } from "../web/page-meta.ts";

/**
 * The development stand-in for a provider without credentials (never served in production): a plain form, no
 * script, so the whole redirect flow works on a fresh machine.
 */
export const DEV_PAGE_STYLE =
  "body{font-family:system-ui,sans-serif;background:#0b1220;color:#e6e9ef;display:grid;place-items:center;min-height:100vh;margin:0}" +
  "main{background:#131c2e;border:1px solid #2a3550;border-radius:12px;padding:24px;width:min(360px,90vw)}" +
  "h1{font-size:1.25rem;margin:0 0 4px}p{color:#aab3c5;font-size:.875rem;margin:0 0 16px}" +
  ".badge{display:inline-block;background:#f59e0b;color:#111;border-radius:999px;padding:2px 10px;font-size:.75rem;font-weight:600;margin-bottom:12px}" +
  "label{display:block;font-size:.875rem;margin:12px 0 4px}input{width:100%;box-sizing:border-box;padding:10px;border-radius:8px;border:1px solid #3a4766;background:#0b1220;color:inherit;font-size:1rem}" +
  "button{margin-top:20px;width:100%;padding:12px;border:0;border-radius:8px;background:#3b82f6;color:#fff;font-size:1rem;font-weight:600;cursor:pointer}" +
  ".cancel{display:block;margin-top:12px;text-align:center;color:#93c5fd;font-size:.875rem}" +
  "button:focus-visible,input:focus-visible,a:focus-visible{outline:2px solid #93c5fd;outline-offset:2px}";

export function devSignInPage(provider: SocialProvider, state: string): string {
  const name = SOCIAL_PROVIDER_NAMES[provider];
  // As a real provider does when the person declines: back to the callback with the error and the same state.
  const cancelUrl = `/api/social-auth/${provider}/callback?error=access_denied&state=${encodeURIComponent(state)}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<link rel="icon" type="image/svg+xml" href="/favicon.svg">
<title>Development sign-in (${escapeHtml(name)}) · CPXTB Pay</title>
<style>${DEV_PAGE_STYLE}</style>
</head>
<body>
<main>
<span class="badge">Development only</span>
<h1>Sign in with ${escapeHtml(name)} (development)</h1>
<p>${escapeHtml(name)} sign-in is not configured on this server, so this page stands in for it. Any name and email work; the same email is the same account.</p>
<form method="get" action="/api/social-auth/${provider}/dev/authorize">
<input type="hidden" name="state" value="${escapeHtml(state)}">
<label for="name">Name</label>
<input id="name" name="name" required maxlength="100" autocomplete="name">
<label for="email">Email</label>
<input id="email" name="email" type="email" required maxlength="200" autocomplete="email">
<button type="submit">Continue</button>
</form>
<a class="cancel" href="${escapeHtml(cancelUrl)}">Cancel</a>
</main>
</body>
</html>`;
}
