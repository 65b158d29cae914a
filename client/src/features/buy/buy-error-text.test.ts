import { i18n } from "@lingui/core";
import { beforeAll, describe, expect, it } from "vitest";
import { loadMessages } from "@/i18n/i18n";
import { ApiError } from "@/lib/api-error";
import { buyErrorText } from "./buy-error-text";
import { dollars } from "./format";

function apiError(status: number, code: string, message: string, details?: Record<string, unknown>) {
  const body = { error: { code, message, ...(details ? { details } : {}) } };
  return new ApiError(status, `${status}: ${JSON.stringify(body)}`, body);
}

// server/src/modules/buy/quote.ts checkLimits: the English sentence, and the limit in `details`.
const below = () =>
  apiError(400, "VALIDATION_ERROR", "The minimum order is $1; increase the amount.", {
    reason: "below_minimum",
    minUsd: "1",
  });
const above = () =>
  apiError(400, "VALIDATION_ERROR", "The maximum order is $1000; reduce the amount.", {
    reason: "above_maximum",
    maxUsd: "1000",
  });

// The buy pages load "buy" and "pay" (lazy-pages.ts).
beforeAll(async () => {
  for (const locale of ["en", "de", "ar"] as const) await loadMessages(locale, ["buy", "pay"]);
});

describe("buyErrorText: the order's limits in the buyer's language, the amount in the locale's format", () => {
  it("reads in English as the server wrote it", () => {
    i18n.activate("en");
    expect(buyErrorText(below())).toBe("The minimum order is $1; increase the amount.");
    expect(buyErrorText(above())).toBe("The maximum order is $1000; reduce the amount.");
  });

  it("says the limits in German, in German amounts", () => {
    i18n.activate("de");
    expect(buyErrorText(below())).toBe("Der Mindestbestellwert beträgt 1,00\u00a0$; erhöhen Sie den Betrag.");
    expect(buyErrorText(above())).toBe(
      "Der Höchstbestellwert beträgt 1.000,00\u00a0$; verringern Sie den Betrag.",
    );
  });

  it("says them in Arabic, the amount isolated left to right", () => {
    i18n.activate("ar");
    expect(buyErrorText(below())).toBe(
      `الحد الأدنى للطلب \u2066${dollars("1", "ar", false)}\u2069؛ يُرجى زيادة المبلغ.`,
    );
  });

  it("keeps the server's sentence when the limit is missing, and reads the shared answers", () => {
    i18n.activate("de");
    expect(buyErrorText(apiError(400, "VALIDATION_ERROR", "The amount is too small to buy any CPXTB."))).toBe(
      "The amount is too small to buy any CPXTB.",
    );
    expect(buyErrorText(apiError(429, "RATE_LIMITED", "Too many requests."))).not.toMatch(/Too many/);
    expect(buyErrorText(new Error("You rejected the request in your wallet."))).toBe(
      "You rejected the request in your wallet.",
    );
  });
});
