import { i18n } from "@lingui/core";
import { beforeAll, describe, expect, it } from "vitest";
import { loadMessages } from "@/i18n/i18n";
import { ApiError } from "@/lib/api-error";
import { merchantErrorText } from "./merchant-error-text";

function apiError(status: number, code?: string, message?: string, details?: Record<string, unknown>) {
  const body = code ? { error: { code, message, details } } : undefined;
  return new ApiError(status, `${status}: ${body ? JSON.stringify(body) : "Status Text"}`, body);
}

beforeAll(async () => {
  await loadMessages("en", ["merchant", "pay"]);
  await loadMessages("de", ["merchant", "pay"]);
  await loadMessages("ar", ["merchant", "pay"]);
});

describe("merchantErrorText: a failed request on the dashboard, in the merchant's language", () => {
  it("reads the server's sentences", () => {
    i18n.activate("de");
    expect(
      merchantErrorText(
        apiError(409, "CONFLICT", "Another business already receives payments at this wallet address."),
      ),
    ).toBe("Ein anderes Unternehmen empfängt bereits Zahlungen an dieser Wallet-Adresse.");
    // The checkout's own words where the payer meets the same sentence.
    expect(
      merchantErrorText(
        apiError(404, "NOT_FOUND", "This transaction is not in a block yet. Try again once it is mined."),
      ),
    ).toBe("Diese Transaktion ist noch in keinem Block. Versuchen Sie es erneut, sobald sie bestätigt ist.");
  });

  it("says a refund's or a cancel's refusal by its reason, the values in the reader's formats", () => {
    const address = "0x52908400098527886E0F7030069857D2E4169EE7";
    const refusals = [
      apiError(409, "CONFLICT", "This transaction has 1 of 3 confirmations. Try again in a moment.", {
        reason: "not_confirmed",
        confirmations: 1,
        required: 3,
      }),
      apiError(422, "UNPROCESSABLE", "…", {
        reason: "amount_differs",
        sent: "1234.5",
        expected: "1234.000821",
        token: "CPXTB",
      }),
      apiError(409, "CONFLICT", "…", { reason: "above_refundable", refundable: "0.25", token: "CPXTB" }),
      apiError(422, "UNPROCESSABLE", "…", { reason: "other_recipient", address }),
      apiError(422, "UNPROCESSABLE", "…", { reason: "no_token_transfer", token: "CPXTB" }),
      apiError(409, "CONFLICT", "…", { reason: "not_cancellable", status: "completed" }),
    ];
    i18n.activate("en");
    expect(refusals.map(merchantErrorText)).toEqual([
      "This transaction has 1 of 3 confirmations. Try again in a moment.",
      "This transfer's amount (1,234.5 CPXTB) is not the refund's amount (1,234.000821 CPXTB). Nothing was recorded.",
      "A refund can be at most what was received minus what was refunded: 0.25 CPXTB.",
      `This transfer went to another address than the refund address ${address}. Nothing was recorded.`,
      "This transaction holds no CPXTB transfer (another token?). Nothing was recorded.",
      "Only an open payment that received nothing can be cancelled (status: Paid).",
    ]);
    i18n.activate("de");
    expect(refusals.map(merchantErrorText)).toEqual([
      "Diese Transaktion hat 1 von 3 Bestätigungen. Versuchen Sie es gleich noch einmal.",
      "Der Betrag dieser Überweisung (1.234,5 CPXTB) ist nicht der Betrag der Rückerstattung (1.234,000821 CPXTB). Nichts wurde erfasst.",
      "Eine Rückerstattung beträgt höchstens das Empfangene abzüglich des bereits Erstatteten: 0,25 CPXTB.",
      `Diese Überweisung ging an eine andere Adresse als die Rückerstattungsadresse ${address}. Nichts wurde erfasst.`,
      "Diese Transaktion enthält keine CPXTB-Überweisung (ein anderer Token?). Nichts wurde erfasst.",
      "Nur eine offene Zahlung, die nichts erhalten hat, kann storniert werden (Status: Bezahlt).",
    ]);
    i18n.activate("ar");
    const arabic = refusals.map(merchantErrorText);
    // Amounts and the address are left-to-right isolates inside the Arabic sentence.
    expect(arabic[1]).toContain("\u20661,234.5 CPXTB\u2069");
    expect(arabic[1]).toContain("\u20661,234.000821 CPXTB\u2069");
    expect(arabic[2]).toContain("\u20660.25 CPXTB\u2069");
    expect(arabic[3]).toContain(`\u2066${address}\u2069`);
    expect(arabic[5]).toMatch(/^لا يمكن إلغاء .*\(الحالة: .+\)\.$/);
    expect(arabic[0]).toBe("لهذه المعاملة 1 من أصل 3 تأكيدات. حاول مرة أخرى بعد قليل.");
    // An unknown status, or a value missing: the general sentence, or the server's.
    i18n.activate("en");
    expect(
      merchantErrorText(apiError(409, "CONFLICT", "…", { reason: "not_cancellable", status: "odd" })),
    ).toBe("Only an open payment that received nothing can be cancelled.");
    expect(
      merchantErrorText(
        apiError(409, "CONFLICT", "The server's own sentence.", { reason: "above_refundable" }),
      ),
    ).toBe("The server's own sentence.");
  });

  it("says a refused switch to another business in the reader's words", () => {
    const refused = apiError(404, "NOT_FOUND", "You are not a member of that business.");
    i18n.activate("en");
    expect(merchantErrorText(refused)).toBe(
      "You are not a member of that business (any more). Reload the page.",
    );
    i18n.activate("de");
    expect(merchantErrorText(refused)).toBe(
      "Sie sind kein Mitglied (mehr) dieses Unternehmens. Laden Sie die Seite neu.",
    );
    i18n.activate("ar");
    expect(merchantErrorText(refused)).toBe(
      "لست عضوًا في هذا النشاط التجاري (أو لم تعد كذلك). أعد تحميل الصفحة.",
    );
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

  it("says why a USD request found no price, by its reason", () => {
    i18n.activate("de");
    expect(
      merchantErrorText(
        apiError(503, "SERVICE_UNAVAILABLE", "The CPXTB price is stale (last updated 12 min ago).", {
          reason: "price_stale",
        }),
      ),
    ).toMatch(/^Der CPXTB-Kurs wird gerade aktualisiert/);
    // The dashboard's own sentence for an unusable price (it can ask in CPXTB instead) comes first.
    expect(
      merchantErrorText(
        apiError(503, "SERVICE_UNAVAILABLE", "The CPXTB price is not usable.", { reason: "price_unusable" }),
      ),
    ).toMatch(/fordern Sie in CPXTB an/);
    i18n.activate("ar");
    expect(
      merchantErrorText(
        apiError(502, "BAD_GATEWAY", "The price pool has no liquidity.", { reason: "price_pool_empty" }),
      ),
    ).toMatch(/^لا يتوفر الآن سعر صالح لـ CPXTB/);
  });

  it("in English, says what the server says", () => {
    i18n.activate("en");
    expect(merchantErrorText(apiError(409, "CONFLICT", "You already registered a business."))).toBe(
      "You already registered a business.",
    );
  });
});
