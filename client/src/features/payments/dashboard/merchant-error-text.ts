import type { PaymentStatus } from "@common/payments";
import { currentLocale, t } from "@/i18n/i18n";
import { isolate } from "@/i18n/ltr";
import { isApiError } from "@/lib/api-error";
import { formatExactTokenAmount } from "../format";
import { apiErrorText, detailOf } from "../pay-error-text";
import { STATUS_LABEL_ID } from "../payment-status";
import { walletFailureText } from "../transfer-error-text";

/**
 * The server's sentences the dashboard and a payment's detail panel meet (server/src/modules/payments, merchants,
 * refunds), by their exact English wording: CONFLICT, UNPROCESSABLE and NOT_FOUND each carry several meanings there.
 * The checkout's own ("pay.error.…") where the payer meets the same sentence.
 */
const KNOWN_MESSAGES: Record<string, string> = {
  // Creating a payment.
  "The success URL is not a valid URL.": "merchant.error.successUrlInvalid",
  "The success URL must use https:// (http:// only to localhost in development).":
    "merchant.error.successUrlHttps",
  "All 999 unique amounts for this price are in use by open payments. Change the amount slightly or wait for some to expire.":
    "merchant.error.amountsInUse",
  "Too many payments of this amount are being created at once. Please try again.":
    "merchant.error.tooManyAtOnce",
  "Payments are unavailable: no blockchain connection is configured.": "merchant.error.noChain",
  "The CPXTB price is not usable.": "merchant.error.priceUnusable",
  "You have not registered a business yet.": "merchant.error.noBusiness",
  // Switching to another business (server/src/modules/team `switchBusiness`).
  "You are not a member of that business.": "merchant.error.notMemberOf",
  // Registering and editing the business.
  "The wallet address has a wrong checksum (EIP-55).": "merchant.error.walletChecksum",
  "The signature request is unknown, used or expired. Ask for a new one.": "merchant.error.challengeExpired",
  "The signature request was issued for another wallet address.": "merchant.error.challengeOtherWallet",
  "The signature was not made by that wallet.": "merchant.error.signatureWrong",
  "Another business already receives payments at this wallet address.": "merchant.error.walletTaken",
  "You already registered a business.": "merchant.error.alreadyRegistered",
  "A new wallet address needs a signature proof.": "merchant.error.proofNeeded",
  "You no longer have access to this business.": "merchant.state.noAccess",
  "You are no longer a member of this business. Ask its owner to invite you again.":
    "merchant.state.noLongerMember",
  "This business requires two-factor sign-in. Set up an authenticator app or a passkey in your profile first.":
    "merchant.state.twoFactorText",
  // A payment: regenerating, cancelling, verifying by hash.
  "No such payment.": "merchant.error.paymentNotFound",
  "Only an expired payment that received nothing can be regenerated.": "pay.error.cannotRegenerate",
  "The payment could not be regenerated. Please try again.": "merchant.error.regenerateFailed",
  "This payment has already received a transfer: it cannot be cancelled (refund it once it is paid).":
    "merchant.error.cancelReceived",
  "This transaction is not in a block yet. Try again once it is mined.": "pay.error.txNotMined",
  "This transaction failed on chain (reverted).": "pay.error.txReverted",
  "This transaction holds no CPXTB transfer to this payment's address.": "pay.error.txNoTransfer",
  "This transaction's transfer is already credited to another payment.": "pay.error.txTaken",
  // The inbox of unmatched transfers.
  "No such transfer in your inbox.": "merchant.error.transferNotInInbox",
  "This transfer is not in your inbox (any more).": "merchant.error.transferNotInInbox",
  "This transfer was removed from the chain by a reorganisation.": "merchant.error.transferReorged",
  "This payment was cancelled: a transfer cannot be credited to it.": "merchant.error.paymentCancelled",
  "This transfer went to another address than the payment's.": "merchant.error.transferOtherAddress",
  "This transfer is already credited to a payment.": "merchant.error.transferCredited",
  // Refunds.
  "Only a payment that received tokens (completed, paid late, partly paid or expired after a partial payment) can be refunded.":
    "merchant.error.notRefundable",
  "This transaction is not in a block (unknown hash, or not mined yet). Nothing was recorded.":
    "merchant.error.refundNotMined",
  "This transaction failed on chain (reverted). Nothing was recorded.": "merchant.error.refundReverted",
  "This transfer was not sent from your receiving wallet. Send the refund from the wallet that received the payment.":
    "merchant.error.refundNotFromWallet",
  "A refund goes to an address that paid this payment, or to one the payer gave through a refund link.":
    "merchant.error.refundAddressUnknown",
  "This transaction is a payment, not a refund. Nothing was recorded.": "merchant.error.refundIsPayment",
  "This transaction is already recorded as a refund. Nothing was recorded.": "merchant.error.refundRecorded",
  "This refund is more than what was received minus what was already refunded. Nothing was recorded.":
    "merchant.error.refundTooMuch",
  "Everything this payment received has been refunded already.": "merchant.error.refundedAlready",
};

