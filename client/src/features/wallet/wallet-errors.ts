/** EIP-1193 error codes the spec names: 4001 user rejected, 4902 chain not added to the wallet. */
export const USER_REJECTED = 4001;
export const UNRECOGNIZED_CHAIN = 4902;

/** The provider error code, looking through wrappers (wagmi/viem keep the original as `cause`). */
export function walletErrorCode(error: unknown): number | undefined {
  for (let e: unknown = error, depth = 0; e && depth < 6; depth++) {
    const { code, cause, data } = e as {
      code?: unknown;
      cause?: unknown;
      data?: { originalError?: { code?: unknown } };
    };
    if (typeof code === "number" && (code === USER_REJECTED || code === UNRECOGNIZED_CHAIN)) return code;
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

/** A wallet's error as a sentence; another error than these known ones is the wallet's own (English) message. */
export function describeWalletError(error: unknown, words: WalletErrorWords = ENGLISH): string {
  if (isNoWalletError(error)) return words.noWallet;
  const code = walletErrorCode(error);
  if (code === USER_REJECTED) return words.rejected;
  if (code === UNRECOGNIZED_CHAIN) return words.unknownNetwork;
  const e = error as { shortMessage?: string; message?: string };
  return e?.shortMessage ?? e?.message ?? words.incomplete;
}
