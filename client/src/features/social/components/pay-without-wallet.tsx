import { useQuery } from "@tanstack/react-query";
import { UserRound } from "lucide-react";
import * as React from "react";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { useAuth } from "@/features/auth/auth-provider";
import type { PayOptionsProps } from "@/features/payments/components/pay-view";
import { useHydrated } from "@/hooks/use-hydrated";
import { useT } from "@/i18n/i18n";
import { cn } from "@/lib/utils";
import { managedWalletQueryOptions } from "../api/social";
import { signInWords } from "../sign-in-words";
import { socialStateAtStart } from "../social-keys";
import type { DemoNoticeWords } from "./social-account-card";

// Neither is part of the pay page's first load: the sign-in buttons load on the tap that asks for them, the
// managed wallet's card once the signed-in account turns out to have one.
const SocialSignIn = React.lazy(() => import("./social-sign-in").then((m) => ({ default: m.SocialSignIn })));
const ManagedWalletCheckout = React.lazy(() => import("./managed-wallet-checkout"));
// Only a browser that holds a stored social user can be the invented demo user (PRODUCT.md decision 3).
const DemoModeNotice = React.lazy(() =>
  import("./social-account-card").then((m) => ({ default: m.DemoModeNotice })),
);

/**
 * The pay page's ways to pay without a wallet of one's own (issue 34): "No wallet? Continue with Google / Facebook
 * / X / Apple" signs in and comes back to this same payment; a signed-in account with a managed wallet gets its
 * card (balance, what is missing, how to add it, one Pay button) in place of the browser-wallet button. The server
 * and the hydrating render show the browser-wallet button and the sign-in offer (the session is the browser's).
 */
export function PayWithoutWallet({ payment, remainingText, browserWallet }: PayOptionsProps) {
  const hydrated = useHydrated();
  const { user } = useAuth();
  const signedIn = hydrated && user !== null;
  const wallet = useQuery({ ...managedWalletQueryOptions(), enabled: signedIn });
  const [asked, setAsked] = React.useState(false);
  const t = useT();

  if (signedIn && wallet.data) {
    return (
      <React.Suspense fallback={<Loading text={t("wallet.payOptions.loadingWallet")} />}>
        <ManagedWalletCheckout payment={payment} remainingText={remainingText} />
      </React.Suspense>
    );
  }
  return (
    <>
      {browserWallet}
      {hydrated && user === null && socialStateAtStart().storedUser ? (
        <React.Suspense fallback={null}>
          <DemoModeNotice words={demoWords(t)} />
        </React.Suspense>
      ) : null}
      {/* Kept in its place, unseen, while a signed-in visitor's wallet is looked up: taking it out and putting it
          back moved everything below it twice (a layout shift). */}
      <div
        className={cn("flex flex-col gap-2", signedIn && wallet.isPending && "invisible")}
        data-testid="managed-wallet-sign-in"
      >
        {asked ? (
          <React.Suspense fallback={<Loading text={t("wallet.payOptions.loadingSignIn")} />}>
            <SocialSignIn words={signInWords(t)} />
          </React.Suspense>
        ) : (
          <Button
            variant="outline"
            size="lg"
            className="h-auto min-h-11 w-full whitespace-normal py-2"
            onClick={() => setAsked(true)}
            data-testid="pay-without-wallet"
          >
            <UserRound aria-hidden="true" />
            {t("wallet.payOptions.noWallet")}
          </Button>
        )}
      </div>
    </>
  );
}

function demoWords(t: ReturnType<typeof useT>): DemoNoticeWords {
  return {
    badge: t("wallet.demo.badge"),
    cannot: t("wallet.demo.cannotPay"),
    explanation: t("wallet.demo.explanation"),
    leave: t("wallet.demo.leave"),
  };
}

function Loading({ text }: { text: string }) {
  const t = useT();
  return (
    <p role="status" className="flex items-center justify-center gap-2 text-muted-foreground text-sm">
      <Spinner size="sm" label={t("wallet.payOptions.loading")} /> {text}
    </p>
  );
}
