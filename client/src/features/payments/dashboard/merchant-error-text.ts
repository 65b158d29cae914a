import { t } from "@/i18n/i18n";
import { isApiError } from "@/lib/api-error";
import { apiErrorText, errorBodyOf } from "../pay-error-text";

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

/** Sentences with a value in them (an amount, an address, a count), read back into the reader's words. */
const PATTERNS: { pattern: RegExp; id: string; names: string[] }[] = [
  {
    pattern: /^This transaction holds no (\S+) transfer \(another token\?\)\. Nothing was recorded\.$/,
    id: "merchant.error.refundNoTransfer",
    names: ["token"],
  },
  {
    pattern:
      /^This transfer went to another address than the refund address (0x[0-9a-fA-F]{40})\. Nothing was recorded\.$/,
    id: "merchant.error.refundOtherAddress",
    names: ["address"],
  },
  {
    pattern: /^This transfer's amount \((.+)\) is not the refund's amount \((.+)\)\. Nothing was recorded\.$/,
    id: "merchant.error.refundAmountDiffers",
    names: ["sent", "expected"],
  },
  {
    pattern: /^This transaction has (\d+) of (\d+) confirmations\. Try again in a moment\.$/,
    id: "merchant.error.refundConfirmations",
    names: ["count", "required"],
  },
  {
    pattern: /^A refund can be at most what was received minus what was refunded: (.+)\.$/,
    id: "merchant.error.refundAtMost",
    names: ["amount"],
  },
  {
    pattern: /^This payment is ([a-z ]+): only an open payment that received nothing can be cancelled\.$/,
    id: "merchant.error.cancelNotOpen",
    names: [],
  },
];

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
 * own (English) message only for what they do not know. A wallet's error is read by its sentence, else shown as
 * the wallet said it.
 */
export function merchantErrorText(error: unknown): string {
  if (!isApiError(error)) {
    if (error instanceof Error && !(error instanceof TypeError)) {
      const known = WALLET_MESSAGES[error.message.trim()];
      if (known) return t(known);
      if (error.message.trim()) return error.message;
    }
    return apiErrorText(error);
  }
  const { message } = errorBodyOf(error.body);
  for (const { pattern, id, names } of PATTERNS) {
    const match = pattern.exec(message);
    if (match) return t(id, Object.fromEntries(names.map((name, index) => [name, match[index + 1]])));
  }
  return apiErrorText(error, {
    sentences: KNOWN_MESSAGES,
    signedOut: "merchant.error.signedOut",
    twoFactor: "merchant.state.twoFactorText",
    forbidden: "merchant.error.forbidden",
    byCode: ({ code, status }) => {
      if (code === "NOT_FOUND" || status === 404) return t("merchant.error.notFound");
      return undefined;
    },
  });
}
