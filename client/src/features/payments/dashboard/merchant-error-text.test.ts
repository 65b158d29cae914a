import { i18n } from "@lingui/core";
import { beforeAll, describe, expect, it } from "vitest";
import { loadMessages } from "@/i18n/i18n";
import { ApiError } from "@/lib/api-error";
import { merchantErrorText } from "./merchant-error-text";

function apiError(status: number, code?: string, message?: string) {
  const body = code ? { error: { code, message } } : undefined;
  return new ApiError(status, `${status}: ${body ? JSON.stringify(body) : "Status Text"}`, body);
}

beforeAll(async () => {
  await loadMessages("en", ["merchant", "pay"]);
  await loadMessages("de", ["merchant", "pay"]);
});

describe("merchantErrorText: a failed request on the dashboard, in the merchant's language", () => {
  it("reads the server's sentences, those with values in them too", () => {
    i18n.activate("de");
    expect(
      merchantErrorText(
        apiError(409, "CONFLICT", "Another business already receives payments at this wallet address."),
      ),
    ).toBe("Ein anderes Unternehmen empfängt bereits Zahlungen an dieser Wallet-Adresse.");
    expect(
      merchantErrorText(
        apiError(409, "CONFLICT", "This transaction has 1 of 3 confirmations. Try again in a moment."),
      ),
    ).toBe("Diese Transaktion hat 1 von 3 Bestätigungen. Versuchen Sie es gleich noch einmal.");
    // The checkout's own words where the payer meets the same sentence.
    expect(
      merchantErrorText(
        apiError(404, "NOT_FOUND", "This transaction is not in a block yet. Try again once it is mined."),
      ),
    ).toBe("Diese Transaktion ist noch in keinem Block. Versuchen Sie es erneut, sobald sie bestätigt ist.");
  });

  it("reads a code it has no sentence for, and keeps an unknown sentence as the server wrote it", () => {
    i18n.activate("de");
    expect(
      merchantErrorText(apiError(403, "FORBIDDEN", "As staff of this business you cannot do this.")),
    ).toBe(
      "Ihre Rolle in diesem Unternehmen erlaubt das nicht. Fragen Sie den Inhaber oder einen Administrator.",
    );
    expect(merchantErrorText(apiError(409, "CONFLICT", "A sentence the dashboard does not know."))).toBe(
      "A sentence the dashboard does not know.",
    );
  });

  it("reads the wallet's own sentences, and shows one it does not know as the wallet said it", () => {
    i18n.activate("de");
    expect(
      merchantErrorText(new Error("You rejected the signature request in your wallet. Nothing was signed.")),
    ).toBe("Sie haben die Signaturanfrage in Ihrer Wallet abgelehnt. Nichts wurde signiert.");
    expect(merchantErrorText(new Error("Chain 8453 is not configured in the wallet."))).toBe(
      "Chain 8453 is not configured in the wallet.",
    );
  });

  it("in English, says what the server says", () => {
    i18n.activate("en");
    expect(merchantErrorText(apiError(409, "CONFLICT", "You already registered a business."))).toBe(
      "You already registered a business.",
    );
  });
});
