import { i18n } from "@lingui/core";
import { beforeAll, describe, expect, it } from "vitest";
import { loadMessages } from "@/i18n/i18n";
import { ApiError } from "@/lib/api-error";
import { buyErrorText, buyUnavailableText, deliveryNoteText, orderProblemText } from "./buy-error-text";
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
    // A plain error (a library's English) is never shown as it is: the wallet's own come as a WalletFailure.
    expect(buyErrorText(new Error("You rejected the request in your wallet."))).toBe(
      "Etwas ist schiefgelaufen. Bitte versuchen Sie es erneut.",
    );
  });
});

// server/src/modules/buy/service.ts submitEthPayment and paypal.ts: the English sentence, its reason and values.
const FROM = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const WALLET = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
const otherSender = (refund: boolean) =>
  apiError(
    422,
    "UNPROCESSABLE",
    `This transaction was sent from ${FROM}, not from this order's wallet ${WALLET}; it does not pay this order.${refund ? " The ETH is listed for refund." : ""}`,
    { reason: "tx_other_sender", from: FROM, wallet: WALLET, refund },
  );
const declined = () =>
  apiError(422, "UNPROCESSABLE", "PayPal declined the payment (INSTRUMENT_DECLINED).", {
    reason: "paypal_declined",
    issue: "INSTRUMENT_DECLINED",
  });
const notMined = () =>
  apiError(404, "NOT_FOUND", "This transaction is not mined yet. Try again in a moment.", {
    reason: "tx_not_mined",
  });
const noAnswer = () =>
  apiError(502, "BAD_GATEWAY", "PayPal did not answer. Try again in a moment.", {
    reason: "paypal_no_answer",
  });
const alreadyPaid = (refund: boolean) =>
  apiError(
    409,
    "CONFLICT",
    `This order is already paid by another transaction.${refund ? " This second payment is listed for refund." : " Once it is confirmed, this second payment is listed for refund."}`,
    { reason: "order_already_paid", refund },
  );

describe("buyErrorText: every refusal by its reason, in the buyer's language, with its values", () => {
  it("reads in English as the server wrote it", () => {
    i18n.activate("en");
    for (const error of [
      otherSender(true),
      otherSender(false),
      declined(),
      notMined(),
      noAnswer(),
      alreadyPaid(true),
      alreadyPaid(false),
    ])
      expect(buyErrorText(error)).toBe((error.body as { error: { message: string } }).error.message);
  });

  it("says them in German, the addresses and PayPal's code as they are", () => {
    i18n.activate("de");
    expect(buyErrorText(otherSender(true))).toBe(
      `Diese Transaktion wurde von ${FROM} gesendet, nicht von der Wallet dieser Bestellung ${WALLET}; sie bezahlt diese Bestellung nicht. Das ETH ist zur Erstattung vorgemerkt.`,
    );
    expect(buyErrorText(otherSender(false))).toBe(
      `Diese Transaktion wurde von ${FROM} gesendet, nicht von der Wallet dieser Bestellung ${WALLET}; sie bezahlt diese Bestellung nicht.`,
    );
    expect(buyErrorText(declined())).toBe("PayPal hat die Zahlung abgelehnt (INSTRUMENT_DECLINED).");
    expect(buyErrorText(notMined())).toBe(
      "Diese Transaktion ist noch nicht in einem Block. Versuchen Sie es gleich noch einmal.",
    );
    expect(buyErrorText(noAnswer())).toBe(
      "PayPal hat nicht geantwortet. Versuchen Sie es gleich noch einmal.",
    );
    expect(buyErrorText(alreadyPaid(false))).toBe(
      "Diese Bestellung ist bereits durch eine andere Transaktion bezahlt. Sobald sie bestätigt ist, wird diese zweite Zahlung zur Erstattung vorgemerkt.",
    );
  });

  it("says them in Arabic, the addresses and the code isolated left to right", () => {
    i18n.activate("ar");
    expect(buyErrorText(otherSender(true))).toBe(
      `أُرسلت هذه المعاملة من \u2066${FROM}\u2069، لا من محفظة هذا الطلب \u2066${WALLET}\u2069؛ فهي لا تدفع هذا الطلب. أُدرج مبلغ ETH للاسترداد.`,
    );
    expect(buyErrorText(declined())).toBe("رفض PayPal الدفعة (\u2066INSTRUMENT_DECLINED\u2069).");
  });

  it("keeps the server's sentence for a reason it does not know, or a value missing", () => {
    i18n.activate("de");
    const unknown = apiError(422, "UNPROCESSABLE", "A new refusal.", { reason: "something_new" });
    expect(buyErrorText(unknown)).toBe("A new refusal.");
    const bare = apiError(422, "UNPROCESSABLE", "PayPal declined the payment (X).", {
      reason: "paypal_declined",
    });
    expect(buyErrorText(bare)).toBe("PayPal declined the payment (X).");
    const inherited = apiError(422, "UNPROCESSABLE", "Inherited.", { reason: "toString" });
    expect(buyErrorText(inherited)).toBe("Inherited.");
  });
});

