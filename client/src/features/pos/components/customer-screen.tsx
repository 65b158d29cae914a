import type { Payment, PublicPayment } from "@common/payments";
import { Ban, CircleCheck, RefreshCw, WifiOff } from "lucide-react";
import * as React from "react";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { publicPaymentQueryKey, usePublicPayment } from "@/features/payments/api/get-public-payment";
import { QrCode } from "@/features/payments/components/qr-code";
import {
  cancelMerchantPayment,
  storeCancelledPayment,
} from "@/features/payments/dashboard/api/cancel-merchant-payment";
import { formatCountdown, formatTokenAmount, formatUsdAmount } from "@/features/payments/format";
import { isPayable } from "@/features/payments/payable";
import { useLivePayment } from "@/features/payments/use-live-payment";
import { useNow } from "@/features/payments/use-now";
import { Rich, useLocale, useT } from "@/i18n/i18n";
import { LanguageMenu } from "@/i18n/language-menu";
import { Ltr } from "@/i18n/ltr";
import { queryClient } from "@/lib/query-client";
import { posErrorText } from "../pos-error-text";

/** Seconds the "Paid" screen stays before the counter is ready for the next sale (or a tap). */
const PAID_SCREEN_MS = 6000;

/** The customer's screen: the request, large, with its live status; Paid → a full screen of its own. */
export function CustomerScreen({ payment, onDone }: { payment: Payment; onDone: () => void }) {
  const live = useLivePayment(payment.reference);
  const query = usePublicPayment(payment.reference);
  const now = useNow();
  const t = useT();
  const locale = useLocale();
  const view: PublicPayment | undefined = query.data;
  const status = view?.status ?? payment.status;
  const [cancelling, setCancelling] = React.useState(false);
  const [cancelError, setCancelError] = React.useState<string | null>(null);
  useWakeLock(true);
  const paid = status === "completed" || status === "paid_late";
  // The member's sales today change when one is paid.
  React.useEffect(() => {
    if (paid)
      void queryClient.invalidateQueries({
        predicate: (q) => String(q.queryKey[0]).startsWith("/api/merchant/pos/today"),
      });
  }, [paid]);
  if (paid) return <PaidScreen payment={payment} view={view} onDone={onDone} />;
  const payable = isPayable({ status, expiresAt: payment.expiresAt }, now);
  const cancel = async () => {
    setCancelling(true);
    setCancelError(null);
    try {
      const detail = await cancelMerchantPayment(payment.id);
      storeCancelledPayment(detail);
      queryClient.setQueryData(publicPaymentQueryKey(payment.reference), (old: PublicPayment | undefined) =>
        old ? { ...old, status: "cancelled" } : old,
      );
    } catch (error) {
      setCancelError(posErrorText(error, "cancel"));
    } finally {
      setCancelling(false);
    }
  };
  const logo = view?.merchant.logoUrl;
  const tokens = formatTokenAmount(
    status === "partial" && view ? view.amountToPay : payment.amountDue,
    locale,
  );
  return (
    <div
      className="flex min-h-dvh flex-col items-center gap-3 p-3 text-center sm:p-6"
      data-testid="pos-customer"
    >
      <LiveBanner live={live} />
      <header className="flex items-center gap-3">
        {logo ? <img src={logo} alt="" className="size-10 rounded-md object-contain" /> : null}
        <h1 className="font-semibold text-lg">{view?.merchant.name ?? ""}</h1>
      </header>
      <div>
        {status === "partial" ? (
          <p className="font-medium text-muted-foreground">{t("pay.view.leftToPay")}</p>
        ) : null}
        {payment.amountUsd ? (
          <p className="font-bold text-4xl tabular-nums" data-testid="pos-customer-usd">
            <Ltr>{formatUsdAmount(payment.amountUsd, locale)}</Ltr>
          </p>
        ) : null}
        <p
          className={
            payment.amountUsd
              ? "text-muted-foreground text-xl tabular-nums"
              : "font-bold text-4xl tabular-nums"
          }
          data-testid="pos-customer-tokens"
        >
          <Ltr>{tokens} CPXTB</Ltr>
        </p>
      </div>
      {payable ? (
        <>
          <QrCode
            value={view?.paymentUri ?? payment.paymentUri}
            label={t("pos.customer.qrLabel")}
            className="aspect-square w-[min(88vw,calc(100dvh-20rem))] max-w-[36rem] min-w-48"
          />
          <p className="text-muted-foreground tabular-nums" data-testid="pos-countdown">
            {status === "partial" ? t("pos.customer.scanRest") : t("pos.customer.scan")}
            {" · "}
            <Rich
              id="pay.view.expiresIn"
              values={{ countdown: <Ltr>{formatCountdown(Date.parse(payment.expiresAt) - now)}</Ltr> }}
            />
          </p>
          <a
            href={view?.paymentUri ?? payment.paymentUri}
            className="max-w-full break-all text-primary text-sm underline-offset-4 hover:underline"
          >
            {t("pay.view.walletApp.open")}
          </a>
        </>
      ) : (
        <ClosedNotice status={status} expired={Date.parse(payment.expiresAt) <= now} />
      )}
      <p role="status" className="font-medium" data-testid="pos-status">
        {status === "processing"
          ? t("pos.customer.confirming")
          : status === "partial"
            ? t("pos.customer.waitingRest")
            : payable
              ? t("pos.customer.waiting")
              : ""}
      </p>
      {cancelError ? (
        <p role="alert" className="text-destructive-emphasis text-sm">
          {t("pos.customer.notCancelled", { reason: cancelError })}
        </p>
      ) : null}
      <div className="mt-auto flex flex-wrap justify-center gap-2">
        {payable && status === "pending" ? (
          <Button variant="outline" size="lg" disabled={cancelling} onClick={cancel}>
            {cancelling ? (
              <Spinner size="sm" label={t("pos.customer.cancelling")} />
            ) : (
              <Ban aria-hidden="true" />
            )}{" "}
            {t("pos.customer.cancel")}
          </Button>
        ) : null}
        {payable ? null : (
          <Button size="lg" onClick={onDone}>
            {t("pos.customer.newSale")}
          </Button>
        )}
      </div>
      {/* The customer (or the cashier for them) switches language here; the choice is remembered on this device. */}
      <footer className="text-xs">
        <LanguageMenu />
      </footer>
    </div>
  );
}

