import type { Merchant } from "@common/merchant";
import type { Payment, PosSales } from "@common/payments";
import { useQuery } from "@tanstack/react-query";
import { Delete } from "lucide-react";
import * as React from "react";
import { Link } from "wouter";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { useCreatePayment } from "@/features/payments/dashboard/api/payments";
import { formatTokenAmount, formatUsdAmount } from "@/features/payments/format";
import { useNow } from "@/features/payments/use-now";
import { Rich, useLocale, useT } from "@/i18n/i18n";
import { LanguageMenu } from "@/i18n/language-menu";
import { isolate, Ltr } from "@/i18n/ltr";
import {
  type Cart,
  cartLines,
  cartNote,
  cartTotal,
  changeQuantity,
  decimalOfThousandths,
  formatThousandths,
  formatThousandthsIn,
  type PosItem,
  tipOfThousandths,
} from "../cart";
import { formatHundredthsIn, hundredthsOf, type Key, press } from "../keypad";
import { posErrorText } from "../pos-error-text";
import { CustomerScreen } from "./customer-screen";
import { ProductGrid } from "./product-grid";

/** The counter (issue 35): keypad → customer screen → Paid, full screen, for a phone or a tablet. */
export function PosView({ merchant, items }: { merchant: Merchant; items: readonly PosItem[] }) {
  const [sale, setSale] = React.useState<Payment | null>(null);
  usePosManifest();
  return sale ? (
    <CustomerScreen payment={sale} onDone={() => setSale(null)} />
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
  onCharge: (payment: Payment) => void;
}) {
  const [digits, setDigits] = React.useState("");
  const [tip, setTip] = React.useState(0);
  const [note, setNote] = React.useState("");
  const [unit, setUnit] = React.useState<"USD" | "CPXTB">("USD");
  const [cart, setCart] = React.useState<Cart>({});
  const create = useCreatePayment();
  const t = useT();
  const locale = useLocale();
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
    // The request's description is the business's record (its dashboard, CSV and receipts), written in English
    // whatever language the counter shows.
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
          onCharge(payment);
        },
      },
    );
  };
  const amountOf = (thousandths: bigint) => (
    <Ltr>
      {formatThousandthsIn(thousandths, locale)} {unit}
    </Ltr>
  );

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
              ? // A plural: plain text (Rich's markers are not numbers), its amounts isolated for right to left.
                t("pos.counter.today", {
                  count: today.data.count,
                  usd: isolate(formatUsdAmount(today.data.usd, locale), locale),
                  cpxtb: isolate(`${formatTokenAmount(today.data.cpxtb, locale, 2)} CPXTB`, locale),
                })
              : t("pos.counter.todayLoading")}
          </p>
        </div>
        <Button variant="ghost" size="sm" asChild>
          <Link href="/merchant">{t("pos.counter.dashboard")}</Link>
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
          <fieldset className="flex flex-wrap items-center gap-1" aria-label={t("pos.counter.currency")}>
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
              <span className="ms-2 text-muted-foreground text-xs">{t("pos.counter.emptyCartToSwitch")}</span>
            ) : null}
          </fieldset>
          <output
            aria-live="polite"
            aria-label={
              lines.length > 0 ? t("pos.counter.amountBesidesCart") : t("pos.counter.amountToCharge")
            }
            className="block rounded-xl border border-border bg-card px-4 py-3 text-end font-bold text-5xl tabular-nums"
            data-testid="pos-amount"
          >
            {lines.length > 0 ? (
              <span className="block text-start font-normal text-muted-foreground text-sm">
                {t("pos.counter.otherAmount")}
              </span>
            ) : null}
            <bdi dir="ltr">
              {formatHundredthsIn(hundredthsOf(digits), locale)}{" "}
              <span className="font-semibold text-2xl text-muted-foreground">{unit}</span>
            </bdi>
          </output>
          {/* biome-ignore lint/a11y/useSemanticElements: a group, not a fieldset: a fieldset's grid does not
              stretch its rows, which left a gap between the keys and the tips on a tall screen. The keys take the
              height there is. Left to right in every language, as on a till or a phone's keypad. */}
          <div
            role="group"
            aria-label={t("pos.counter.keypad")}
            dir="ltr"
            className="grid flex-1 auto-rows-fr grid-cols-3 gap-2"
          >
            {(["1", "2", "3", "4", "5", "6", "7", "8", "9", "00", "0", "back"] as const).map((k) => (
              <Button
                key={k}
                type="button"
                variant="outline"
                className="h-auto min-h-14 font-semibold text-2xl"
                aria-label={k === "back" ? t("pos.counter.deleteDigit") : k}
                onClick={() => key(k)}
              >
                {k === "back" ? <Delete aria-hidden="true" className="size-6" /> : k}
              </Button>
            ))}
          </div>
          {merchant.tipPresets.length > 0 ? (
            <fieldset className="flex flex-wrap gap-2">
              <legend className="mb-1 text-muted-foreground text-sm">{t("pos.counter.tip")}</legend>
              {[0, ...merchant.tipPresets].map((p) => (
                <Button
                  key={p}
                  type="button"
                  size="sm"
                  variant={tip === p ? "default" : "outline"}
                  aria-pressed={tip === p}
                  onClick={() => setTip(p)}
                >
                  {p === 0 ? t("pos.counter.noTip") : t("pos.counter.tipPercent", { percent: p })}
                </Button>
              ))}
            </fieldset>
          ) : null}
          <label className="flex flex-col gap-1 text-sm">
            <span>{t("pos.counter.note")}</span>
            <input
              value={note}
              onChange={(e) => setNote(e.target.value)}
              maxLength={200}
              className="h-11 rounded-md border border-input bg-background px-3"
            />
          </label>
          {create.isError ? (
            <p role="alert" className="text-destructive-emphasis text-sm">
              {t("pos.counter.notCharged", { reason: posErrorText(create.error, "charge") })}
            </p>
          ) : null}
          <Button
            size="lg"
            className="h-14 text-lg"
            disabled={total <= 0n || create.isPending}
            onClick={charge}
            data-testid="pos-charge"
          >
            {create.isPending ? <Spinner size="sm" label={t("pos.counter.charging")} /> : null}{" "}
            {tip > 0 ? (
              <Rich id="pos.counter.chargeWithTip" values={{ amount: amountOf(total), percent: tip }} />
            ) : (
              <Rich id="pos.counter.charge" values={{ amount: amountOf(total) }} />
            )}
          </Button>
        </div>
      </div>
      {/* Out of the cashier's way, as in the checkout's footer: the customer's screen has the same menu. */}
      <footer className="flex justify-center">
        <LanguageMenu />
      </footer>
    </div>
  );
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
