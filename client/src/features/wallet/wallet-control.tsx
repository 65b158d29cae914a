import { Wallet as WalletIcon } from "lucide-react";
import * as React from "react";
import { buttonVariants } from "@/components/ui/button-variants";

// TanStack Query is not in the entry chunk either (decision 006): it comes with the runtime.
const WalletRuntime = React.lazy(() =>
  Promise.all([import("./wallet-runtime"), import("@/lib/query-provider")]).then(([runtime, query]) => ({
    default: (props: { connectNow: boolean; words: WalletControlWords }) => (
      <query.QueryProvider>
        <runtime.default {...props} />
      </query.QueryProvider>
    ),
  })),
);

/**
 * Said on the window when a flow other than this control connected the browser wallet (proving the business's
 * address, Sign in with Ethereum): the control then loads and shows the connection they share (one wagmi config
 * per page) instead of "Connect Wallet". Declared here, in the shell, so the listener costs no module of its own.
 */
export const WALLET_CONNECTED_EVENT = "cpxtb:wallet-connected";

/**
 * The wallet control of the top-right slot. Auto-connect is off, so until the user asks, the state is
 * "disconnected" and nothing of wagmi/viem is loaded; the first click loads them and connects.
 * The idle button is part of the entry chunk, so it styles itself with `buttonVariants` (no tailwind-merge).
 */
/** The idle control's words (the header's, in the shell's language: i18n/shell-words.tsx). */
export type WalletControlWords = { connect: string; connecting: string };

export function WalletControl({ words }: { words: WalletControlWords }) {
  const [active, setActive] = React.useState(false);
  // Connected elsewhere on the page (the business's wallet proven, a wallet sign-in): show it here too, without
  // asking the wallet again.
  const [connected, setConnected] = React.useState(false);
  React.useEffect(() => {
    const show = () => setConnected(true);
    window.addEventListener(WALLET_CONNECTED_EVENT, show);
    return () => window.removeEventListener(WALLET_CONNECTED_EVENT, show);
  }, []);
  const idle = (
    <button
      type="button"
      className={buttonVariants({ variant: "outline", size: "sm" })}
      data-testid="wallet-connect"
      data-status={active ? "connecting" : "disconnected"}
      disabled={active}
      onClick={() => setActive(true)}
      aria-label={active ? words.connecting : words.connect}
    >
      {/* On phones the top bar has room for an icon only; the label stays for assistive technology. */}
      <WalletIcon aria-hidden="true" />
      <span className="hidden sm:inline">{active ? words.connecting : words.connect}</span>
    </button>
  );
  if (!active && !connected) return idle;
  return (
    <React.Suspense fallback={idle}>
      <WalletRuntime connectNow={active} words={words} />
    </React.Suspense>
  );
}
