/**
 * Where to go after signing in: `raw` when it is a path of this site ("/..." but not "//host" or "/\host"),
 * else `fallback`. A path to the sign-in page itself is unwrapped to its own `next` (a social sign-in comes back
 * to the page it started from, which may be /auth?next=...).
 */
export function safeNextPath(raw: string | null | undefined, fallback = "/merchant"): string {
  if (!raw?.startsWith("/") || raw.startsWith("//")) return fallback;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are refused on purpose
  if (/[\u0000-\u001f\u007f\\]/.test(raw)) return fallback;
  const base = "http://placeholder.invalid";
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    return fallback;
  }
  if (url.origin !== base) return fallback;
  if (url.pathname === "/auth") return safeNextPath(url.searchParams.get("next"), fallback);
  return `${url.pathname}${url.search}${url.hash}`;
}
