import type { PublicPayment } from "@common/payments";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ShieldCheck, Wallet } from "lucide-react";
import * as React from "react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { describeError } from "@/features/auth/error-message";
import { formatTokenAmount, shortAddress } from "@/features/payments/format";
import { isApiError } from "@/lib/api-client";
import { MANAGED_WALLET_QUERY_KEY, managedWalletQueryOptions, payFromManagedWallet } from "../api/social";
import { DemoModeNotice, useDemoMode } from "./social-account-card";
import { SocialSignIn } from "./social-sign-in";

const OPEN = new Set(["pending", "partial"]);

/**
 * /easy-payment's one button: pays the payment from the signed-in social account's managed wallet. The page only
 * shows the transaction; "Paid" comes from the normal detection of that transfer on the chain.
 */
export function ManagedWalletPay({
  payment,
  due,
}: {
  payment: PublicPayment | undefined;
  /** What is left to pay, in whole tokens (the pay view's own reckoning). */
  due: string | null;
}) {
  const queryClient = useQueryClient();
  const wallet = useQuery(managedWalletQueryOptions());
  const demo = useDemoMode();
  const [before, setBefore] = React.useState<string | null>(null);
  // One key per payment attempt on this page: a double click or a retry never pays twice.
  const key = React.useRef(`easy-${randomHex(16)}`);
  const pay = useMutation({
    mutationFn: () => payFromManagedWallet({ reference: payment!.reference, idempotencyKey: key.current }),
    onMutate: () => setBefore(wallet.data?.balance ?? null),
    onSettled: () => queryClient.invalidateQueries({ queryKey: MANAGED_WALLET_QUERY_KEY }),
  });
  const paid = payment && !OPEN.has(payment.status) && pay.isSuccess;
  React.useEffect(() => {
    if (paid) queryClient.invalidateQueries({ queryKey: MANAGED_WALLET_QUERY_KEY });
  }, [paid, queryClient]);

  if (wallet.isPending) return null;
  // The invented demo user (PRODUCT.md decision 3) has no wallet: it cannot pay.
  if (demo && !wallet.data) return <DemoModeNotice action="pay" />;
  const noWallet = wallet.data === null || (isApiError(wallet.error) && wallet.error.status === 404);
  if (noWallet) {
    return (
      <Card data-testid="managed-wallet-sign-in">
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <Wallet aria-hidden="true" className="size-5" /> Pay with a social account
          </CardTitle>
          <CardDescription>
            Sign in with Google, Facebook, X or Apple and pay from the wallet that comes with it.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <SocialSignIn />
        </CardContent>
      </Card>
    );
  }
  if (!wallet.data) {
    return (
      <p role="alert" className="text-destructive-emphasis text-sm">
        Your managed wallet could not be loaded: {describeError(wallet.error)}
      </p>
    );
  }
  const w = wallet.data;
  const open = payment && OPEN.has(payment.status);
  return (
    <Card data-testid="managed-wallet">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Wallet aria-hidden="true" className="size-5" /> Your CPXTB wallet
        </CardTitle>
        <CardDescription>
          {shortAddress(w.address)} · custodial: this platform holds the key. Daily limit{" "}
          {formatTokenAmount(w.dailyLimit)} {w.symbol}, withdraw any time from your profile.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        <dl className="grid grid-cols-2 gap-2 text-sm">
          {before !== null ? (
            <>
              <dt className="text-muted-foreground">Balance before</dt>
              <dd className="text-right tabular-nums" data-testid="balance-before">
                {formatTokenAmount(before)} {w.symbol}
              </dd>
            </>
          ) : null}
          <dt className="text-muted-foreground">{before !== null ? "Balance now" : "Balance"}</dt>
          <dd className="text-right tabular-nums" data-testid="managed-balance">
            {formatTokenAmount(w.balance)} {w.symbol}
          </dd>
        </dl>
        {open && due ? (
          <Button
            className="h-11"
            disabled={pay.isPending || pay.isSuccess}
            onClick={() => pay.mutate()}
            data-testid="managed-pay"
          >
            <ShieldCheck aria-hidden="true" />
            {pay.isPending
              ? "Sending..."
              : pay.isSuccess
                ? "Sent, waiting for the network"
                : `Pay ${formatTokenAmount(due)} ${w.symbol} from my wallet`}
          </Button>
        ) : null}
        {pay.isSuccess ? (
          <p role="status" className="text-muted-foreground text-sm break-all">
            Transaction {pay.data.txHash}: the payment turns paid when the network confirms it.
          </p>
        ) : null}
        {pay.isError ? (
          <p role="alert" className="text-destructive-emphasis text-sm">
            {describeError(pay.error)}
          </p>
        ) : null}
      </CardContent>
    </Card>
  );
}

/** getRandomValues works on plain http too (randomUUID needs a secure context). */
function randomHex(bytes: number): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) =>
    b.toString(16).padStart(2, "0"),
  ).join("");
}
