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

export function describeWalletError(error: unknown): string {
  if (isNoWalletError(error)) return NO_WALLET_ADVICE;
  const code = walletErrorCode(error);
  if (code === USER_REJECTED) return "You rejected the request in your wallet.";
  if (code === UNRECOGNIZED_CHAIN) return "Your wallet does not know this network yet.";
  const e = error as { shortMessage?: string; message?: string };
  return e?.shortMessage ?? e?.message ?? "The wallet did not complete the request.";
}
