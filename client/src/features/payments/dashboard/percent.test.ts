import { describe, expect, it } from "vitest";
import { formatBpsPercent } from "./percent";

describe("formatBpsPercent: a payment's accepted underpayment, per locale", () => {
  it("writes the percent the locale's way, latin digits, at most two decimals", () => {
    expect(formatBpsPercent(50, "en")).toBe("0.5%");
    expect(formatBpsPercent(125, "en")).toBe("1.25%");
    expect(formatBpsPercent(100, "en")).toBe("1%");
    expect(formatBpsPercent(50, "de")).toBe("0,5\u00a0%");
    expect(formatBpsPercent(50, "fr")).toMatch(/^0,5[\u00a0\u202f]%$/);
    expect(formatBpsPercent(50, "tr")).toBe("%0,5");
    expect(formatBpsPercent(125, "ar")).toMatch(/^1\.25\u200e?[%٪]\u200e?$/);
    expect(formatBpsPercent(125, "ar")).not.toMatch(/[\u0660-\u0669]/);
    expect(formatBpsPercent(5, "zh-CN")).toBe("0.05%");
  });
});