// server/src/modules/buy/service.ts outcomeFor, orderSendListener and paypal.ts: the English sentence stored in
// `problem`, and the reason with its values in `problemDetails`.
const underpaid = {
  problem:
    "Paid 0.012499999999999999 ETH of the 0.0125 ETH due: no CPXTB is sent; the ETH is listed for refund.",
  problemDetails: { reason: "underpaid", paid: "0.012499999999999999", due: "0.0125" },
};
const overpaid = {
  problem: "Paid 1234.000000000000000001 ETH more than due; the excess is listed for refund.",
  problemDetails: { reason: "overpaid", excess: "1234.000000000000000001" },
};
const late = {
  problem: "Paid after the quote expired: no CPXTB is sent at the old price; the ETH is listed for refund.",
  problemDetails: { reason: "paid_late" },
};
const deliveryFailed = {
  problem: "Sending the CPXTB failed on chain; our team was alerted and will deliver or refund.",
  problemDetails: { reason: "delivery_failed" },
};
const paypalExpired = {
  problem: "The quote expired before the payment was completed: nothing was charged. Start a new order.",
  problemDetails: { reason: "paypal_expired" },
};
const paypalAmount = {
  problem:
    "PayPal captured 1.00 EUR, not the 1234.5 USD quoted: no CPXTB is sent; the payment is listed for refund.",
  problemDetails: { reason: "paypal_amount", captured: "1.00", currency: "EUR", quotedUsd: "1234.5" },
};

describe("orderProblemText: an order's problem in the buyer's language, its amounts exact", () => {
  it("reads in English as the server wrote it", () => {
    i18n.activate("en");
    for (const order of [underpaid, overpaid, late, deliveryFailed, paypalExpired, paypalAmount])
      expect(orderProblemText(order)).toBe(order.problem);
  });

  it("says them in German, the ETH amounts as the server wrote them", () => {
    i18n.activate("de");
    expect(orderProblemText(underpaid)).toBe(
      "0.012499999999999999 ETH der fälligen 0.0125 ETH bezahlt: Es werden keine CPXTB gesendet; das ETH ist zur Erstattung vorgemerkt.",
    );
    expect(orderProblemText(overpaid)).toBe(
      "1234.000000000000000001 ETH mehr als fällig bezahlt; der Überschuss ist zur Erstattung vorgemerkt.",
    );
    expect(orderProblemText(paypalAmount)).toBe(
      "PayPal hat 1.00 EUR eingezogen, nicht die angebotenen 1.234,5 USD: Es werden keine CPXTB gesendet; die Zahlung ist zur Erstattung vorgemerkt.",
    );
    expect(orderProblemText(deliveryFailed)).not.toMatch(/[Ss]ending/);
  });

  it("says them in Arabic, the amounts isolated left to right", () => {
    i18n.activate("ar");
    expect(orderProblemText(underpaid)).toBe(
      "دُفع \u20660.012499999999999999\u2069 ETH من أصل \u20660.0125\u2069 ETH المستحقة: لن يُرسل CPXTB؛ أُدرج مبلغ ETH للاسترداد.",
    );
    expect(orderProblemText(overpaid)).toBe(
      "دُفع \u20661234.000000000000000001\u2069 ETH أكثر من المستحق؛ أُدرج المبلغ الزائد للاسترداد.",
    );
  });

  it("keeps the server's sentence for a reason it does not know, a value missing, or no details", () => {
    i18n.activate("de");
    expect(orderProblemText({ problem: "A new problem.", problemDetails: { reason: "something_new" } })).toBe(
      "A new problem.",
    );
    expect(orderProblemText({ problem: "Inherited.", problemDetails: { reason: "toString" } })).toBe(
      "Inherited.",
    );
    const noCurrency = {
      problem: paypalAmount.problem,
      problemDetails: { reason: "paypal_amount", captured: "1.00", quotedUsd: "25" },
    };
    expect(orderProblemText(noCurrency)).toBe(paypalAmount.problem);
    expect(orderProblemText({ problem: late.problem, problemDetails: null })).toBe(late.problem);
  });
});