const CLOSED_TEXT = {
  cancelled: "pos.closed.cancelled",
  processing: "pos.closed.processing",
  invalid: "pos.closed.invalid",
  expired: "pos.closed.expired",
} as const;

function ClosedNotice({ status, expired }: { status: string; expired: boolean }) {
  const t = useT();
  const key =
    status === "cancelled" || status === "processing" || status === "invalid"
      ? status
      : expired || status === "expired"
        ? "expired"
        : null;
  return (
    <div role="alert" className="flex flex-col items-center gap-2 py-8" data-testid="pos-closed">
      {status === "processing" ? (
        <Spinner size="lg" label={t("pay.status.processing")} />
      ) : (
        <Ban aria-hidden="true" className="size-16 text-destructive-emphasis" />
      )}
      <p className="text-balance font-bold text-3xl">{key ? t(CLOSED_TEXT[key]) : ""}</p>
    </div>
  );
}

function PaidScreen({
  payment,
  view,
  onDone,
}: {
  payment: Payment;
  view: PublicPayment | undefined;
  onDone: () => void;
}) {
  const t = useT();
  const locale = useLocale();
  React.useEffect(() => {
    beep();
    const timer = setTimeout(onDone, PAID_SCREEN_MS);
    return () => clearTimeout(timer);
  }, [onDone]);
  return (
    <button
      type="button"
      onClick={onDone}
      className="flex min-h-dvh w-full flex-col items-center justify-center gap-4 bg-success p-6 text-center text-success-foreground"
      data-testid="pos-paid"
      aria-label={t("pos.paid.label")}
    >
      <CircleCheck aria-hidden="true" className="size-28" />
      <span className="font-bold text-6xl">{t("pos.paid.title")}</span>
      <span className="font-semibold text-3xl tabular-nums">
        {payment.amountUsd ? (
          <>
            <Ltr>{formatUsdAmount(payment.amountUsd, locale)}</Ltr>
            {" · "}
          </>
        ) : null}
        <Ltr>{formatTokenAmount(view?.amountReceived ?? payment.amountDue, locale)} CPXTB</Ltr>
      </span>
      <span className="text-lg opacity-90">{t("pos.paid.next")}</span>
    </button>
  );
}

function LiveBanner({ live }: { live: "connecting" | "live" | "lost" }) {
  const t = useT();
  if (live === "live")
    return (
      <span className="sr-only" data-testid="pos-live">
        {t("pos.live.live")}
      </span>
    );
  return (
    <p
      role="status"
      className="flex items-center gap-2 rounded-md bg-warning px-3 py-1 text-sm text-warning-foreground"
      data-testid="pos-live"
    >
      {live === "lost" ? (
        <WifiOff aria-hidden="true" className="size-4" />
      ) : (
        <RefreshCw aria-hidden="true" className="size-4" />
      )}
      {live === "lost" ? t("pos.live.lost") : t("pos.live.connecting")}
    </p>
  );
}

/** A short two-tone beep (Web Audio): the counter hears a payment without looking. */
function beep() {
  try {
    const Ctx =
      window.AudioContext ??
      (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
    if (!Ctx) return;
    const ctx = new Ctx();
    const tone = (freq: number, at: number) => {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.2, ctx.currentTime + at);
      gain.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + at + 0.25);
      osc.connect(gain).connect(ctx.destination);
      osc.start(ctx.currentTime + at);
      osc.stop(ctx.currentTime + at + 0.25);
    };
    tone(880, 0);
    tone(1320, 0.18);
    setTimeout(() => void ctx.close(), 1000);
  } catch {
    // No sound is no failure.
  }
}

/** Keeps the screen on while `on` (Screen Wake Lock where the browser has it; taken again when the tab returns). */
function useWakeLock(on: boolean) {
  React.useEffect(() => {
    if (!on || !("wakeLock" in navigator)) return;
    let lock: WakeLockSentinel | null = null;
    let stopped = false;
    const take = async () => {
      try {
        if (document.visibilityState === "visible") lock = await navigator.wakeLock.request("screen");
        if (stopped) void lock?.release();
      } catch {
        // Refused (battery saver, no user gesture): the screen just follows its own timeout.
      }
    };
    void take();
    const onVisible = () => {
      if (document.visibilityState === "visible") void take();
    };
    document.addEventListener("visibilitychange", onVisible);
    return () => {
      stopped = true;
      document.removeEventListener("visibilitychange", onVisible);
      void lock?.release();
    };
  }, [on]);
}
