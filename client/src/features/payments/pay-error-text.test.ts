import { i18n } from "@lingui/core";
import { beforeAll, describe, expect, it } from "vitest";
import { loadMessages } from "@/i18n/i18n";
import { ApiError } from "@/lib/api-error";
import { apiErrorText, payErrorText } from "./pay-error-text";

function apiError(status: number, code?: string, message?: string, details?: Record<string, unknown>) {
  const body = code ? { error: { code, message, ...(details ? { details } : {}) } } : undefined;
  return new ApiError(status, `${status}: ${body ? JSON.stringify(body) : "Status Text"}`, body);
}

beforeAll(async () => {
  await loadMessages("en", ["pay"]);
  await loadMessages("de", ["pay", "pos", "team"]);
  await loadMessages("ar", ["pay"]);
});

describe("a price that could not be had, by its details.reason (server/src/chain/price.ts)", () => {
  it("says why in the reader's words on every screen, not that the server had a problem", () => {
    const stale = apiError(
      503,
      "SERVICE_UNAVAILABLE",
      "The CPXTB price is stale (last updated 12 min ago).",
      {
        reason: "price_stale",
      },
    );
    const node = apiError(504, "GATEWAY_TIMEOUT", "The blockchain node did not answer in time.", {
      reason: "price_unreachable",
    });
    const feed = apiError(502, "BAD_GATEWAY", "The ETH/USD feed returned a non-positive answer.", {
      reason: "price_feed_invalid",
    });
    i18n.activate("de");
    expect(payErrorText(stale, "link")).toMatch(/^Der CPXTB-Kurs wird gerade aktualisiert/);
    expect(payErrorText(node, "link")).toMatch(/^Der CPXTB-Kurs konnte gerade nicht/);
    expect(payErrorText(feed)).toMatch(/^Gerade ist kein nutzbarer CPXTB-Kurs/);
    expect(apiErrorText(stale)).toMatch(/^Der CPXTB-Kurs wird gerade aktualisiert/);
    i18n.activate("ar");
    expect(payErrorText(node, "link")).toBe(
      "تعذّرت قراءة سعر CPXTB من البلوك تشين الآن. يُرجى المحاولة مرة أخرى بعد قليل.",
    );
    i18n.activate("en");
    expect(payErrorText(stale, "link")).toBe(
      "The CPXTB price is being updated, so amounts in USD cannot be converted for a moment. Please try again shortly.",
    );
    // An unknown reason on a 5xx is still the server's problem.
    expect(payErrorText(apiError(503, "SERVICE_UNAVAILABLE", "New.", { reason: "price_new" }))).toBe(
      "The server had a problem. Please try again in a moment.",
    );
  });
});

