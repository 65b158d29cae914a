import { describe, expect, it } from "vitest";
import { receivedUsdCents } from "../src/modules/payments/views.ts";

const E18 = 10n ** 18n;
const tokens = (whole: number) => BigInt(whole) * E18;
const base = {
  amountDue: tokens(1000),
  amountUsdCents: null,
  overpaid: false,
  priceE18: null,
  completedPriceE18: null,
  tokenDecimals: 18,
};

describe("the USD value of what was received", () => {
  it("is the USD amount asked once it is exactly covered", () => {
    expect(
      receivedUsdCents({ ...base, amountReceived: tokens(1000), amountUsdCents: 1200n, priceE18: E18 / 80n }),
    ).toBe(1200n);
  });

  it("values a partial payment's tokens at its locked rate, half a cent up", () => {
    // 333 tokens at 0.0125 USD = 4.1625 USD -> 416 cents; 334 tokens -> 4.175 -> 418 (half up).
    const usd = { ...base, amountUsdCents: 1250n, priceE18: (E18 * 125n) / 10_000n };
    expect(receivedUsdCents({ ...usd, amountReceived: tokens(333) })).toBe(416n);
    expect(receivedUsdCents({ ...usd, amountReceived: tokens(334) })).toBe(418n);
  });

  it("values a CPXTB amount at the rate when its tokens arrived, and never without a rate", () => {
    expect(receivedUsdCents({ ...base, amountReceived: tokens(1000), completedPriceE18: E18 / 100n })).toBe(
      1000n,
    );
    expect(receivedUsdCents({ ...base, amountReceived: tokens(1000) })).toBeNull();
    expect(receivedUsdCents({ ...base, amountReceived: 0n, completedPriceE18: E18 })).toBeNull();
  });
});
