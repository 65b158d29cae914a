/** EIP-1193 error codes the spec names: 4001 user rejected, 4902 chain not added to the wallet. */
export const USER_REJECTED = 4001;
export const UNRECOGNIZED_CHAIN = 4902;
/** JSON-RPC "resource unavailable": MetaMask's answer while an earlier request is still open in the wallet. */
const REQUEST_PENDING = -32002;

/** The provider error code, looking through wrappers (wagmi/viem keep the original as `cause`). */
export function walletErrorCode(error: unknown): number | undefined {
  for (let e: unknown = error, depth = 0; e && depth < 6; depth++) {
    const { code, cause, data } = e as {
      code?: unknown;
      cause?: unknown;
      data?: { originalError?: { code?: unknown } };
    };
    if (typeof code === "number" && [USER_REJECTED, UNRECOGNIZED_CHAIN, REQUEST_PENDING].includes(code))
      return code;
    // Some mobile wallets report 4902 inside a -32603 internal error.
    if (data?.originalError?.code === UNRECOGNIZED_CHAIN) return UNRECOGNIZED_CHAIN;
    if (typeof code === "number" && cause === undefined) return code;
    e = cause;
  }
  return undefined;
}

/** What a visitor without a browser wallet can do instead (wagmi's own text is "Provider not found."). */
export const NO_WALLET_ADVICE =
  "No browser wallet was found. Install one (such as MetaMask or Coinbase Wallet) and reload this page, or pay by scanning the payment's QR code with a wallet app on your phone.";

/** True when no wallet provider exists in this browser (wagmi's ProviderNotFoundError). */
export function isNoWalletError(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 6; depth++) {
    if ((e as { name?: unknown }).name === "ProviderNotFoundError") return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** The sentences of `describeWalletError`: English unless a translated screen passes its reader's (the header's). */
export type WalletErrorWords = {
  noWallet: string;
  rejected: string;
  unknownNetwork: string;
  incomplete: string;
};

const ENGLISH: WalletErrorWords = {
  noWallet: NO_WALLET_ADVICE,
  rejected: "You rejected the request in your wallet.",
  unknownNetwork: "Your wallet does not know this network yet.",
  incomplete: "The wallet did not complete the request.",
};

/**
 * A wallet's error as a sentence; another error than these known ones is the wallet's own (English) message in
 * English, and `incomplete` in a translated screen's words (never the library's English there).
 */
export function describeWalletError(error: unknown, words: WalletErrorWords = ENGLISH): string {
  if (isNoWalletError(error)) return words.noWallet;
  const code = walletErrorCode(error);
  if (code === USER_REJECTED) return words.rejected;
  if (code === UNRECOGNIZED_CHAIN) return words.unknownNetwork;
  if (words !== ENGLISH) return words.incomplete;
  const e = error as { shortMessage?: string; message?: string };
  return e?.shortMessage ?? e?.message ?? words.incomplete;
}

/** What went wrong in the browser wallet, for a translated screen to say in its reader's words (issue 37). */
export type WalletFailureKind =
  | "noWallet"
  | "rejected"
  | "unknownNetwork"
  | "noAccount"
  | "otherAccount"
  | "noFunds"
  | "wrongNetwork"
  | "pending"
  | "unconfirmed"
  | "reverted"
  | "incomplete";
/** The request the wallet was asked for: connecting, switching the network, sending, signing a message. */
export type WalletStep = "connect" | "switch" | "transaction" | "signature";

/**
 * A browser wallet's failure: `message` is the English sentence (the English screens show it as it is), `kind`,
 * `step` and `values` (the connected and the expected account) what a translated screen says it from.
 */
export class WalletFailure extends Error {
  constructor(
    message: string,
    readonly kind: WalletFailureKind,
    readonly step: WalletStep | null = null,
    /** The accounts of `otherAccount`; the transaction's hash once it was sent (`unconfirmed`, `reverted`). */
    readonly values: { account?: string; expected?: string; hash?: string } = {},
  ) {
    super(message);
    this.name = "WalletFailure";
  }
}

/** By its name too: the wallet code is a lazy chunk, and a screen reads the failure without importing the class. */
export function isWalletFailure(error: unknown): error is WalletFailure {
  return error instanceof WalletFailure || (error as { name?: unknown } | null)?.name === "WalletFailure";
}

const STEP_NAME: Record<WalletStep, string> = {
  connect: "connection request",
  switch: "network switch",
  transaction: "transaction",
  signature: "signature request",
};

/** True when the error, or one it wraps (wagmi and viem keep the original as `cause`), has one of these names. */
function hasErrorNamed(error: unknown, names: readonly string[]): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 6; depth++) {
    const name = (e as { name?: unknown }).name;
    if (typeof name === "string" && names.includes(name)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** The account cannot pay the value and the network fee (viem's InsufficientFundsError). */
const NO_FUNDS = ["InsufficientFundsError"];
/**
 * The wallet is on another network than the request's and did not switch: viem's ChainMismatchError, wagmi's
 * ConnectorChainMismatchError, a wallet that cannot switch (SwitchChainNotSupportedError).
 */
const WRONG_NETWORK = ["ChainMismatchError", "ConnectorChainMismatchError", "SwitchChainNotSupportedError"];

/** A wallet's error during `step` as a WalletFailure; its message the English sentence the screens said before. */
export function walletFailureOf(error: unknown, step: WalletStep): WalletFailure {
  if (isWalletFailure(error)) return error;
  if (walletErrorCode(error) === USER_REJECTED)
    return new WalletFailure(
      `You rejected the ${STEP_NAME[step]} in your wallet.${step === "signature" ? " Nothing was signed." : ""}`,
      "rejected",
      step,
    );
  if (isNoWalletError(error)) return new WalletFailure(NO_WALLET_ADVICE, "noWallet", step);
  const code = walletErrorCode(error);
  if (code === UNRECOGNIZED_CHAIN) return new WalletFailure(ENGLISH.unknownNetwork, "unknownNetwork", step);
  if (code === REQUEST_PENDING)
    return new WalletFailure(
      "Your wallet already has a request waiting. Open your wallet to answer it, then try again.",
      "pending",
      step,
    );
  if (hasErrorNamed(error, WRONG_NETWORK))
    return new WalletFailure(
      "Your wallet is on another network and did not switch. Switch networks in your wallet, then try again.",
      "wrongNetwork",
      step,
    );
  const kind = hasErrorNamed(error, NO_FUNDS) ? "noFunds" : "incomplete";
  return new WalletFailure(describeWalletError(error), kind, step);
}

/**
 * A sent transaction that did not come back mined: it failed on chain (`reverted`), or its receipt did not come in
 * time or could not be read (`unconfirmed`: it may still be mined, and the page follows the chain).
 */
export function receiptFailureOf(error: unknown, hash: string): WalletFailure {
  if (isWalletFailure(error)) return error;
  return new WalletFailure(
    "Your payment was sent, but its confirmation has not arrived yet. This page updates once it is confirmed: do not send it again.",
    "unconfirmed",
    "transaction",
    { hash },
  );
}

/** The transaction was mined and failed (reverted): nothing was moved, the network fee was spent. */
export function revertedFailure(hash: string): WalletFailure {
  return new WalletFailure(
    "Your transaction failed on the blockchain (reverted): nothing was sent, only the network fee was spent. Please try again.",
    "reverted",
    "transaction",
    { hash },
  );
}