describe("payErrorText: a failed request on a payer's screen, in the payer's language", () => {
  it("in English, reads exactly as the server's sentences do", () => {
    i18n.activate("en");
    expect(payErrorText(apiError(404, "NOT_FOUND", "No payment has this reference."))).toBe(
      "No payment has this reference.",
    );
    expect(
      payErrorText(
        apiError(400, "VALIDATION_ERROR", "The least you can pay here is 2.00 USD.", {
          minAmount: "2.00",
          currency: "USD",
        }),
        "link",
      ),
    ).toBe("The least you can pay here is 2.00 USD.");
    expect(
      payErrorText(apiError(409, "CONFLICT", "This payment link is switched off: it takes no payments.")),
    ).toBe("This payment link is switched off: it takes no payments.");
  });

  it("translates the codes and sentences it knows", () => {
    i18n.activate("de");
    expect(payErrorText(apiError(404, "NOT_FOUND", "No payment has this reference."))).toBe(
      "Zu dieser Referenz gibt es keine Zahlung.",
    );
    // The same code means something else on another screen.
    expect(payErrorText(apiError(404, "NOT_FOUND", "Something new."), "txHash")).toMatch(
      /noch in keinem Block/,
    );
    expect(payErrorText(apiError(404, "NOT_FOUND", "Something new."), "link")).toBe(
      "Unter dieser Adresse gibt es keinen Zahlungslink.",
    );
    expect(payErrorText(apiError(410, "GONE", "Whatever."), "refund")).toMatch(/abgelaufen/);
    expect(
      payErrorText(apiError(429, "RATE_LIMITED", "Too many requests. Please solve the security check.")),
    ).toBe("Zu viele Versuche. Bitte warten Sie einen Moment und versuchen Sie es erneut.");
    expect(payErrorText(apiError(503, "SERVICE_UNAVAILABLE", "The CPXTB price is not usable."))).toMatch(
      /Server ist ein Problem/,
    );
    expect(payErrorText(apiError(400, "VALIDATION_ERROR", "txHash: Invalid string"), "txHash")).toMatch(
      /Transaktions-Hash/,
    );
    expect(
      payErrorText(
        apiError(400, "VALIDATION_ERROR", "The least you can pay here is 2.00 USD.", {
          minAmount: "2.00",
          currency: "USD",
        }),
        "link",
      ),
    ).toBe("Sie zahlen hier mindestens 2.00 USD.");
    expect(
      payErrorText(
        apiError(
          409,
          "CONFLICT",
          "This payment was cancelled by the business. Your transfer was received and the business can see it; contact them for a refund.",
        ),
        "txHash",
      ),
    ).toMatch(/storniert/);
    expect(payErrorText(new TypeError("Failed to fetch"))).toMatch(/Server ist nicht erreichbar/);
  });

  it("shows the server's own English message for a sentence it does not know, never a code or JSON", () => {
    i18n.activate("de");
    expect(payErrorText(apiError(409, "CONFLICT", "A brand-new rule said no."))).toBe(
      "A brand-new rule said no.",
    );
    for (const status of [400, 401, 403, 409, 422]) {
      const text = payErrorText(apiError(status));
      expect(text).not.toMatch(/^\d{3}\b|\{/);
      expect(text.length).toBeGreaterThan(0);
    }
    expect(payErrorText(new Error("boom"))).toBe("Etwas ist schiefgelaufen. Bitte versuchen Sie es erneut.");
  });
});

describe("apiErrorText: the reading every translated screen shares", () => {
  const counter = {
    sentences: { "You have not registered a business yet.": "pos.error.noBusiness" },
    signedOut: "pos.error.signedOut",
    twoFactor: "pos.error.twoFactor",
    forbidden: "pos.error.forbidden",
    byCode: ({ code }: { code: string | undefined }) =>
      code === "CONFLICT" ? "the screen's own" : undefined,
  };

  it("a known sentence first, then the shared statuses with the screen's own words, then the screen's codes", () => {
    i18n.activate("de");
    const words = (id: string) => i18n._(id);
    expect(apiErrorText(apiError(409, "CONFLICT", "You have not registered a business yet."), counter)).toBe(
      words("pos.error.noBusiness"),
    );
    expect(apiErrorText(apiError(429, "RATE_LIMITED", "Slow down."), counter)).toBe(
      words("pay.error.rateLimited"),
    );
    expect(apiErrorText(apiError(401, "UNAUTHENTICATED", "Sign in."), counter)).toBe(
      words("pos.error.signedOut"),
    );
    expect(apiErrorText(apiError(403, "TWO_FACTOR_REQUIRED", "Two-factor."), counter)).toBe(
      words("pos.error.twoFactor"),
    );
    expect(apiErrorText(apiError(403, "FORBIDDEN", "No."), counter)).toBe(words("pos.error.forbidden"));
    expect(apiErrorText(apiError(408), counter)).toBe(words("pay.error.timeout"));
    expect(apiErrorText(apiError(502, "BAD_GATEWAY", "Upstream."), counter)).toBe(words("pay.error.server"));
    expect(apiErrorText(apiError(409, "CONFLICT", "Something else."), counter)).toBe("the screen's own");
    expect(apiErrorText(apiError(422, "UNPROCESSABLE", "A new rule."), counter)).toBe("A new rule.");
  });

  it("a screen without its own words for 401 or 403 shows the server's message; placeholders get the screen's values", () => {
    i18n.activate("de");
    expect(apiErrorText(apiError(401, "UNAUTHENTICATED", "Please sign in."))).toBe("Please sign in.");
    expect(
      apiErrorText(
        apiError(410, "GONE", "This invitation has expired (they last 7 days). Ask for a new one."),
        {
          sentences: {
            "This invitation has expired (they last 7 days). Ask for a new one.":
              "team.error.invitationExpired",
          },
          values: { days: 7 },
        },
      ),
    ).toBe(i18n._("team.error.invitationExpired", { days: 7 }));
    expect(apiErrorText(new TypeError("Failed to fetch"))).toBe(i18n._("pay.error.network"));
    expect(apiErrorText(new Error("boom"))).toBe(i18n._("pay.error.generic"));
  });

  it("a request refused for its shape is read by its schema's sentence; two problems stay as written", () => {
    i18n.activate("de");
    const words = { sentences: { "This invitation link is malformed.": "team.error.invitationInvalid" } };
    const refused = (message: string) => apiError(400, "VALIDATION_ERROR", message);
    expect(apiErrorText(refused("Invalid params: token: This invitation link is malformed."), words)).toBe(
      i18n._("team.error.invitationInvalid"),
    );
    expect(apiErrorText(refused("Invalid body: This invitation link is malformed."), words)).toBe(
      i18n._("team.error.invitationInvalid"),
    );
    const two = "Invalid params: token: This invitation link is malformed.; id: Required";
    expect(apiErrorText(refused(two), words)).toBe(two);
  });
});
