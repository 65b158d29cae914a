import type { BuyDeliverTo, BuyQuote, BuyWalletProof } from "@common/buy";
import { Coins, CreditCard, TriangleAlert, Wallet } from "lucide-react";
import * as React from "react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { Spinner } from "@/components/ui/spinner";
import { useLocale, useT } from "@/i18n/i18n";
import { createBuyOrder, createPaypalOrder, fetchQuote, useBuyConfig } from "../api/buy-api";
import { buyErrorText, buyUnavailableText } from "../buy-error-text";
import { dollars, grouped, type PriceSource } from "../format";

export type ConnectWallet = () => Promise<string>;
/** Connects the browser wallet and shows it is the buyer's (a signature, unless it is the account's own). */
export type ProveWallet = () => Promise<{ buyerAddress: string; proof?: BuyWalletProof }>;

type Edited = { field: "usd" | "tokens"; value: string };

const USD = /^\d{1,9}(\.\d{1,2})?$/;
const TOKENS = /^\d{1,15}(\.\d{1,6})?$/;

/**
 * "Buy CPXTB Tokens": the two amounts follow each other through the server's quote; continuing connects the
 * browser wallet and creates the order, which locks the quote. An ETH order's wallet is the one the ETH comes
 * from, so it is proven first (`proveWallet`); PayPal only needs the address the tokens go to.
 *
 * A signed-in account with a managed wallet (`managedAddress`) chooses where the CPXTB goes: that wallet (the
 * server takes its address from the session, decision 032) or the browser wallet that pays. Bought for the
 * managed wallet with PayPal, no browser wallet is needed at all.
 */
