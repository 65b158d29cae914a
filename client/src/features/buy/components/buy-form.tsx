import type { BuyQuote, BuyWalletProof } from "@common/buy";
import { Coins, CreditCard, TriangleAlert, Wallet } from "lucide-react";
import * as React from "react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { Spinner } from "@/components/ui/spinner";
import { errorText } from "@/lib/error-text";
import { createBuyOrder, createPaypalOrder, fetchQuote, useBuyConfig } from "../api/buy-api";
import { grouped, type PriceSource } from "../format";

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
 */
export function BuyForm({
  connectWallet,
  proveWallet,
  initialTokens,
  returnTo,
  onOrder,
  priceSource,
}: {
  /** The price source in use (GET /api/price), so the words about the price say where it comes from. */
  priceSource?: PriceSource | null | undefined;
  connectWallet: ConnectWallet;
  proveWallet: ProveWallet;
  initialTokens?: string | undefined;
  returnTo?: string | undefined;
  onOrder: (id: string) => void;
}) {
  const config = useBuyConfig();
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
      setQuoteError(edited.value ? "Enter a number, like 25 or 12.50." : null);
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
          setQuoteError(errorText(e));
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
        ...(edited.field === "usd" ? { usd: edited.value } : { tokens: edited.value }),
        returnTo: returnTo ?? null,
      });
      onOrder(order.id);
    } catch (e) {
      setError(errorText(e));
      setBusy(false);
    }
  };

  const buyWithPaypal = async () => {
    if (!edited || !quote) return;
    setBusy(true);
    setError(null);
    try {
      const buyerAddress = await connectWallet();
      const order = await createPaypalOrder({
        buyerAddress,
        ...(edited.field === "usd" ? { usd: edited.value } : { tokens: edited.value }),
        returnTo: returnTo ?? null,
      });
      if (!order.approveUrl) throw new Error("PayPal gave no approval link. Try again.");
      window.location.assign(order.approveUrl);
    } catch (e) {
      setError(errorText(e));
      setBusy(false);
    }
  };

  const c = config.data;
  if (config.isPending) return <Spinner label="Loading" />;
  if (c && !c.available) {
    return (
      <Card>
        <CardHeader>
          <CardTitle>Buying is unavailable</CardTitle>
          <CardDescription>{c.reason}</CardDescription>
        </CardHeader>
      </Card>
    );
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Coins aria-hidden="true" className="size-5" /> Buy CPXTB Tokens
        </CardTitle>
        <CardDescription>
          {c ? `From $${c.minUsd} to $${c.maxUsd} per order. ` : null}
          The price is locked for {c?.quoteMinutes ?? 10} minutes once you continue; the tokens are sent to
          your wallet as soon as your payment is confirmed on chain.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            label="Amount (USD)"
            inputMode="decimal"
            autoComplete="off"
            placeholder="e.g. 25.00"
            value={usd}
            onChange={(e) => {
              setUsd(e.target.value);
              setEdited({ field: "usd", value: e.target.value.trim() });
            }}
          />
          <Field
            label="CPXTB Tokens to Receive"
            inputMode="decimal"
            autoComplete="off"
            placeholder="e.g. 2500"
            value={tokens}
            onChange={(e) => {
              setTokens(e.target.value);
              setEdited({ field: "tokens", value: e.target.value.trim() });
            }}
          />
        </div>
        <div aria-live="polite" className="min-h-12 rounded-md bg-muted/50 p-3 text-sm tabular-nums">
          {quoting ? (
            <span className="text-muted-foreground">Getting the current price…</span>
          ) : quote ? (
            <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
              <dt className="text-muted-foreground">You receive</dt>
              <dd data-testid="quote-tokens">{grouped(quote.tokens, 6)} CPXTB</dd>
              <dt className="text-muted-foreground">You pay</dt>
              <dd data-testid="quote-eth">
                ${grouped(quote.usd, 2)}
                {quote.eth ? ` ≈ ${quote.eth} ETH` : null}
              </dd>
              <dt className="text-muted-foreground">Price</dt>
              <dd>
                ${quote.usdPerToken} per CPXTB
                {priceSource === "fixed"
                  ? " (fixed price)"
                  : priceSource === "pool"
                    ? " (liquidity pool)"
                    : null}
                {quote.ethUsd ? ` · ETH $${grouped(quote.ethUsd, 2)}` : null}
              </dd>
            </dl>
          ) : quoteError ? null : (
            <span className="text-muted-foreground">Enter an amount in USD or in CPXTB.</span>
          )}
        </div>
        {quoteError || error ? (
          <div role="alert" className="flex gap-2 rounded-md border border-destructive/50 p-3 text-sm">
            <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-destructive-emphasis" />
            <p>{error ?? quoteError}</p>
          </div>
        ) : null}
        <Button size="lg" onClick={buyWithEth} disabled={!quote?.eth || busy || quoting}>
          {busy ? <Spinner size="sm" /> : <Wallet aria-hidden="true" />}
          {busy ? "Connecting your wallet…" : "Buy with ETH"}
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
            Pay with PayPal
          </Button>
        ) : null}
        {quote && !quote.eth ? (
          <p className="text-muted-foreground text-sm">
            Paying with ETH is unavailable on this server right now.
          </p>
        ) : null}
      </CardContent>
    </Card>
  );
}
