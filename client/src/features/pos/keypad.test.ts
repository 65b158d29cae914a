import { describe, expect, it } from "vitest";
import { decimalOf, formatHundredths, hundredthsOf, MAX_DIGITS, press, tipOf } from "./keypad";

const type = (keys: string[]) => keys.reduce((d, k) => press(d, k as Parameters<typeof press>[1]), "");

describe("the counter's keypad", () => {
  it("enters digits from the right into hundredths, like a till", () => {
    expect(formatHundredths(hundredthsOf(type(["1", "2", "5"])))).toBe("1.25");
    expect(formatHundredths(hundredthsOf(type(["4", "00"])))).toBe("4.00");
    expect(formatHundredths(hundredthsOf(""))).toBe("0.00");
    expect(formatHundredths(123456789n)).toBe("1,234,567.89");
    expect(decimalOf(123456789n)).toBe("1234567.89");
  });

  it("ignores leading zeros, goes back one digit, clears, and stops at its largest amount", () => {
    expect(type(["0", "0", "7"])).toBe("7");
    expect(type(["00"])).toBe("");
    expect(type(["1", "2", "back"])).toBe("1");
    expect(type(["back"])).toBe("");
    expect(type(["9", "9", "clear"])).toBe("");
    const full = "9".repeat(MAX_DIGITS);
    expect(press(full, "1")).toBe(full);
    expect(press("9".repeat(MAX_DIGITS - 1), "00")).toBe("9".repeat(MAX_DIGITS - 1));
  });

  it("adds a tip rounded half up to the hundredth; no tip is zero", () => {
    expect(tipOf(1000n, 15)).toBe(150n);
    expect(tipOf(333n, 10)).toBe(33n);
    expect(tipOf(335n, 10)).toBe(34n);
    expect(tipOf(1000n, 0)).toBe(0n);
  });
});
