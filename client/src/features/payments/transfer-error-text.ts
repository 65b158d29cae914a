import type { WalletFailure, WalletStep } from "@/features/wallet/wallet-errors";
import { currentLocale, t } from "@/i18n/i18n";
import { isolate } from "@/i18n/ltr";
import { apiErrorText } from "./pay-error-text";

/** Literal ids, so the catalog check sees each one used. */
const REJECTED: Record<WalletStep, string> = {
  connect: "pay.wallet.rejectedConnect",
  switch: "pay.wallet.rejectedSwitch",
  transaction: "pay.wallet.rejectedTransaction",
  signature: "pay.wallet.rejectedSignature",
};

/** A screen's own sentences where the checkout's would not fit it (the buy page: another advice, ETH to pay). */
export type WalletFailureWords = { noWallet?: string; otherAccount?: string; noFunds?: string };

/**
 * The browser wallet's failure (features/wallet/wallet-errors.ts `WalletFailure`, read by its name: this module does
 * not load the wallet code) in the reader's words (issue 37), the accounts isolated left to right; undefined for
 * another error or a value missing.
 */
export function walletFailureText(error: unknown, words: WalletFailureWords = {}): string | undefined {
  if ((error as { name?: unknown } | null)?.name !== "WalletFailure") return undefined;
  const { kind, step, values } = error as WalletFailure;
  switch (kind) {
    case "noWallet":
      return t(words.noWallet ?? "pay.wallet.noWallet");
    case "rejected":
      return t(REJECTED[step ?? "transaction"] ?? "pay.wallet.rejectedTransaction");
    case "unknownNetwork":
      return t("pay.wallet.unknownNetwork");
    case "noAccount":
      return t("pay.wallet.noAccount");
    case "otherAccount": {
      if (!words.otherAccount || !values?.account || !values.expected) return undefined;
      const locale = currentLocale();
      return t(words.otherAccount, {
        account: isolate(values.account, locale),
        wallet: isolate(values.expected, locale),
      });
    }
    case "noFunds":
      return t(words.noFunds ?? "pay.wallet.noFunds");
    case "wrongNetwork":
      return t("pay.wallet.wrongNetwork");
    case "pending":
      return t("pay.wallet.pending");
    case "unconfirmed":
      return t("pay.wallet.unconfirmed");
    case "reverted":
      return t("pay.wallet.reverted");
    case "incomplete":
      return t("pay.wallet.incomplete");
    default:
      return undefined;
  }
}

/**
 * Why the checkout's browser wallet did not send the payment, in the payer's words: the wallet's failure (rejected,
 * an unknown or another network, a request already waiting, no ETH for the fee, failed on chain, sent but not
 * confirmed yet…), else the shared reading of a failed request; never the wallet's English (an insufficient CPXTB
 * balance has its own box on the pay view).
 */
export function transferErrorText(error: unknown): string {
  return walletFailureText(error) ?? apiErrorText(error);
}

/**
 * The hash of a transaction the wallet sent whose confirmation did not come back (`unconfirmed`): the page still
 * hands it to the server, and says it was sent rather than "not sent".
 */
export function sentUnconfirmedHash(error: unknown): `0x${string}` | undefined {
  if ((error as { name?: unknown } | null)?.name !== "WalletFailure") return undefined;
  const { kind, values } = error as WalletFailure;
  return kind === "unconfirmed" && values?.hash?.startsWith("0x")
    ? (values.hash as `0x${string}`)
    : undefined;
}
