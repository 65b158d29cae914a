import type { Merchant } from "@common/merchant";
import type { Payment, PosSales, PublicPayment } from "@common/payments";
import { useQuery } from "@tanstack/react-query";
import { Ban, CircleCheck, Delete, RefreshCw, WifiOff } from "lucide-react";
import * as React from "react";
import { Link } from "wouter";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { publicPaymentQueryKey, usePublicPayment } from "@/features/payments/api/get-public-payment";
import { QrCode } from "@/features/payments/components/qr-code";
import {
  cancelMerchantPayment,
  storeCancelledPayment,
} from "@/features/payments/dashboard/api/cancel-merchant-payment";
import { useCreatePayment } from "@/features/payments/dashboard/api/payments";
import { errorText } from "@/features/payments/error-text";
import { formatCountdown, formatTokenAmount, formatUsd } from "@/features/payments/format";
import { isPayable } from "@/features/payments/payable";
import { useLivePayment } from "@/features/payments/use-live-payment";
import { useNow } from "@/features/payments/use-now";
import { queryClient } from "@/lib/query-client";
import {
  type Cart,
  cartLines,
  cartNote,
  cartTotal,
  changeQuantity,
  decimalOfThousandths,
  formatThousandths,
  type PosItem,
  tipOfThousandths,
} from "../cart";
import { formatHundredths, hundredthsOf, type Key, press } from "../keypad";
import { ProductGrid } from "./product-grid";

/** Seconds the "Paid" screen stays before the counter is ready for the next sale (or a tap). */
const PAID_SCREEN_MS = 6000;

type Sale = { payment: Payment; currency: "USD" | "CPXTB" };

/** The counter (issue 35): keypad → customer screen → Paid, full screen, for a phone or a tablet. */
export function PosView({ merchant, items }: { merchant: Merchant; items: readonly PosItem[] }) {
  const [sale, setSale] = React.useState<Sale | null>(null);
  usePosManifest();
  return sale ? (
    <CustomerScreen sale={sale} onDone={() => setSale(null)} />
  ) : (
    <Counter merchant={merchant} items={items} onCharge={setSale} />
  );
}

/** The start of this device's day, for "today's sales". */
function startOfToday(now: number) {
  const d = new Date(now);
  d.setHours(0, 0, 0, 0);
  return d.toISOString();
}

export const posTodayKey = (since: string) => [`/api/merchant/pos/today?since=${encodeURIComponent(since)}`];

