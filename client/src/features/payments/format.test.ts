import { describe, expect, it } from "vitest";
import {
  formatCountdown,
  formatDate,
  formatDateTime,
  formatRelative,
  formatTokenAmount,
  formatUsd,
  plainTokenAmount,
  shortAddress,
} from "./format";

describe("payment formatting", () => {
  it("groups thousands and keeps the exact decimals, never scientific notation", () => {
    expect(formatTokenAmount("1234567.000123")).toBe("1,234,567.000123");
    expect(formatTokenAmount("0.000001")).toBe("0.000001");
    expect(formatTokenAmount("100.500000000000000000")).toBe("100.5");
    expect(formatTokenAmount("1000")).toBe("1,000");
    expect(formatTokenAmount("0")).toBe("0");
  });
  it("gives the typeable amount without grouping", () => {
    expect(plainTokenAmount("1234.000120000000000000")).toBe("1234.00012");
    expect(plainTokenAmount("5.000000")).toBe("5");
  });
  it("formats USD, addresses and countdowns", () => {
    expect(formatUsd("1234.5")).toBe("$1,234.50");
    expect(formatUsd("3")).toBe("$3.00");
    expect(shortAddress("0x1234567890abcdef1234567890abcdef12345678")).toBe("0x1234…5678");
    expect(formatCountdown(14 * 60_000 + 3_000)).toBe("14:03");
    expect(formatCountdown(3_600_000 + 61_000)).toBe("1:01:01");
    expect(formatCountdown(-5)).toBe("0:00");
  });
  it("formats dates in local time without Intl, and recent times relatively", () => {
    const local = new Date(2026, 10, 4, 9, 5).toISOString(); // 4 Nov 2026, 09:05 on this machine's clock
    expect(formatDate(local)).toBe("4 Nov 2026");
    expect(formatDateTime(local)).toBe("4 Nov 2026, 09:05");
    const now = new Date(2026, 10, 6, 12, 0).getTime();
    expect(formatRelative(new Date(now - 10_000).toISOString(), now)).toBe("just now");
    expect(formatRelative(new Date(now - 5 * 60_000).toISOString(), now)).toBe("5 min ago");
    expect(formatRelative(new Date(now - 3 * 3_600_000).toISOString(), now)).toBe("3 h ago");
    expect(formatRelative(local, now)).toBe("4 Nov 2026");
  });
});
