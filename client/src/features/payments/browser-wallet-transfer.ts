import type { SendTransfer } from "./components/pay-view";

/** Pays from the browser wallet; the wallet code (wagmi, viem) loads only when the payer presses the pay button. */
export const sendWithBrowserWallet: SendTransfer = (transfer, onStep) =>
  import("@/features/wallet/send-token-transfer").then((m) => m.sendTokenTransfer(transfer, onStep));
