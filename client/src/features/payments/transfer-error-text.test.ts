import { i18n } from "@lingui/core";
import { beforeAll, describe, expect, it } from "vitest";
import { WalletFailure, walletFailureOf } from "@/features/wallet/wallet-errors";
import { loadMessages } from "@/i18n/i18n";
import { transferErrorText, walletFailureText } from "./transfer-error-text";

beforeAll(async () => {
  for (const locale of ["en", "de", "ar"] as const) await loadMessages(locale, ["pay", "buy"]);
});

const rejected = (step: "connect" | "switch" | "transaction") =>
  walletFailureOf({ code: 4001, message: "User rejected the request." }, step);
const unknownNetwork = () => walletFailureOf({ code: 4902, message: "Unrecognized chain ID" }, "switch");
const noFunds = () =>
  walletFailureOf(
    {
      name: "TransactionExecutionError",
      cause: { name: "InsufficientFundsError", message: "insufficient funds" },
    },
    "transaction",
  );
const other = () => walletFailureOf({ shortMessage: "Some wallet trouble." }, "transaction");
const ACCOUNT = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const ORDER = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
const otherAccount = () =>
  new WalletFailure("Your wallet is on …", "otherAccount", null, { account: ACCOUNT, expected: ORDER });

describe("the browser wallet's failures on the checkout, in the payer's language (issue 37)", () => {
  it("keeps the English sentences the screens said before (the English screens show the message)", () => {
    expect(rejected("transaction").message).toBe("You rejected the transaction in your wallet.");
    expect(rejected("switch").message).toBe("You rejected the network switch in your wallet.");
    expect(unknownNetwork().message).toBe("Your wallet does not know this network yet.");
    expect(other().message).toBe("Some wallet trouble.");
    expect(noFunds().kind).toBe("noFunds");
  });

  it("says them in English", () => {
    i18n.activate("en");
    expect(transferErrorText(rejected("connect"))).toBe(
      "You rejected the connection request in your wallet.",
    );
    expect(transferErrorText(noFunds())).toBe("Your wallet does not hold enough ETH for the network fee.");
    expect(transferErrorText(other())).toBe("The wallet did not complete the request.");
  });

  it("says them in German", () => {
    i18n.activate("de");
    expect(transferErrorText(rejected("transaction"))).toBe(
      "Sie haben die Transaktion in Ihrer Wallet abgelehnt.",
    );
    expect(transferErrorText(unknownNetwork())).toBe("Ihre Wallet kennt dieses Netzwerk noch nicht.");
    expect(transferErrorText(new WalletFailure("No browser wallet was found.", "noWallet"))).toBe(
      "Keine Browser-Wallet gefunden. Scannen Sie den QR-Code mit einer Wallet auf Ihrem Smartphone.",
    );
    // Not a wallet's failure: the shared reading, never the English message.
    expect(transferErrorText(new Error("HTTP request failed. Status: 500"))).not.toContain("HTTP");
  });

  it("says them in Arabic, the buy page's accounts isolated left to right", () => {
    i18n.activate("ar");
    expect(transferErrorText(rejected("switch"))).toBe("رفضت تبديل الشبكة في محفظتك.");
    expect(walletFailureText(otherAccount(), { otherAccount: "buy.wallet.otherAccount" })).toBe(
      `محفظتك على الحساب \u2066${ACCOUNT}\u2069، لكن هذا الطلب للمحفظة \u2066${ORDER}\u2069. بدّل الحساب في محفظتك.`,
    );
    // The checkout has no sentence for another account: undefined, the caller's fallback says it.
    expect(walletFailureText(otherAccount())).toBeUndefined();
  });
});
