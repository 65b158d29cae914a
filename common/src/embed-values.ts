// The pay button's plain values, apart from its zod schemas (embed.ts re-exports them): the checkout imports
// these without loading and building zod (issue 39).

/**
 * The pay button for other websites (issue 35 part 3, decision 035): the origins a merchant lets frame its
 * checkout, and the messages the checkout sends the page that embeds it.
 */

/** At most this many origins per business: a CSP header carries them all. */
export const MAX_EMBED_ORIGINS = 20;

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1"]);

/**
 * `value` as an origin (`scheme://host[:port]`, lower case, default port dropped), or a reason it is not one.
 * https only; http only for localhost and 127.0.0.1 and only when `allowLoopbackHttp` (the server says when: a
 * development site). A path, query, fragment, credentials, a wildcard or an IP other than loopback... are refused
 * rather than trimmed: what the merchant typed must be what the browser compares.
 */
export function normalizeEmbedOrigin(
  value: string,
  allowLoopbackHttp: boolean,
): { origin: string } | { problem: string } {
  const text = value.trim();
  if (text.includes("*")) return { problem: "wildcards are not allowed: list each origin" };
  if (!/^https?:\/\/[^\s/?#]+\/?$/i.test(text)) {
    return { problem: "must be an origin such as https://shop.example (no path, query or #)" };
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { problem: "is not a valid origin" };
  }
  if (url.username || url.password) return { problem: "must not contain a user name or password" };
  if (url.protocol === "http:") {
    if (!LOOPBACK_HOSTS.has(url.hostname)) return { problem: "must be https://" };
    if (!allowLoopbackHttp) {
      return { problem: "http://localhost is accepted only on a development server; use https://" };
    }
  }
  // What goes into a CSP header: letters, digits, dots and dashes (an IDN arrives as xn--), an optional port.
  if (!/^https?:\/\/[a-z0-9-]+(\.[a-z0-9-]+)*(:\d{1,5})?$/.test(url.origin)) {
    return { problem: "must be a host name such as shop.example" };
  }
  return { origin: url.origin };
}

export const embedOriginKey = (reference: string, origin: string) =>
  `/api/payments/public/${encodeURIComponent(reference)}/embed-origin?origin=${encodeURIComponent(origin)}`;

/** The same check for a payment link's page in the overlay (its business's origins). */
export const linkEmbedOriginKey = (slug: string, origin: string) =>
  `/api/links/public/${encodeURIComponent(slug)}/embed-origin?origin=${encodeURIComponent(origin)}`;

/** What the checkout posts to the embedding page (and embed.js passes on), version 1. */
export const EMBED_MESSAGE_SOURCE = "cpxtb-pay";
export type EmbedResult = "paid" | "expired" | "closed";
export type EmbedMessage =
  | {
      source: typeof EMBED_MESSAGE_SOURCE;
      version: 1;
      type: "result" | "status";
      /** On `result`: what the host page acts on. */
      result?: EmbedResult;
      reference: string;
      /** The payment's own status (pending, processing, completed…). */
      status: string;
    }
  | { source: typeof EMBED_MESSAGE_SOURCE; version: 1; type: "close" };

/** The host page's result for a payment status, or null while it is still open. */
export function embedResultOf(status: string): EmbedResult | null {
  if (status === "completed" || status === "paid_late") return "paid";
  if (status === "expired" || status === "cancelled") return "expired";
  return null;
}
