import { describe, expect, it } from "vitest";
import { mayUse, roleNoticeSentence, whoMay } from "./role-access";

describe("role access in words", () => {
  it("names who may use a screen", () => {
    expect(whoMay(["owner", "admin"])).toBe("owners and admins");
    expect(whoMay(["owner"])).toBe("the owner");
    expect(whoMay(["owner", "admin", "staff"])).toBe("owners, admins and staff");
  });

  it("says the audit log's sentence", () => {
    expect(roleNoticeSentence(["owner", "admin"], "see the audit log")).toBe(
      "Only owners and admins can see the audit log.",
    );
  });

  it("lets only the listed roles in", () => {
    expect(mayUse("staff", ["owner", "admin"])).toBe(false);
    expect(mayUse("admin", ["owner", "admin"])).toBe(true);
    expect(mayUse(undefined, ["owner", "admin"])).toBe(false);
  });
});
