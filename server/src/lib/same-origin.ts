/**
 * True when a browser's Origin header names this site: the host the request was sent to, or PUBLIC_URL
 * (behind a proxy that rewrites Host). Used against cross-site WebSocket hijacking and CSRF.
 */
export function isSameOrigin(
  origin: string,
  host: string | undefined,
  publicUrl: string | undefined,
): boolean {
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false;
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return false;
  if (host && parsed.host.toLowerCase() === host.toLowerCase()) return true;
  if (publicUrl) {
    try {
      return new URL(publicUrl).origin === parsed.origin;
    } catch {
      return false;
    }
  }
  return false;
}
