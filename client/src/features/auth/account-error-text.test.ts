import { i18n } from "@lingui/core";
import { beforeAll, describe, expect, it } from "vitest";
import { WalletFailure, walletFailureOf } from "@/features/wallet/wallet-errors";
import { loadMessages } from "@/i18n/i18n";
import { ApiError } from "@/lib/api-error";
import { accountErrorText } from "./account-error-text";

function apiError(status: number, code: string, message: string, details?: Record<string, unknown>) {
  const body = { error: { code, message, ...(details ? { details } : {}) } };
  return new ApiError(status, `${status}: ${JSON.stringify(body)}`, body);
}

// server/src/modules/social-auth/service.ts `unlink`: the provider in the sentence, and by its key in `details`.
const lastWayIn = () =>
  apiError(409, "CONFLICT", "X is how you sign in. Set a password or link another way in first.", {
    reason: "last_way_in",
    provider: "twitter",
  });
const notLinked = () =>
  apiError(404, "NOT_FOUND", "No Google account is linked.", { reason: "not_linked", provider: "google" });

// The account screens load "account", "wallet", "pay" (lazy-pages.ts).
beforeAll(async () => {
  for (const locale of ["en", "de", "ar"] as const) await loadMessages(locale, ["account", "pay"]);
});

describe("accountErrorText: a social account's refusals, naming their provider", () => {
  it("reads in English as the server wrote it", () => {
    i18n.activate("en");
    expect(accountErrorText(lastWayIn())).toBe(
      "X is how you sign in. Set a password or link another way in first.",
    );
    expect(accountErrorText(notLinked())).toBe("No Google account is linked.");
  });

  it("says them in German and Arabic, the provider's own name kept", () => {
    i18n.activate("de");
    expect(accountErrorText(lastWayIn())).toBe(
      "Mit Ihrem X-Konto melden Sie sich an. Legen Sie ein Passwort fest oder verknüpfen Sie eine andere Anmeldemöglichkeit, bevor Sie es trennen.",
    );
    expect(accountErrorText(notLinked())).toBe("Es ist kein Google-Konto verknüpft.");
    i18n.activate("ar");
    expect(accountErrorText(notLinked())).toBe("لا يوجد حساب Google مرتبط.");
  });

  it("an unknown provider in the details leaves the server's sentence", () => {
    i18n.activate("de");
    const odd = apiError(404, "NOT_FOUND", "No Myspace account is linked.", {
      reason: "not_linked",
      provider: "myspace",
    });
    expect(accountErrorText(odd)).toBe("No Myspace account is linked.");
  });
});

describe("accountErrorText: a sign-in held back after many failures", () => {
  const throttled = (seconds: number) =>
    apiError(429, "RATE_LIMITED", `Too many sign-in attempts. Try again in ${seconds} seconds.`, {
      reason: "sign_in_throttled",
      retryAfterSeconds: seconds,
    });

  it("says how long to wait, in the reader's words and plural", () => {
    i18n.activate("en");
    expect(accountErrorText(throttled(1), { signingIn: true })).toBe(
      "Too many sign-in attempts. Try again in 1 second.",
    );
    expect(accountErrorText(throttled(42), { signingIn: true })).toBe(
      "Too many sign-in attempts. Try again in 42 seconds.",
    );
    i18n.activate("de");
    expect(accountErrorText(throttled(42), { signingIn: true })).toBe(
      "Zu viele Anmeldeversuche. Versuchen Sie es in 42 Sekunden erneut.",
    );
    i18n.activate("ar");
    expect(accountErrorText(throttled(2), { signingIn: true })).toBe(
      "محاولات تسجيل دخول كثيرة جدًا. حاول مرة أخرى بعد ثانيتين.",
    );
    expect(accountErrorText(throttled(5), { signingIn: true })).toBe(
      "محاولات تسجيل دخول كثيرة جدًا. حاول مرة أخرى بعد 5 ثوانٍ.",
    );
  });

  it("without its seconds, is the general 'too many attempts'", () => {
    i18n.activate("de");
    const bare = apiError(429, "RATE_LIMITED", "Too many sign-in attempts.", { reason: "sign_in_throttled" });
    expect(accountErrorText(bare, { signingIn: true })).not.toMatch(/Too many/);
  });
});

describe("accountErrorText: a passkey that could not be verified", () => {
  it("drops the library's English detail and says it in the reader's words", () => {
    const refused = apiError(
      400,
      "VALIDATION_ERROR",
      "The passkey could not be verified: Unexpected registration response origin",
    );
    i18n.activate("en");
    expect(accountErrorText(refused)).toBe("The passkey could not be verified.");
    i18n.activate("de");
    expect(accountErrorText(refused)).toBe("Der Passkey konnte nicht geprüft werden.");
    i18n.activate("ar");
    expect(accountErrorText(refused)).not.toMatch(/could not|Unexpected/);
  });
});

describe("accountErrorText: the browser wallet's refusals and failures (Sign-In with Ethereum, linking)", () => {
  const rejectedSignature = () =>
    new WalletFailure(
      "You rejected the signature request in your wallet. Nothing was signed.",
      "rejected",
      "signature",
    );
  const otherNetwork = () =>
    walletFailureOf({ name: "ChainMismatchError", message: "mismatch" }, "signature");
  const unknownFailure = () => walletFailureOf(new Error("Internal JSON-RPC error."), "connect");
  const noWallet = () =>
    new WalletFailure(
      "No browser wallet was found. Install one, or sign in with a password.",
      "noWallet",
      "connect",
    );

  it("reads in English as the account screens said them", () => {
    i18n.activate("en");
    expect(accountErrorText(rejectedSignature())).toBe(
      "You rejected the signature request in your wallet. Nothing was signed.",
    );
    expect(accountErrorText(noWallet())).toBe(
      "No browser wallet was found. Install one, or sign in with a password.",
    );
    expect(accountErrorText(walletFailureOf({ code: 4001 }, "connect"))).toBe(
      "You rejected the connection request in your wallet.",
    );
  });

  it("says every kind in German and Arabic, never the wallet's own English", () => {
    for (const locale of ["de", "ar"] as const) {
      i18n.activate(locale);
      const texts = [rejectedSignature(), otherNetwork(), unknownFailure(), noWallet()].map((e) =>
        accountErrorText(e),
      );
      expect(texts).toEqual([
        i18n._("pay.wallet.rejectedSignature"),
        i18n._("pay.wallet.wrongNetwork"),
        i18n._("pay.wallet.incomplete"),
        i18n._("account.error.noWallet"),
      ]);
      for (const text of texts)
        expect(text).not.toMatch(/rejected|another network|did not|JSON-RPC|browser wallet/i);
    }
  });
});