describe("deliveryNoteText: the treasury's note on a delivery in the buyer's language", () => {
  const delivery = (note: string | null, noteReason: string | null) => ({
    status: "queued" as const,
    txHash: null,
    txUrl: null,
    note,
    noteReason,
  });
  const lowBalance = "The treasury's balance is too low; this delivery waits until it is refilled.";

  it("reads in English as the server wrote it, in German in German, and keeps an unknown note", () => {
    i18n.activate("en");
    expect(deliveryNoteText(delivery(lowBalance, "low_balance"))).toBe(lowBalance);
    i18n.activate("de");
    expect(deliveryNoteText(delivery(lowBalance, "low_balance"))).toBe(
      "Das Guthaben der Treasury ist zu niedrig; diese Lieferung wartet, bis es aufgefüllt ist.",
    );
    expect(deliveryNoteText(delivery("Something else.", null))).toBe("Something else.");
    expect(deliveryNoteText(delivery(null, null))).toBeNull();
    expect(deliveryNoteText(null)).toBeNull();
  });
});

describe("buying unavailable: the config's reason and a buy's 503 in the buyer's language (issue 37)", () => {
  const noChain = "Buying CPXTB is unavailable: the server has no chain connection.";
  const noTreasury = "Buying CPXTB is unavailable: no treasury is configured.";
  const config = (unavailableReason: "no_chain" | "no_treasury" | null, reason: string | null) => ({
    reason,
    unavailableReason,
  });
  const refused = () => apiError(503, "SERVICE_UNAVAILABLE", noChain, { reason: "no_chain" });

  it("reads in English as the server wrote it", () => {
    i18n.activate("en");
    expect(buyUnavailableText(config("no_chain", noChain))).toBe(noChain);
    expect(buyUnavailableText(config("no_treasury", noTreasury))).toBe(noTreasury);
    expect(buyErrorText(refused())).toBe(noChain);
  });

  it("says it in German and Arabic; an unknown reason keeps the server's sentence", () => {
    i18n.activate("de");
    expect(buyUnavailableText(config("no_chain", noChain))).toBe(
      "Der Server kann die Blockchain gerade nicht erreichen. Bitte versuchen Sie es später erneut.",
    );
    expect(buyUnavailableText(config("no_treasury", noTreasury))).toBe(
      "Dieser Server ist nicht für den Verkauf von CPXTB eingerichtet.",
    );
    expect(buyErrorText(refused())).toBe(
      "Der Server kann die Blockchain gerade nicht erreichen. Bitte versuchen Sie es später erneut.",
    );
    expect(buyUnavailableText(config(null, "Something new."))).toBe("Something new.");
    const noEthPrice = apiError(
      503,
      "SERVICE_UNAVAILABLE",
      "Paying with ETH is unavailable: the server has no ETH/USD price (ETH_USD_FEED_ADDRESS).",
      { reason: "no_eth_price" },
    );
    const stale = apiError(
      503,
      "SERVICE_UNAVAILABLE",
      "The CPXTB price is stale (last updated 12 min ago); quotes are paused until it updates.",
      { reason: "price_stale" },
    );
    expect(buyErrorText(stale)).toBe(
      "Der CPXTB-Kurs wird gerade aktualisiert, deshalb können USD-Beträge kurz nicht umgerechnet werden. Bitte versuchen Sie es gleich noch einmal.",
    );
    // The price's other failures: the node (a 502 or 504), a feed or pool that gives no usable price.
    const unreachable = apiError(
      502,
      "BAD_GATEWAY",
      "The blockchain node could not be used to read the price. Please try again.",
      { reason: "price_unreachable" },
    );
    expect(buyErrorText(unreachable)).toMatch(
      /^Der CPXTB-Kurs konnte gerade nicht von der Blockchain gelesen/,
    );
    const poolEmpty = apiError(502, "BAD_GATEWAY", "The price pool has no liquidity.", {
      reason: "price_pool_empty",
    });
    expect(buyErrorText(poolEmpty)).toMatch(/^Gerade ist kein nutzbarer CPXTB-Kurs verfügbar/);
    expect(buyErrorText(noEthPrice)).toBe(
      "Bezahlen mit ETH ist gerade nicht möglich: Dem Server fehlt ein ETH/USD-Kurs.",
    );
    i18n.activate("ar");
    expect(buyUnavailableText(config("no_treasury", noTreasury))).toBe("هذا الخادم غير مُعدّ لبيع CPXTB.");
    expect(buyErrorText(refused())).toBe("لا يستطيع الخادم الاتصال بالبلوك تشين الآن. يُرجى المحاولة لاحقًا.");
  });
});