export function BuyForm({
  connectWallet,
  proveWallet,
  initialTokens,
  returnTo,
  onOrder,
  priceSource,
  managedAddress,
  initialDeliverTo,
}: {
  /** The price source in use (GET /api/price), so the words about the price say where it comes from. */
  priceSource?: PriceSource | null | undefined;
  connectWallet: ConnectWallet;
  proveWallet: ProveWallet;
  initialTokens?: string | undefined;
  returnTo?: string | undefined;
  onOrder: (id: string) => void;
  managedAddress?: string | null | undefined;
  initialDeliverTo?: BuyDeliverTo | undefined;
}) {
  const config = useBuyConfig();
  const t = useT();
  const locale = useLocale();
  const [chosenDeliverTo, setDeliverTo] = React.useState<BuyDeliverTo>(initialDeliverTo ?? "wallet");
  const deliverTo: BuyDeliverTo = managedAddress ? chosenDeliverTo : "wallet";
  const toManaged = deliverTo === "managed";
  const [usd, setUsd] = React.useState("");
  const [tokens, setTokens] = React.useState(initialTokens ?? "");
  const [edited, setEdited] = React.useState<Edited | null>(
    initialTokens ? { field: "tokens", value: initialTokens } : null,
  );
  const [quote, setQuote] = React.useState<BuyQuote | null>(null);
  const [quoteError, setQuoteError] = React.useState<string | null>(null);
  const [quoting, setQuoting] = React.useState(false);
  const [busy, setBusy] = React.useState(false);
  const [error, setError] = React.useState<string | null>(null);

  React.useEffect(() => {
    if (!edited) return;
    const valid = (edited.field === "usd" ? USD : TOKENS).test(edited.value);
    if (!valid) {
      setQuote(null);
      setQuoteError(edited.value ? "invalid" : null);
      return;
    }
    let cancelled = false;
    setQuoting(true);
    const timer = setTimeout(() => {
      fetchQuote(edited.field === "usd" ? { usd: edited.value } : { tokens: edited.value })
        .then((q) => {
          if (cancelled) return;
          setQuote(q);
          setQuoteError(null);
          if (edited.field === "usd") setTokens(q.tokens);
          else setUsd(q.usd);
        })
        .catch((e: Error) => {
          if (cancelled) return;
          setQuote(null);
          setQuoteError(buyErrorText(e));
        })
        .finally(() => {
          if (!cancelled) setQuoting(false);
        });
    }, 300);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [edited]);

  const buyWithEth = async () => {
    if (!edited || !quote) return;
    setBusy(true);
    setError(null);
    try {
      const { buyerAddress, proof } = await proveWallet();
      const order = await createBuyOrder({
        method: "eth",
        buyerAddress,
        ...(proof ? { proof } : {}),
        ...(toManaged ? { deliverTo } : {}),
        ...(edited.field === "usd" ? { usd: edited.value } : { tokens: edited.value }),
        returnTo: returnTo ?? null,
      });
      onOrder(order.id);
    } catch (e) {
      setError(buyErrorText(e));
      setBusy(false);
    }
  };

  const buyWithPaypal = async () => {
    if (!edited || !quote) return;
    setBusy(true);
    setError(null);
    try {
      // For the managed wallet the server takes its address from the session; no browser wallet is asked for.
      const buyerAddress = toManaged && managedAddress ? managedAddress : await connectWallet();
      const order = await createPaypalOrder({
        buyerAddress,
        ...(toManaged ? { deliverTo } : {}),
        ...(edited.field === "usd" ? { usd: edited.value } : { tokens: edited.value }),
        returnTo: returnTo ?? null,
      });
      if (!order.approveUrl) {
        setError(t("buy.form.noApproveLink"));
        setBusy(false);
        return;
      }
      window.location.assign(order.approveUrl);
    } catch (e) {
      setError(buyErrorText(e));
      setBusy(false);
    }
  };

  const c = config.data;
  if (config.isPending) return <Spinner label={t("buy.form.loading")} />;
  if (c && !c.available) {
    return (
      <Card>
        <CardHeader>
          <CardTitle>{t("buy.form.unavailable")}</CardTitle>
          <CardDescription>{buyUnavailableText(c)}</CardDescription>
        </CardHeader>
      </Card>
    );
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Coins aria-hidden="true" className="size-5" /> {t("buy.form.title")}
        </CardTitle>
        <CardDescription>
          {c
            ? `${t("buy.form.limits", { min: dollars(c.minUsd, locale, false), max: dollars(c.maxUsd, locale, false) })} `
            : null}
          {t("buy.form.locked", {
            minutes: String(c?.quoteMinutes ?? 10),
            target: toManaged ? "managed" : "wallet",
          })}
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {managedAddress ? (
          <fieldset className="flex flex-col gap-2" data-testid="buy-deliver-to">
            <legend className="mb-1 font-medium text-sm">{t("buy.form.deliverLegend")}</legend>
            <DeliverChoice
              checked={toManaged}
              onSelect={() => setDeliverTo("managed")}
              title={t("buy.form.deliverManaged")}
              detail={managedAddress}
              mono
            />
            <DeliverChoice
              checked={!toManaged}
              onSelect={() => setDeliverTo("wallet")}
              title={t("buy.form.deliverWallet")}
              detail={t("buy.form.deliverWalletDetail")}
            />
          </fieldset>
        ) : null}
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            label={t("buy.form.usdLabel")}
            inputMode="decimal"
            autoComplete="off"
            dir="ltr"
            placeholder={t("buy.form.usdPlaceholder")}
            value={usd}
            onChange={(e) => {
              setUsd(e.target.value);
              setEdited({ field: "usd", value: e.target.value.trim() });
            }}
          />
          <Field
            label={t("buy.form.tokensLabel")}
            inputMode="decimal"
            autoComplete="off"
            dir="ltr"
            placeholder={t("buy.form.tokensPlaceholder")}
            value={tokens}
            onChange={(e) => {
              setTokens(e.target.value);
              setEdited({ field: "tokens", value: e.target.value.trim() });
            }}
          />
        </div>
        <div aria-live="polite" className="min-h-12 rounded-md bg-muted/50 p-3 text-sm tabular-nums">
          {quoting ? (
            <span className="text-muted-foreground">{t("buy.form.quoting")}</span>
          ) : quote ? (
            <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
              <dt className="text-muted-foreground">{t("buy.form.youReceive")}</dt>
              <dd data-testid="quote-tokens" className="min-w-0 break-words">
                <bdi dir="ltr">{grouped(quote.tokens, 6, locale)} CPXTB</bdi>
              </dd>
              <dt className="text-muted-foreground">{t("buy.form.youPay")}</dt>
              <dd data-testid="quote-eth" className="min-w-0 break-words">
                <bdi dir="ltr">
                  {dollars(quote.usd, locale)}
                  {quote.eth ? ` ≈ ${quote.eth} ETH` : null}
                </bdi>
              </dd>
              <dt className="text-muted-foreground">{t("buy.form.price")}</dt>
              <dd className="min-w-0 break-words">
                {t("buy.form.pricePerToken", { price: dollars(quote.usdPerToken, locale, false) })}
                {priceSource === "fixed"
                  ? ` ${t("buy.form.priceFixed")}`
                  : priceSource === "pool"
                    ? ` ${t("buy.form.pricePool")}`
                    : null}
                {quote.ethUsd ? ` · ETH ${dollars(quote.ethUsd, locale)}` : null}
              </dd>
            </dl>
          ) : quoteError ? null : (
            <span className="text-muted-foreground">{t("buy.form.enterAmount")}</span>
          )}
        </div>
        {quoteError || error ? (
          <div role="alert" className="flex gap-2 rounded-md border border-destructive/50 p-3 text-sm">
            <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-destructive-emphasis" />
            <p>{error ?? (quoteError === "invalid" ? t("buy.form.invalidNumber") : quoteError)}</p>
          </div>
        ) : null}
        {toManaged ? (
          <p className="text-muted-foreground text-sm" data-testid="buy-managed-note">
            {c?.methods.paypal ? t("buy.form.managedNotePaypal") : t("buy.form.managedNoteEth")}
          </p>
        ) : null}
        <Button size="lg" onClick={buyWithEth} disabled={!quote?.eth || busy || quoting}>
          {busy ? <Spinner size="sm" /> : <Wallet aria-hidden="true" />}
          {busy ? t("buy.form.connecting") : t("buy.form.buyWithEth")}
        </Button>
        {c?.methods.paypal ? (
          <Button
            size="lg"
            variant="outline"
            onClick={buyWithPaypal}
            disabled={!quote || busy || quoting}
            data-testid="pay-paypal"
          >
            <CreditCard aria-hidden="true" />
            {t("buy.form.payWithPaypal")}
          </Button>
        ) : null}
        {quote && !quote.eth ? (
          <p className="text-muted-foreground text-sm">{t("buy.form.ethUnavailable")}</p>
        ) : null}
      </CardContent>
    </Card>
  );
}

/** One of the two places bought CPXTB can go (a radio with its explanation). */
function DeliverChoice({
  checked,
  onSelect,
  title,
  detail,
  mono = false,
}: {
  checked: boolean;
  onSelect: () => void;
  title: string;
  detail: string;
  mono?: boolean;
}) {
  return (
    <label
      className={`flex min-h-11 cursor-pointer items-start gap-3 rounded-md border p-3 text-sm ${
        checked ? "border-primary bg-primary/5" : "border-border"
      }`}
    >
      <input
        type="radio"
        name="deliver-to"
        className="mt-1 size-4 accent-primary"
        checked={checked}
        onChange={onSelect}
      />
      <span className="min-w-0">
        <span className="block font-medium">{title}</span>
        <span className={`block text-muted-foreground ${mono ? "break-all font-mono text-xs" : ""}`}>
          {detail}
        </span>
      </span>
    </label>
  );
}