function Counter({
  merchant,
  items,
  onCharge,
}: {
  merchant: Merchant;
  items: readonly PosItem[];
  onCharge: (sale: Sale) => void;
}) {
  const [digits, setDigits] = React.useState("");
  const [tip, setTip] = React.useState(0);
  const [note, setNote] = React.useState("");
  const [unit, setUnit] = React.useState<"USD" | "CPXTB">("USD");
  const [cart, setCart] = React.useState<Cart>({});
  const create = useCreatePayment();
  const since = startOfToday(useNow(60_000));
  const today = useQuery<PosSales>({ queryKey: posTodayKey(since) });
  // One sale is in one currency: the grid sells the products priced in the counter's currency.
  const sellable = items.filter((item) => item.currency === unit);
  const otherCurrency = items.length - sellable.length;
  const lines = cartLines(sellable, cart);
  const typed = hundredthsOf(digits) * 10n;
  const subtotal = typed + cartTotal(sellable, cart);
  const tipAmount = tipOfThousandths(subtotal, tip);
  const total = subtotal + tipAmount;
  const key = React.useCallback((k: Key) => setDigits((d) => press(d, k)), []);

  React.useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.target as HTMLElement | null)?.tagName === "INPUT") return;
      if (/^[0-9]$/.test(event.key)) key(event.key as Key);
      else if (event.key === "Backspace") key("back");
      else if (event.key === "Escape") key("clear");
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [key]);

  const charge = () => {
    if (total <= 0n || create.isPending) return;
    const trimmed = note.trim();
    const sold = cartNote(sellable, cart);
    const typedText = sold && typed > 0n ? `other ${formatThousandths(typed)} ${unit}` : null;
    const tipText = tip > 0 ? `incl. ${tip}% tip (${formatThousandths(tipAmount)} ${unit})` : null;
    create.mutate(
      {
        currency: unit,
        amount: decimalOfThousandths(total),
        description: [sold || null, typedText, trimmed || (sold ? null : "Counter sale"), tipText]
          .filter(Boolean)
          .join(", ")
          .slice(0, 500),
        orderId: /^[A-Za-z0-9_.:#-]{1,64}$/.test(trimmed) ? trimmed : null,
      } as Parameters<typeof create.mutate>[0],
      {
        onSuccess: (payment) => {
          setDigits("");
          setTip(0);
          setNote("");
          setCart({});
          onCharge({ payment, currency: unit });
        },
      },
    );
  };

  return (
    <div
      className={`mx-auto flex min-h-dvh w-full flex-col gap-3 p-3 sm:p-4 ${items.length > 0 ? "max-w-xl md:max-w-6xl" : "max-w-xl"}`}
      data-testid="pos-counter"
    >
      <header className="flex items-center justify-between gap-2">
        <div className="min-w-0">
          <h1 className="truncate font-semibold text-base">{merchant.name}</h1>
          <p className="text-muted-foreground text-sm" data-testid="pos-today">
            {today.data
              ? `Today: ${today.data.count} ${today.data.count === 1 ? "sale" : "sales"} · ${formatUsd(today.data.usd)} USD · ${formatTokenAmount(today.data.cpxtb, "en", 2)} CPXTB`
              : "Today: …"}
          </p>
        </div>
        <Button variant="ghost" size="sm" asChild>
          <Link href="/merchant">Dashboard</Link>
        </Button>
      </header>
      <div
        className={`flex flex-1 flex-col gap-3 ${items.length > 0 ? "md:grid md:grid-cols-[minmax(0,1fr)_minmax(0,26rem)] md:items-start md:gap-6" : ""}`}
      >
        {items.length > 0 ? (
          <ProductGrid
            items={sellable}
            cart={cart}
            unit={unit}
            otherCurrency={otherCurrency}
            onChange={(id, delta) => setCart((c) => changeQuantity(c, id, delta))}
          />
        ) : null}
        <div className="flex flex-1 flex-col gap-3 md:min-h-[calc(100dvh-6rem)]">
          <fieldset className="flex flex-wrap items-center gap-1" aria-label="Currency">
            {(["USD", "CPXTB"] as const).map((c) => (
              <Button
                key={c}
                type="button"
                size="sm"
                variant={unit === c ? "default" : "outline"}
                aria-pressed={unit === c}
                // The cart's items are priced in its currency: switching would drop them without a word.
                disabled={lines.length > 0 && unit !== c}
                onClick={() => setUnit(c)}
              >
                {c}
              </Button>
            ))}
            {lines.length > 0 ? (
              <span className="ml-2 text-muted-foreground text-xs">Empty the cart to switch currency</span>
            ) : null}
          </fieldset>
          <output
            aria-live="polite"
            aria-label={lines.length > 0 ? "Amount typed besides the cart" : "Amount to charge"}
            className="block rounded-xl border border-border bg-card px-4 py-3 text-right font-bold text-5xl tabular-nums"
            data-testid="pos-amount"
          >
            {lines.length > 0 ? (
              <span className="float-left mt-1 font-normal text-muted-foreground text-sm">Other amount</span>
            ) : null}
            {formatHundredths(hundredthsOf(digits))}{" "}
            <span className="font-semibold text-2xl text-muted-foreground">{unit}</span>
          </output>
          {/* biome-ignore lint/a11y/useSemanticElements: a group, not a fieldset: a fieldset's grid does not
              stretch its rows, which left a gap between the keys and the tips on a tall screen. The keys take the
              height there is. */}
          <div role="group" aria-label="Keypad" className="grid flex-1 auto-rows-fr grid-cols-3 gap-2">
            {(["1", "2", "3", "4", "5", "6", "7", "8", "9", "00", "0", "back"] as const).map((k) => (
              <Button
                key={k}
                type="button"
                variant="outline"
                className="h-auto min-h-14 font-semibold text-2xl"
                aria-label={k === "back" ? "Delete last digit" : k}
                onClick={() => key(k)}
              >
                {k === "back" ? <Delete aria-hidden="true" className="size-6" /> : k}
              </Button>
            ))}
          </div>
          {merchant.tipPresets.length > 0 ? (
            <fieldset className="flex flex-wrap gap-2">
              <legend className="mb-1 text-muted-foreground text-sm">Tip</legend>
              {[0, ...merchant.tipPresets].map((p) => (
                <Button
                  key={p}
                  type="button"
                  size="sm"
                  variant={tip === p ? "default" : "outline"}
                  aria-pressed={tip === p}
                  onClick={() => setTip(p)}
                >
                  {p === 0 ? "No tip" : `${p}%`}
                </Button>
              ))}
            </fieldset>
          ) : null}
          <label className="flex flex-col gap-1 text-sm">
            <span>Note or order number (optional)</span>
            <input
              value={note}
              onChange={(e) => setNote(e.target.value)}
              maxLength={200}
              className="h-11 rounded-md border border-input bg-background px-3"
            />
          </label>
          {create.isError ? (
            <p role="alert" className="text-destructive-emphasis text-sm">
              Not charged: {errorText(create.error)}
            </p>
          ) : null}
          <Button
            size="lg"
            className="h-14 text-lg"
            disabled={total <= 0n || create.isPending}
            onClick={charge}
          >
            {create.isPending ? <Spinner size="sm" /> : null} Charge {formatThousandths(total)} {unit}
            {tip > 0 ? ` (incl. ${tip}% tip)` : ""}
          </Button>
        </div>
      </div>
    </div>
  );
}

