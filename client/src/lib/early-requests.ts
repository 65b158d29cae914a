/**
 * GET requests that index.html's inline script starts while the app's code is still loading: the session on every
 * page, the business on the dashboard, and on the counter (/pos) its business, products and today's sales. Without them the session was asked for only once the data layer had
 * loaded, and the business only after that (on a slow phone network, seconds after the HTML).
 */
declare global {
  interface Window {
    __cpxtbEarly?: { at: number; responses: Record<string, Promise<Response> | undefined> };
  }
}

/** An answer older than this is not used: the session or the data may have changed since. */
const FRESH_MS = 10_000;

/** The early answer for `url`, handed out once and only while fresh; undefined when there is none. */
export function takeEarlyResponse(url: string): Promise<Response> | undefined {
  const early = typeof window === "undefined" ? undefined : window.__cpxtbEarly;
  const response = early?.responses[url];
  if (!early || !response) return undefined;
  early.responses[url] = undefined;
  return Date.now() - early.at <= FRESH_MS ? response : undefined;
}

/** A change is being sent (sign-in, sign-out, an edit): what was asked before it is no longer the truth. */
export function dropEarlyResponses() {
  if (typeof window !== "undefined" && window.__cpxtbEarly) window.__cpxtbEarly.responses = {};
}
