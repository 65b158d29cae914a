import { describe, expect, it } from "vitest";
import { isPayable } from "./payable";

const at = Date.parse("2026-01-01T12:00:00Z");
const expiresAt = "2026-01-01T12:15:00Z";

describe("isPayable", () => {
  it("offers only pending and partly paid payments, before their expiry", () => {
    expect(isPayable({ status: "pending", expiresAt }, at)).toBe(true);
    expect(isPayable({ status: "partial", expiresAt }, at)).toBe(true);
    for (const status of ["processing", "completed", "paid_late", "expired", "cancelled", "invalid"] as const)
      expect(isPayable({ status, expiresAt }, at)).toBe(false);
  });

  it("never offers a payment past its expiry, even before the server says expired", () => {
    expect(isPayable({ status: "pending", expiresAt }, Date.parse(expiresAt))).toBe(false);
  });
});