/** The customer's screen: the request, large, with its live status; Paid → a full screen of its own. */
function CustomerScreen({ sale, onDone }: { sale: Sale; onDone: () => void }) {
  const { payment } = sale;
  const live = useLivePayment(payment.reference);
  const query = usePublicPayment(payment.reference);
  const now = useNow();
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
      setCancelError(errorText(error));
    } finally {
      setCancelling(false);
    }
  };
  const logo = view?.merchant.logoUrl;
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
        {payment.amountUsd ? (
          <p className="font-bold text-4xl tabular-nums" data-testid="pos-customer-usd">
            {formatUsd(payment.amountUsd)} USD
          </p>
        ) : null}
        <p
          className={
            payment.amountUsd
              ? "text-muted-foreground text-xl tabular-nums"
              : "font-bold text-4xl tabular-nums"
          }
        >
          {formatTokenAmount(status === "partial" && view ? view.amountToPay : payment.amountDue)} CPXTB
        </p>
      </div>
      {payable ? (
        <>
          <QrCode
            value={view?.paymentUri ?? payment.paymentUri}
            label="QR code to pay with a wallet app"
            className="aspect-square w-[min(88vw,calc(100dvh-20rem))] max-w-[36rem] min-w-48"
          />
          <p className="text-muted-foreground tabular-nums" data-testid="pos-countdown">
            {status === "partial" ? "Partly paid: scan again for the rest · " : "Scan with a wallet app · "}
            expires in {formatCountdown(Date.parse(payment.expiresAt) - now)}
          </p>
          <a
            href={view?.paymentUri ?? payment.paymentUri}
            className="max-w-full break-all font-mono text-primary text-xs underline-offset-4 hover:underline"
          >
            Open in wallet app
          </a>
        </>
      ) : (
        <ClosedNotice status={status} expired={Date.parse(payment.expiresAt) <= now} />
      )}
      <p role="status" className="font-medium" data-testid="pos-status">
        {status === "processing"
          ? "Payment seen, confirming…"
          : status === "partial"
            ? "Partly paid: waiting for the rest."
            : payable
              ? "Waiting for payment…"
              : ""}
      </p>
      {cancelError ? (
        <p role="alert" className="text-destructive-emphasis text-sm">
          Not cancelled: {cancelError}
        </p>
      ) : null}
      <div className="mt-auto flex flex-wrap justify-center gap-2">
        {payable && status === "pending" ? (
          <Button variant="outline" size="lg" disabled={cancelling} onClick={cancel}>
            {cancelling ? <Spinner size="sm" /> : <Ban aria-hidden="true" />} Cancel
          </Button>
        ) : null}
        {payable ? null : (
          <Button size="lg" onClick={onDone}>
            New sale
          </Button>
        )}
      </div>
    </div>
  );
}

function ClosedNotice({ status, expired }: { status: string; expired: boolean }) {
  const text =
    status === "cancelled"
      ? "Cancelled. This request can no longer be paid."
      : status === "processing"
        ? "Payment received, being confirmed."
        : status === "invalid"
          ? "Invalid: the payment left the chain."
          : expired || status === "expired"
            ? "Expired. Nothing more can be paid on this request."
            : "";
  return (
    <div role="alert" className="flex flex-col items-center gap-2 py-8" data-testid="pos-closed">
      {status === "processing" ? (
        <Spinner size="lg" />
      ) : (
        <Ban aria-hidden="true" className="size-16 text-destructive-emphasis" />
      )}
      <p className="font-bold text-3xl">{text}</p>
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
      aria-label="Paid. Tap for the next sale"
    >
      <CircleCheck aria-hidden="true" className="size-28" />
      <span className="font-bold text-6xl">Paid</span>
      <span className="font-semibold text-3xl tabular-nums">
        {payment.amountUsd ? `${formatUsd(payment.amountUsd)} USD · ` : ""}
        {formatTokenAmount(view?.amountReceived ?? payment.amountDue)} CPXTB
      </span>
      <span className="text-lg opacity-90">Tap for the next sale</span>
    </button>
  );
}

function LiveBanner({ live }: { live: "connecting" | "live" | "lost" }) {
  if (live === "live")
    return (
      <span className="sr-only" data-testid="pos-live">
        Live
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
      {live === "lost" ? "Connection lost, reconnecting…" : "Connecting…"}
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

/** The counter's web app manifest, linked from /pos only (start_url /pos): installable on the counter device. */
function usePosManifest() {
  React.useEffect(() => {
    if (document.querySelector('link[rel="manifest"]')) return;
    const link = document.createElement("link");
    link.rel = "manifest";
    link.href = "/pos.webmanifest";
    document.head.appendChild(link);
    return () => link.remove();
  }, []);
}
