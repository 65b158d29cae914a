import { describe, expect, it } from "vitest";
import { safeNextPath } from "./next-path";

const ORIGIN = "https://pay.example.test";
const next = (raw: string | null) => safeNextPath(raw, "/merchant", ORIGIN);

/** Each way of writing another site (or a script) as a "path": all must fall back, whatever the spelling. */
const OFF_SITE = [
  "//evil.example/x",
  "////evil.example",
  "/\\evil.example",
  "\\/evil.example",
  "/\\/evil.example",
  "\\\\evil.example",
  "/\t/evil.example",
  "/\n/evil.example",
  "/\r\n/evil.example",
  "/\u0000/evil.example",
  "/.//evil.example",
  "/..//evil.example",
  "/%2e%2e//evil.example",
  "/%2E%2E//evil.example",
  "/%2e//evil.example",
  "/.%2e//evil.example",
  "/a/..//evil.example",
  "/a/b/../..//evil.example",
  "/a/%2e%2e//evil.example",
  `${ORIGIN}/.//evil.example`,
  `${ORIGIN}/..//evil.example`,
  `${ORIGIN}//evil.example`,
  "javascript:alert(1)",
  "JaVaScRiPt:alert(1)",
  " javascript:alert(1)",
  "data:text/html,<script>alert(1)</script>",
  "https:evil.example",
  "https:/evil.example",
  "http:evil.example",
  "https://evil.example/",
  "http://pay.example.test/",
  "https://pay.example.test:8443/",
  "https://pay.example.test.evil.example/",
  `${ORIGIN}@evil.example/`,
  "https://user:pass@pay.example.test/",
  "https://pay.example.test@evil.example",
  "%2F%2Fevil.example",
  "%2F.%2F%2Fevil.example",
  "%252F%252Fevil.example",
  "evil.example",
  "x",
  "",
];

describe("safeNextPath", () => {
  it("keeps paths of this site with their query and fragment", () => {
    expect(next("/invitations/abc")).toBe("/invitations/abc");
    expect(next("/payments?q=x#top")).toBe("/payments?q=x#top");
    expect(next(`${ORIGIN}/pay/abc?x=1`)).toBe("/pay/abc?x=1");
    // Normalised paths that stay on the site are fine, as they are.
    expect(next("/a/../pay/abc")).toBe("/pay/abc");
    expect(next("/%2F%2Fevil.example")).toBe("/%2F%2Fevil.example");
    expect(next("/%5cevil.example")).toBe("/%5cevil.example");
  });
  it.each(OFF_SITE)("refuses %j", (raw) => {
    expect(next(raw)).toBe("/merchant");
  });
  it("refuses null, and never returns a path a browser reads as another host", () => {
    expect(next(null)).toBe("/merchant");
    for (const raw of OFF_SITE) expect(next(raw).startsWith("//")).toBe(false);
  });
  it("unwraps the sign-in page's own next, with the same checks", () => {
    expect(next(`/auth?next=${encodeURIComponent("/invitations/t")}`)).toBe("/invitations/t");
    expect(next("/auth?tab=register")).toBe("/merchant");
    expect(next(`/auth?next=${encodeURIComponent("/.//evil.example")}`)).toBe("/merchant");
    expect(next(`/auth?next=${encodeURIComponent("/%2e%2e//evil.example")}`)).toBe("/merchant");
  });
  it("uses this page's origin by default", () => {
    expect(safeNextPath(`${window.location.origin}/pay/x`)).toBe("/pay/x");
    expect(safeNextPath("/.//evil.example")).toBe("/merchant");
  });
});
