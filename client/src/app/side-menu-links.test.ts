import { describe, expect, it } from "vitest";
import { linksForRole, MAIN_LINKS, payerLinks } from "./side-menu-panel";

const hrefs = (role: Parameters<typeof linksForRole>[0]) => linksForRole(role).map((link) => link.href);

describe("the menu for a member's role (decision 021)", () => {
  it("is the spec's list when the role is unknown (signed out, no business)", () => {
    expect(linksForRole(undefined)).toEqual(MAIN_LINKS);
  });
  it("offers Team to owners and admins, right after the audit log", () => {
    for (const role of ["owner", "admin"] as const) {
      const list = hrefs(role);
      expect(list[list.indexOf("/audit-log") + 1]).toBe("/team");
    }
  });
  it("offers Payment Links to owners and admins, right after the payment history", () => {
    for (const role of ["owner", "admin"] as const) {
      const list = hrefs(role);
      expect(list[list.indexOf("/payments") + 1]).toBe("/links");
    }
    expect(hrefs("staff")).not.toContain("/links");
  });
  it("hides what staff cannot use", () => {
    const list = hrefs("staff");
    for (const href of ["/webhooks", "/developers", "/audit-log", "/team"]) expect(list).not.toContain(href);
    for (const href of ["/merchant", "/payments", "/reports", "/settings"]) expect(list).toContain(href);
  });
});

describe("the menu of a payer-only account (no business; issue 34)", () => {
  it("offers payer things and registering a business, never the merchant's tools", () => {
    const list = payerLinks(true).map((link) => link.href);
    expect(list).toEqual([
      "/",
      "/profile",
      "/buy-cpxtb?to=managed",
      "/merchant",
      "/blog",
      "/contact",
      "/presentation",
    ]);
    expect(payerLinks(true).find((link) => link.href === "/merchant")?.label).toBe(
      "site.menu.registerBusiness",
    );
    for (const href of [
      "/webhooks",
      "/developers",
      "/audit-log",
      "/team",
      "/payments",
      "/reports",
      "/settings",
    ])
      expect(list).not.toContain(href);
  });
  it("without a managed wallet, buying goes to the paying wallet and there is no wallet link", () => {
    const list = payerLinks(false).map((link) => link.href);
    expect(list).toContain("/buy-cpxtb");
    expect(list).not.toContain("/profile");
  });
});
