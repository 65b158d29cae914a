import type { Payment } from "@common/payments";
import { Activity, CircleAlert, RefreshCw } from "lucide-react";
import * as React from "react";
import { Button } from "@/components/ui/button";
import { shortAddress } from "../../format";
import { useDetectionHealthy } from "../api/get-detection-health";
import { useMerchant } from "../api/get-merchant";
import { useLiveMerchant } from "../use-live-merchant";
import { BusinessSetupForm, type SignOwnership } from "./business-setup-form";
import { CreatePaymentForm } from "./create-payment-form";
import { PaymentNotification, playChime } from "./payment-notification";
import { RecentPayments, UnattributedInbox } from "./recent-payments";

export function MerchantDashboard({ signOwnership }: { signOwnership: SignOwnership }) {
  const merchant = useMerchant();
  if (merchant.isPending) {
    return (
      <div aria-busy="true" className="h-64 animate-pulse rounded-xl bg-muted motion-reduce:animate-none" />
    );
  }
  if (merchant.isError) {
    return (
      <div role="alert" className="flex flex-col items-start gap-3 rounded-xl border border-border p-4">
        <p className="font-semibold">Your business could not be loaded.</p>
        <Button variant="outline" onClick={() => merchant.refetch()}>
          <RefreshCw aria-hidden="true" /> Try again
        </Button>
      </div>
    );
  }
  if (!merchant.data) return <BusinessSetupForm signOwnership={signOwnership} />;
  return <Dashboard name={merchant.data.name} wallet={merchant.data.walletAddress} />;
}

function Dashboard({ name, wallet }: { name: string; wallet: string }) {
  const [notice, setNotice] = React.useState<Payment | null>(null);
  const onPayment = React.useCallback((payment: Payment, event: string) => {
    if (event === "payment.snapshot") return;
    if (payment.status === "completed" || payment.status === "paid_late" || payment.status === "partial") {
      setNotice(payment);
      playChime(payment.status === "partial" ? "partial" : "completed");
    }
  }, []);
  const live = useLiveMerchant(onPayment);
  const detecting = useDetectionHealthy();
  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm">
          <span className="font-semibold">{name}</span>{" "}
          <span className="text-muted-foreground">
            receives to{" "}
            <span className="font-mono" title={wallet}>
              {shortAddress(wallet)}
            </span>
          </span>
        </p>
        <p className="flex items-center gap-2 text-sm" role="status" data-testid="detection-status">
          {detecting && live ? (
            <>
              <Activity aria-hidden="true" className="size-4 text-success" /> Automatic Payment Detection
              Active
            </>
          ) : (
            <>
              <CircleAlert aria-hidden="true" className="size-4 text-destructive-emphasis" />
              {live
                ? "Payment detection is catching up: new payments may show late."
                : "Reconnecting live updates…"}
            </>
          )}
        </p>
      </div>
      <CreatePaymentForm />
      <div className="grid gap-6 lg:grid-cols-[2fr_1fr]">
        <RecentPayments />
        <UnattributedInbox />
      </div>
      {notice ? <PaymentNotification payment={notice} onClose={() => setNotice(null)} /> : null}
    </>
  );
}
