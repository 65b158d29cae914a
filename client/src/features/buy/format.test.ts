import { describe, expect, it } from "vitest";
import { dollars, grouped } from "./format";

describe("the quote's amounts", () => {
  it("group thousands and drop trailing zeros, in English as before", () => {
    expect(grouped("12500.500000", 6)).toBe("12,500.5");
    expect(grouped("0.000123456789", 6)).toBe("0.000123");
    expect(grouped("1234.5", 2)).toBe("1,234.5");
  });

  it("use the locale's separators", () => {
    expect(grouped("12500.5", 6, "de")).toBe("12.500,5");
    expect(grouped("12500.5", 6, "fr")).toBe("12\u202f500,5");
    expect(grouped("12500.5", 6, "ar")).toBe("12,500.5");
  });
});

describe("the buy pages' dollars", () => {
  it("are written as before in English, the locale's way elsewhere, never cut", () => {
    expect(dollars("12500.5", "en")).toBe("$12,500.5");
    expect(dollars("1000", "en", false)).toBe("$1000");
    expect(dollars("0.00125", "de")).toMatch(/^0,00125\s?\$$/);
    expect(dollars("12500.5", "pt-BR")).toMatch(/12\.500,50/);
  });
});
