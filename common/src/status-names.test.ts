import { describe, expect, it } from "vitest";
import { PAYMENT_STATUSES } from "./payment-values.ts";
import { REFUND_STATUSES } from "./refund-values.ts";
import {
  PAYMENT_STATUS_DESCRIPTIONS,
  PAYMENT_STATUS_NAMES,
  paymentStatusName,
  REFUND_STATUS_NAMES,
} from "./status-names.ts";

describe("status names", () => {
  it("names every payment status once, in words a person reads", () => {
    expect(Object.keys(PAYMENT_STATUS_NAMES).sort()).toEqual([...PAYMENT_STATUSES].sort());
    expect(Object.keys(PAYMENT_STATUS_DESCRIPTIONS).sort()).toEqual([...PAYMENT_STATUSES].sort());
    const names = Object.values(PAYMENT_STATUS_NAMES);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) {
      expect(name).toMatch(/^[A-Z][a-z]+( [a-z]+)*$/);
      expect(name).not.toContain("_");
    }
    for (const sentence of Object.values(PAYMENT_STATUS_DESCRIPTIONS))
      expect(sentence).toMatch(/^[A-Z].*\.$/);
  });

  it("uses the names the product speaks", () => {
    expect(PAYMENT_STATUS_NAMES).toMatchObject({
      completed: "Paid",
      partial: "Partly paid",
      paid_late: "Paid late",
      expired: "Expired",
    });
    expect(paymentStatusName("paid_late")).toBe("Paid late");
    expect(paymentStatusName("something_new")).toBe("something_new");
  });

  it("names every refund status", () => {
    expect(Object.keys(REFUND_STATUS_NAMES).sort()).toEqual([...REFUND_STATUSES].sort());
  });
});
