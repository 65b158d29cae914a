/**
 * The address on this site that `raw` names, or null when it names anything else. Used by every redirect to a
 * user-given place (the server's social sign-in `redirectUrl`, the sign-in page's `next`), so the browser can
 * never be sent off the site.
 *
 * The check is made on the parsed, normalised result, not on the raw text: `/.//evil.test`, `/%2e%2e//evil.test`
 * and `/a/..//evil.test` all start with a single "/" but normalise to the path `//evil.test`, which a browser
 * reads as another host. So the result must be on one of `origins` (the first is the base for paths) with no
 * user name or password, and its path must not start with "//". Control characters (browsers drop tabs and
 * newlines, so `/\t/evil.test` is `//evil.test`) and backslashes (`/\evil.test` is `//evil.test` to a browser)
 * are refused outright. Only "/..." paths and absolute http(s) URLs are read; `https:evil.test` (no "//") is
 * read as the absolute URL it is, never resolved against our origin.
 */
export function sameOriginUrl(raw: string | null | undefined, origins: readonly string[]): URL | null {
  if (!raw || origins.length === 0) return null;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are refused on purpose
  if (/[\u0000-\u001f\u007f\\]/.test(raw)) return null;
  let url: URL;
  try {
    if (raw.startsWith("/")) url = new URL(raw, origins[0]);
    else if (/^https?:/i.test(raw)) url = new URL(raw);
    else return null;
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  if (url.username || url.password) return null;
  if (!origins.includes(url.origin)) return null;
  if (url.pathname.startsWith("//") || url.pathname.includes("\\")) return null;
  return url;
}

/** The path, query and fragment of a URL `sameOriginUrl` accepted: always one "/" then a non-"/" (or nothing). */
export function pathOf(url: URL): string {
  return `${url.pathname}${url.search}${url.hash}`;
}
