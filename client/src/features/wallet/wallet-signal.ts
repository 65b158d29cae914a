/**
 * Said on the window when a flow other than the header's control connected the browser wallet (proving the
 * business's address, Sign in with Ethereum): the header's control, whose code loads on use only, then loads and
 * shows the connection they share (one wagmi config per page) instead of "Connect Wallet".
 */
export const WALLET_CONNECTED_EVENT = "cpxtb:wallet-connected";

export function announceWalletConnected() {
  window.dispatchEvent(new Event(WALLET_CONNECTED_EVENT));
}
