import { i18n } from "@lingui/core";
import { beforeAll, describe, expect, it } from "vitest";
import { buyErrorText } from "@/features/buy/buy-error-text";
import {
  receiptFailureOf,
  revertedFailure,
  WalletFailure,
  walletFailureOf,
} from "@/features/wallet/wallet-errors";
import { loadMessages } from "@/i18n/i18n";
import { sentUnconfirmedHash, transferErrorText, walletFailureText } from "./transfer-error-text";

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

describe("every other way the browser wallet can fail, as a WalletFailure in the payer's words (issue 37)", () => {
  const HASH = `0x${"ab".repeat(32)}`;
  // The libraries' own errors, as wagmi and viem throw them (their English never reaches the page).
  const chainMismatch = {
    name: "TransactionExecutionError",
    shortMessage:
      "The current chain of the wallet (id: 1) does not match the target chain for the transaction.",
    cause: { name: "ChainMismatchError", message: "The current chain of the wallet (id: 1)…" },
  };
  const connectorMismatch = {
    name: "ConnectorChainMismatchError",
    message: "The current chain of the connector…",
  };
  const cannotSwitch = { name: "SwitchChainNotSupportedError", message: '"Injected" does not support…' };
  const pending = {
    name: "ResourceUnavailableRpcError",
    code: -32002,
    cause: { code: -32002, message: "Request of type 'wallet_requestPermissions' already pending" },
  };
  const timeout = {
    name: "WaitForTransactionReceiptTimeoutError",
    shortMessage: `Timed out while waiting for transaction with hash "${HASH}" to be confirmed.`,
  };

  it("reads each by its kind, keeping an English sentence for the English screens", () => {
    expect(walletFailureOf(chainMismatch, "transaction").kind).toBe("wrongNetwork");
    expect(walletFailureOf(connectorMismatch, "transaction").kind).toBe("wrongNetwork");
    expect(walletFailureOf(cannotSwitch, "switch").kind).toBe("wrongNetwork");
    expect(walletFailureOf(pending, "connect").kind).toBe("pending");
    const unconfirmed = receiptFailureOf(timeout, HASH);
    expect(unconfirmed).toMatchObject({ kind: "unconfirmed", values: { hash: HASH } });
    expect(unconfirmed.message).toMatch(/^Your payment was sent/);
    expect(revertedFailure(HASH)).toMatchObject({ kind: "reverted", values: { hash: HASH } });
    // A receipt that could not be read is "not confirmed yet" too: it may still be mined.
    expect(receiptFailureOf(new Error("HTTP request failed."), HASH).kind).toBe("unconfirmed");
    expect(sentUnconfirmedHash(unconfirmed)).toBe(HASH);
    expect(sentUnconfirmedHash(revertedFailure(HASH))).toBeUndefined();
    expect(sentUnconfirmedHash(new Error("x"))).toBeUndefined();
  });

  it("says them in German and Arabic, on the checkout and the buy page", () => {
    i18n.activate("de");
    expect(transferErrorText(walletFailureOf(chainMismatch, "transaction"))).toBe(
      "Ihre Wallet ist in einem anderen Netzwerk und hat nicht gewechselt. Wechseln Sie das Netzwerk in Ihrer Wallet und versuchen Sie es dann erneut.",
    );
    expect(transferErrorText(walletFailureOf(pending, "connect"))).toMatch(/^In Ihrer Wallet wartet bereits/);
    expect(transferErrorText(receiptFailureOf(timeout, HASH))).toMatch(/^Ihre Zahlung wurde gesendet/);
    expect(buyErrorText(receiptFailureOf(timeout, HASH))).toMatch(/^Ihre Zahlung wurde gesendet/);
    expect(buyErrorText(revertedFailure(HASH))).toMatch(/auf der Blockchain fehlgeschlagen/);
    // A library's error that is not a WalletFailure: the shared reading, never its English message.
    expect(buyErrorText(new Error("The current chain of the wallet (id: 1) does not match"))).toBe(
      "Etwas ist schiefgelaufen. Bitte versuchen Sie es erneut.",
    );
    i18n.activate("ar");
    expect(transferErrorText(revertedFailure(HASH))).toBe(
      "فشلت معاملتك على البلوك تشين (أُلغيت): لم يُرسَل شيء، واستُهلكت رسوم الشبكة فقط. يُرجى المحاولة مرة أخرى.",
    );
    expect(buyErrorText(walletFailureOf(cannotSwitch, "switch"))).toMatch(/^محفظتك على شبكة أخرى/);
  });
});