const isStatus = (value: string | undefined): value is PaymentStatus =>
  value !== undefined && Object.hasOwn(STATUS_LABEL_ID, value);

/**
 * The refusals with a value in them (server/src/modules/payments/refunds.ts, service.ts `cancelPayment`), by their
 * `details.reason`: an amount in the locale's format with its token, an address, a count, a status by its name;
 * undefined for the others (or a value missing), which then read as the server wrote them.
 */
export function refundRefusalText(details: Record<string, unknown> | undefined): string | undefined {
  const locale = currentLocale();
  const token = detailOf(details, "token") ?? "CPXTB";
  const tokens = (key: string) => {
    const value = detailOf(details, key);
    return value === undefined
      ? undefined
      : isolate(`${formatExactTokenAmount(value, locale)} ${token}`, locale);
  };
  switch (details?.reason) {
    case "no_token_transfer":
      return t("merchant.error.refundNoTransfer", { token });
    case "other_recipient": {
      const address = detailOf(details, "address");
      return address
        ? t("merchant.error.refundOtherAddress", { address: isolate(address, locale) })
        : undefined;
    }
    case "amount_differs": {
      const sent = tokens("sent");
      const expected = tokens("expected");
      return sent && expected ? t("merchant.error.refundAmountDiffers", { sent, expected }) : undefined;
    }
    case "not_confirmed": {
      const count = detailOf(details, "confirmations");
      const required = detailOf(details, "required");
      return count && required
        ? t("merchant.error.refundConfirmations", { count: Number(count), required: Number(required) })
        : undefined;
    }
    case "above_refundable": {
      const amount = tokens("refundable");
      return amount ? t("merchant.error.refundAtMost", { amount }) : undefined;
    }
    case "not_cancellable": {
      const status = detailOf(details, "status");
      return isStatus(status)
        ? t("merchant.error.notCancellable", { status: t(STATUS_LABEL_ID[status]) })
        : t("merchant.error.cancelNotOpen");
    }
    default:
      return undefined;
  }
}

/** The wallet's own sentences (features/wallet), for the merchant's signature and refund. */
const WALLET_MESSAGES: Record<string, string> = {
  "No browser wallet was found. Install one to prove the address is yours.": "merchant.wallet.noWalletSign",
  "No browser wallet was found. Scan the QR code with a mobile wallet.": "merchant.wallet.noWallet",
  "You rejected the connection request in your wallet.": "merchant.wallet.rejectedConnection",
  "You rejected the signature request in your wallet. Nothing was signed.":
    "merchant.wallet.rejectedSignature",
  "You rejected the transaction in your wallet.": "merchant.wallet.rejectedTransaction",
  "You rejected the network switch in your wallet.": "merchant.wallet.rejectedSwitch",
  "The wallet did not share an account.": "merchant.wallet.noAccount",
};

/**
 * A failed request (or wallet step) on the dashboard or a payment's detail panel, in the reader's language
 * (issue 37): the server's sentences these screens know, then the shared reading of `apiErrorText`; the server's
 * own (English) message only for what they do not know. A wallet's error is read by its sentence, then as the
 * checkout reads a browser wallet's failure (`walletFailureText`: another network, sent but not confirmed…), else
 * shown as the wallet said it.
 */
export function merchantErrorText(error: unknown): string {
  if (!isApiError(error)) {
    if (error instanceof Error && !(error instanceof TypeError)) {
      const known = WALLET_MESSAGES[error.message.trim()];
      if (known) return t(known);
      const wallet = walletFailureText(error);
      if (wallet) return wallet;
      if (error.message.trim()) return error.message;
    }
    return apiErrorText(error);
  }
  return apiErrorText(error, {
    sentences: KNOWN_MESSAGES,
    signedOut: "merchant.error.signedOut",
    twoFactor: "merchant.state.twoFactorText",
    forbidden: "merchant.error.forbidden",
    byCode: ({ code, status, details }) => {
      const refusal = refundRefusalText(details);
      if (refusal) return refusal;
      if (code === "NOT_FOUND" || status === 404) return t("merchant.error.notFound");
      return undefined;
    },
  });
}
