import { AppError } from "../../errors.ts";

/**
 * The path (with query and fragment) to send the browser back to, when `raw` points at one of `origins`: an
 * absolute URL of our own origin, or a path that starts with a single "/". Anything else (another host, `//host`,
 * `/\host`, `javascript:`, a look-alike host like our-host.evil.test) is refused, so the sign-in can never be used
 * as an open redirect.
 */
export function sameOriginPath(raw: string | undefined, origins: string[]): string {
  if (raw === undefined || raw === "") return "/";
  const refuse = () =>
    new AppError("BAD_REQUEST", "redirectUrl must be an address on this site.", { field: "redirectUrl" });
  // Control characters and backslashes are read differently by browsers and URL parsers: refuse them outright.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: that is the point
  if (/[\u0000-\u001f\u007f\\]/.test(raw)) throw refuse();
  if (raw.startsWith("/")) {
    if (raw.startsWith("//")) throw refuse();
    const url = new URL(raw, "http://placeholder.invalid");
    if (url.origin !== "http://placeholder.invalid") throw refuse();
    return `${url.pathname}${url.search}${url.hash}`;
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse();
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw refuse();
  if (url.username || url.password) throw refuse();
  if (!origins.includes(url.origin)) throw refuse();
  return `${url.pathname}${url.search}${url.hash}`;
}
