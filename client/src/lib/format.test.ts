import { describe, expect, it } from "vitest";
import { formatLongDate, formatUtcDateTime, groupThousands } from "./format";

describe("format without Intl", () => {
  it("writes dates as en-US Intl does", () => {
    for (let day = 0; day < 800; day += 7) {
      const date = new Date(Date.UTC(2025, 0, 1) + day * 86_400_000);
      const isoDay = date.toISOString().slice(0, 10);
      const intl = date.toLocaleDateString("en-US", { dateStyle: "long", timeZone: "UTC" });
      expect(formatLongDate(isoDay)).toBe(intl);
    }
    expect(formatUtcDateTime("2026-03-07T14:05:09.000Z")).toBe("March 7, 2026, 14:05 UTC");
  });

  it("groups thousands as en-US Intl does", () => {
    for (const n of [0, 7, 12, 999, 1000, 12_345, 999_999, 1_000_000, 123_456_789]) {
      expect(groupThousands(String(n))).toBe(n.toLocaleString("en-US"));
    }
    expect(groupThousands("007")).toBe("7");
  });
});
