import { describe, expect, it } from "vitest";
import { safeNextPath } from "./next-path";

describe("safeNextPath", () => {
  it("keeps paths of this site with their query and fragment", () => {
    expect(safeNextPath("/invitations/abc")).toBe("/invitations/abc");
    expect(safeNextPath("/payments?q=x#top")).toBe("/payments?q=x#top");
  });
  it("refuses anything that could leave the site", () => {
    for (const raw of [
      "//evil.test/x",
      "/\\evil.test",
      "https://evil.test/",
      "javascript:alert(1)",
      "",
      null,
      "x",
    ])
      expect(safeNextPath(raw)).toBe("/merchant");
  });
  it("unwraps the sign-in page's own next", () => {
    expect(safeNextPath(`/auth?next=${encodeURIComponent("/invitations/t")}`)).toBe("/invitations/t");
    expect(safeNextPath("/auth?tab=register")).toBe("/merchant");
  });
});
