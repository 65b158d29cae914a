import type { ChainConfigResponse } from "@common/chain";
import type { PublicPayment } from "@common/payments";
import type { PriceResponse } from "@common/price";
import { useQuery } from "@tanstack/react-query";
import {
  CircleCheck,
  CircleX,
  Clock,
  ExternalLink,
  Info,
  RefreshCw,
  ShieldCheck,
  Smartphone,
  TimerOff,
  TriangleAlert,
  Undo2,
  Wallet,
} from "lucide-react";
import * as React from "react";
import { Link, useLocation } from "wouter";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { useHydrated } from "@/hooks/use-hydrated";
import { isApiError } from "@/lib/api-client";
import { errorText } from "@/lib/error-text";
import type { LiveState } from "@/lib/live-socket";
import { networkName } from "@/lib/network-name";
import { cn } from "@/lib/utils";
import { usePublicPayment } from "../api/get-public-payment";
import { useRegeneratePayment } from "../api/regenerate-payment";
import { submitPaymentTx } from "../api/submit-payment-tx";
import { appearanceProps } from "../appearance";
import { formatCountdown, formatTokenAmount, formatUsd, plainTokenAmount, shortAddress } from "../format";
import { PaymentStatusBadge, STATUS_INFO } from "../payment-status";
import { RefundBadge } from "../refund-status";
import { useLivePayment, useUnmatchedTransfers } from "../use-live-payment";
import { useNow } from "../use-now";
import { CheckoutHeader } from "./checkout-header";
import { CopyButton } from "./copy-button";
import { QrCode } from "./qr-code";
import { ReceiptButton } from "./receipt-button";
import { TxHashForm } from "./tx-hash-form";

export type TransferStep = "connecting" | "switching" | "confirm" | "mining";
/** Sends the token transfer from the payer's wallet; composed in by the app layer (the wallet feature). */
export type SendTransfer = (
  transfer: { chainId: number; token: string; to: string; amount: bigint; from?: string },
  onStep: (step: TransferStep) => void,
) => Promise<string>;

const STEP_LABEL: Record<TransferStep, string> = {
  connecting: "Connecting your wallet…",
  switching: "Switching network…",
  confirm: "Confirm the payment in your wallet…",
  mining: "Waiting for the transaction…",
};

const OPEN = new Set(["pending", "processing", "partial"]);

/**
 * The ways to pay beyond the QR code and the wallet-app link, composed in by the app layer (a social sign-in and
 * its managed wallet). It is given the browser-wallet button to place (or leave out, when it offers its own Pay).
 * It must render on the server and in the hydrating render exactly as the browser's first render (decision 017).
 */
export type PayOptionsProps = {
  payment: PublicPayment;
  /** What is left to pay, whole tokens. */
  remainingText: string;
  browserWallet: React.ReactNode;
};

/** What to send now: the server's amount to pay (a partial payment's reserved remainder, matched from any wallet). */
export function remainingBase(payment: PublicPayment): bigint {
  return BigInt(payment.amountToPayBase);
}

/** Base units -> decimal string of whole tokens. */
export function baseToDecimal(base: bigint, decimals: number): string {
  const text = base.toString().padStart(decimals + 1, "0");
  return decimals ? `${text.slice(0, -decimals)}.${text.slice(-decimals)}` : text;
}

function Amount({ value, className }: { value: string; className?: string }) {
  return <span className={cn("tabular-nums", className)}>{formatTokenAmount(value)} CPXTB</span>;
}

/** The token's network by name ("Base", "Local development chain"), never a bare chain id. */
function useNetworkName(chainId: number): string {
  const chain = useQuery<ChainConfigResponse>({ queryKey: ["/api/chain-config"] });
  return networkName(chainId, chain.data);
}

export function PayView({
  reference,
  sendTransfer,
  payOptions,
  headerEnd,
}: {
  reference: string;
  sendTransfer: SendTransfer;
  payOptions?: React.ComponentType<PayOptionsProps> | undefined;
  /** Controls of the page's minimal header (the app layer passes the theme toggle). */
  headerEnd?: React.ReactNode;
}) {
  const query = usePublicPayment(reference);
  const live = useLivePayment(reference);
  const payment = query.data;

  if (query.isPending) {
    return (
      <PayShell headerEnd={headerEnd}>
        <div className="flex flex-col items-center gap-4 py-8" aria-busy="true">
          <div className="h-8 w-48 animate-pulse rounded bg-muted motion-reduce:animate-none" />
          <div className="size-52 animate-pulse rounded-lg bg-muted motion-reduce:animate-none" />
          <p className="text-muted-foreground text-sm">Loading the payment…</p>
        </div>
      </PayShell>
    );
  }
  if (query.isError || !payment) {
    // The server renders an unknown reference with its data as null (decision 017).
    const notFound =
      query.data === null ||
      (isApiError(query.error) && (query.error.status === 404 || query.error.status === 400));
    return (
      <PayShell headerEnd={headerEnd}>
        <div role="alert" className="flex flex-col items-center gap-3 py-8 text-center">
          <CircleX aria-hidden="true" className="size-10 text-destructive-emphasis" />
          <h2 className="font-semibold text-xl">
            {notFound ? "Payment not found" : "The payment could not be loaded"}
          </h2>
          <p className="max-w-sm text-muted-foreground text-sm">
            {notFound
              ? "No payment has this link. Check the link with the merchant, and do not send any tokens for it."
              : "The server did not answer. Check your connection and try again; send nothing until the payment shows here."}
          </p>
          {notFound ? (
            <Button asChild variant="outline">
              <Link href="/payment">Look up a payment</Link>
            </Button>
          ) : (
            <Button variant="outline" onClick={() => query.refetch()}>
              <RefreshCw aria-hidden="true" /> Try again
            </Button>
          )}
        </div>
      </PayShell>
    );
  }
  return (
    <PayShell payment={payment} headerEnd={headerEnd} wide={OPEN.has(payment.status)}>
      <StatusLine payment={payment} live={live} />
      {OPEN.has(payment.status) ? (
        <OpenPayment payment={payment} sendTransfer={sendTransfer} payOptions={payOptions} />
      ) : payment.status === "completed" || payment.status === "paid_late" ? (
        <PaymentSuccess payment={payment} />
      ) : payment.status === "expired" ? (
        <PaymentExpired payment={payment} />
      ) : payment.status === "cancelled" ? (
        <PaymentCancelled />
      ) : (
        <PaymentInvalid />
      )}
      <RefundsNotice payment={payment} />
    </PayShell>
  );
}

function PayShell({
  payment,
  headerEnd,
  wide = false,
  children,
}: {
  payment?: PublicPayment;
  headerEnd?: React.ReactNode;
  /** An open payment: from 1024 px, what and whom you pay beside how to pay. */
  wide?: boolean;
  children: React.ReactNode;
}) {
  // The merchant's look: its theme on this page's subtree, its brand colour as the accent.
  const appearance = appearanceProps(payment?.merchant);
  const merchant = payment?.merchant;
  return (
    <div
      className={cn("min-h-dvh bg-background text-foreground", appearance.className)}
      style={appearance.style}
      data-testid="pay-page"
      data-page-theme={merchant?.pageTheme}
    >
      <div
        className={cn(
          "mx-auto flex w-full max-w-md flex-col gap-3 px-3 pt-3 pb-8 sm:pt-8",
          wide && "lg:max-w-4xl",
        )}
      >
        <CheckoutHeader
          merchant={merchant}
          subtitle={`Payment request · ${payment?.token.symbol ?? "CPXTB"}`}
          end={headerEnd}
        />
        <section className="flex flex-col gap-3 rounded-xl border border-border border-t-4 border-t-primary bg-card p-4 text-card-foreground shadow-sm sm:p-6">
          {children}
        </section>
        <p className="text-center text-muted-foreground text-xs">Powered by CPXTB Pay</p>
      </div>
    </div>
  );
}

function StatusLine({ payment, live }: { payment: PublicPayment; live: LiveState }) {
  const now = useNow();
  // The expiry in the payer's local time, as a tooltip: written when the pointer comes over the countdown, not in
  // the render after hydration. The first date formatted in a tab sets up the browser's Intl data, which made that
  // render a long task on a phone (issue 39); a tooltip is not part of the first screen.
  const [pointedAt, setPointedAt] = React.useState(false);
  const left = new Date(payment.expiresAt).getTime() - now;
  const open = payment.status === "pending" || payment.status === "partial";
  const detail =
    payment.status === "processing"
      ? `${payment.confirmations} of ${payment.confirmationsRequired} confirmations`
      : null;
  return (
    <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
      <div role="status" aria-live="polite" aria-atomic="true" className="flex items-center gap-2">
        <PaymentStatusBadge status={payment.status} data-testid="payment-status" />
        <RefundBadge status={payment.refundStatus} data-testid="refund-status" />
        {detail ? <span className="text-muted-foreground tabular-nums">{detail}</span> : null}
        <span className="sr-only">{live === "lost" ? "Live updates reconnecting." : ""}</span>
      </div>
      {open ? (
        <span
          className={cn(
            "inline-flex items-center gap-1 tabular-nums",
            left < 60_000 ? "font-semibold text-destructive-emphasis" : "text-muted-foreground",
          )}
          title={pointedAt ? `Expires at ${new Date(payment.expiresAt).toLocaleString()}` : undefined}
          onPointerEnter={() => setPointedAt(true)}
          data-testid="countdown"
        >
          <Clock aria-hidden="true" className="size-4" />
          {left > 0 ? `Expires in ${formatCountdown(left)}` : "Expiring…"}
        </span>
      ) : null}
    </div>
  );
}

function OpenPayment({
  payment,
  sendTransfer,
  payOptions: PayOptions,
}: {
  payment: PublicPayment;
  sendTransfer: SendTransfer;
  payOptions: React.ComponentType<PayOptionsProps> | undefined;
}) {
  const [step, setStep] = React.useState<TransferStep | null>(null);
  const [problem, setProblem] = React.useState<{ title: string; text: string; buy?: boolean } | null>(null);
  const [location] = useLocation();
  const remaining = remainingBase(payment);
  const remainingText = baseToDecimal(remaining, payment.token.decimals);
  const partial = payment.status === "partial" || BigInt(payment.amountReceivedBase) > 0n;
  const network = useNetworkName(payment.chainId);

  const pay = async () => {
    setProblem(null);
    try {
      const hash = await sendTransfer(
        {
          chainId: payment.chainId,
          token: payment.token.address,
          to: payment.receivingAddress,
          amount: remaining,
        },
        setStep,
      );
      // The fast path; the indexer finds the transfer anyway if this request fails.
      await submitPaymentTx(payment.reference, hash).catch((error) =>
        console.warn("The transaction will be detected from the chain instead:", error),
      );
    } catch (error) {
      const insufficient = (error as Error).name === "InsufficientBalanceError";
      setProblem(
        insufficient
          ? {
              title: "Insufficient Balance",
              text: `This wallet holds less than ${formatTokenAmount(remainingText)} CPXTB. Top it up, or pay from another wallet with the QR code.`,
              buy: true,
            }
          : { title: "Payment not sent", text: errorText(error) },
      );
    } finally {
      setStep(null);
    }
  };

  const browserWallet = (
    <>
      <Button
        size="lg"
        className="w-full"
        onClick={pay}
        disabled={step !== null}
        data-testid="pay-with-wallet"
      >
        {step ? <Spinner size="sm" /> : <Wallet aria-hidden="true" />}
        {step ? STEP_LABEL[step] : `Pay ${formatTokenAmount(remainingText)} CPXTB`}
      </Button>
      {problem ? (
        <div role="alert" className="flex gap-2 rounded-md border border-destructive/50 p-3 text-sm">
          <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-destructive-emphasis" />
          <div>
            <p className="font-semibold">{problem.title}</p>
            <p className="text-muted-foreground">{problem.text}</p>
            {problem.buy ? (
              <Link
                className="font-medium underline"
                href={`/buy-cpxtb?return=${encodeURIComponent(location)}&tokens=${plainTokenAmount(remainingText)}`}
              >
                Buy CPXTB Here
              </Link>
            ) : null}
          </div>
        </div>
      ) : null}
    </>
  );

  return (
    <>
      <UnmatchedTransfers payment={payment} />
      <div className="flex flex-col gap-3 lg:grid lg:grid-cols-2 lg:items-start lg:gap-8">
        {/* What and whom you pay (the merchant heads the page) beside, from 1024 px, how to pay. */}
        <div className="flex flex-col gap-3 text-center lg:text-left" data-testid="pay-summary">
          <div>
            {partial ? <p className="font-medium text-muted-foreground text-sm">Left to pay</p> : null}
            <p className="font-bold text-2xl sm:text-3xl" data-testid="amount-due">
              <Amount value={partial ? remainingText : payment.amountDue} />
            </p>
            {payment.amountUsd ? (
              <p className="text-muted-foreground text-sm tabular-nums">
                ≈ {formatUsd(payment.amountUsd)} USD
              </p>
            ) : (
              <CurrentUsdValue amount={partial ? remainingText : payment.amountDue} />
            )}
          </div>
          {payment.description || payment.orderId ? (
            <dl className="flex flex-col gap-1 text-sm" data-testid="pay-for">
              {payment.description ? (
                <div>
                  <dt className="sr-only">For</dt>
                  <dd className="text-pretty font-medium">{payment.description}</dd>
                </div>
              ) : null}
              {payment.orderId ? (
                <div className="text-muted-foreground">
                  <dt className="inline">Order </dt>
                  <dd className="inline break-all font-mono text-foreground" data-testid="order-id">
                    {payment.orderId}
                  </dd>
                </div>
              ) : null}
            </dl>
          ) : null}
          <p className="text-pretty text-sm" data-testid="exact-amount-note">
            <span className="font-semibold">Send exactly this amount.</span>{" "}
            <span className="text-muted-foreground">
              Its last digits identify your payment: a rounded amount cannot be matched to it.
            </span>
          </p>
          {partial ? (
            <p className="rounded-md bg-warning px-2 py-1 text-sm text-warning-foreground">
              Received <Amount value={payment.amountReceived} /> of <Amount value={payment.amountDue} /> so
              far: send the remaining <Amount value={remainingText} /> to complete it.
            </p>
          ) : null}
        </div>
        <div className="flex flex-col gap-3" data-testid="pay-means">
          <QrCode
            value={payment.paymentUri}
            label={`QR code to pay ${formatTokenAmount(remainingText)} CPXTB to ${payment.receivingAddress}`}
            className="mx-auto w-full max-w-[200px] sm:max-w-[240px]"
          />
          {payment.status === "processing" ? null : <WalletAppLink uri={payment.paymentUri} />}
          {PayOptions ? (
            <PayOptions payment={payment} remainingText={remainingText} browserWallet={browserWallet} />
          ) : (
            browserWallet
          )}
          {/* Each row: the term, then its value with its copy button (a <dl> holds only dt/dd groups). */}
          <dl className="flex flex-col gap-2 text-sm">
            <div>
              <dt className="text-muted-foreground">Exact amount (to the last digit)</dt>
              <dd className="flex items-center justify-between gap-2">
                <span className="min-w-0 font-mono tabular-nums" data-testid="exact-amount">
                  {plainTokenAmount(remainingText)}
                </span>
                <CopyButton
                  value={plainTokenAmount(remainingText)}
                  label="Amount"
                  copiedText="Paste it unchanged: its last digits identify your payment."
                />
              </dd>
            </div>
            <div>
              <dt className="text-muted-foreground">To address</dt>
              <dd className="flex items-center justify-between gap-2">
                <span className="min-w-0 font-mono" title={payment.receivingAddress}>
                  {shortAddress(payment.receivingAddress)}
                </span>
                <CopyButton value={payment.receivingAddress} label="Address" />
              </dd>
            </div>
            <div className="flex items-baseline justify-between gap-2">
              <dt className="text-muted-foreground">Network</dt>
              <dd className="text-right font-medium" data-testid="network-name">
                {network}
              </dd>
            </div>
          </dl>
          <p className="flex gap-2 rounded-md border border-warning/60 bg-warning/10 p-3 text-sm">
            <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
            <span data-testid="network-warning">
              Send only {payment.token.symbol} (token {shortAddress(payment.token.address)}) on {network},
              exactly this amount. Other tokens or networks cannot be detected and are lost.
            </span>
          </p>
          <TxHashForm reference={payment.reference} />
        </div>
      </div>
    </>
  );
}

/**
 * A transfer to the merchant's address that matched no payment arrived while this page is open (the live channel
 * says only its amount): perhaps the payer's, of a wrong amount. It never says whose it was; the hash decides.
 */
function UnmatchedTransfers({ payment }: { payment: PublicPayment }) {
  const amounts = useUnmatchedTransfers(payment);
  if (amounts.length === 0) return null;
  const paste = () => {
    const form = document.querySelector<HTMLDetailsElement>('[data-testid="tx-hash-form"]');
    if (!form) return;
    form.open = true;
    form.querySelector("input")?.focus();
  };
  return (
    <div
      role="status"
      className="flex gap-2 rounded-md border border-warning/60 bg-warning/10 p-3 text-sm"
      data-testid="unmatched-transfer"
    >
      <Info aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      <div className="flex flex-col gap-1">
        {amounts.map((amount, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the same amount can arrive twice; the list only grows
          <p key={i}>
            We saw a transfer of <Amount value={amount} className="font-semibold" /> that does not match this
            payment. If it was yours, paste its transaction hash.
          </p>
        ))}
        <Button variant="outline" size="sm" className="self-start" onClick={paste}>
          Paste the transaction hash
        </Button>
      </div>
    </div>
  );
}

/**
 * An amount asked in CPXTB has no locked rate: its USD value at the server's current price (GET /api/price, after
 * the page is shown), said to be today's. Nothing when no price can be read: a value is never guessed.
 */
function CurrentUsdValue({ amount }: { amount: string }) {
  const price = useQuery<PriceResponse>({ queryKey: ["/api/price"] });
  if (!price.data || price.data.stale) return null;
  const [whole = "0", fraction = ""] = amount.split(".");
  const base = BigInt(whole + fraction.padEnd(18, "0").slice(0, 18));
  const scale = 10n ** 34n;
  const cents = (base * BigInt(price.data.priceE18) * 2n + scale) / (2n * scale);
  const usd = `${cents / 100n}.${(cents % 100n).toString().padStart(2, "0")}`;
  return (
    <p className="text-muted-foreground text-sm tabular-nums" data-testid="current-usd">
      ≈ {formatUsd(usd)} USD at today's rate
    </p>
  );
}

/**
 * The payment as an EIP-681 link (the QR code's own URI: token, `transfer`, the merchant's address, what is left
 * to pay): on a phone it opens the installed wallet app with the payment filled in, where a QR code on the same
 * screen cannot be scanned.
 */
function WalletAppLink({ uri }: { uri: string }) {
  return (
    <div className="flex flex-col gap-1">
      <Button asChild size="lg" variant="outline" className="w-full">
        <a href={uri} data-testid="open-in-wallet-app">
          <Smartphone aria-hidden="true" /> Open in wallet app
        </a>
      </Button>
      <p className="text-center text-muted-foreground text-xs">
        Opens a wallet app installed on this device (MetaMask, Coinbase Wallet…) with this payment filled in.
      </p>
    </div>
  );
}

function useExplorerUrl() {
  const chain = useQuery<ChainConfigResponse>({ queryKey: ["/api/chain-config"] });
  return chain.data?.blockExplorerUrl?.replace(/\/$/, "");
}

/** A transaction's short hash, linked to the explorer when the network has one. */
function TxLink({ hash, explorer }: { hash: string; explorer: string | undefined }) {
  return explorer ? (
    <a
      href={`${explorer}/tx/${hash}`}
      target="_blank"
      rel="noreferrer"
      className="inline-flex items-center gap-1 font-mono text-primary underline-offset-4 hover:underline"
    >
      {shortAddress(hash)} <ExternalLink aria-hidden="true" className="size-3.5" />
    </a>
  ) : (
    <span className="font-mono" title={hash} data-testid="tx-hash">
      {shortAddress(hash)}
    </span>
  );
}

/** What the merchant sent back (decision 018): each refund with its transaction, verified on chain. */
function RefundsNotice({ payment }: { payment: PublicPayment }) {
  const explorer = useExplorerUrl();
  const hydrated = useHydrated();
  if (payment.refunds.length === 0) return null;
  const full = payment.refundStatus === "refunded";
  return (
    <div
      className="flex flex-col gap-2 rounded-md border border-border p-3 text-sm"
      data-testid="pay-refunds"
    >
      <p className="flex items-center gap-2 font-semibold">
        <Undo2 aria-hidden="true" className="size-4" />
        {full
          ? `Refunded: ${formatTokenAmount(payment.amountRefunded)} CPXTB sent back to you`
          : `Partly refunded: ${formatTokenAmount(payment.amountRefunded)} CPXTB sent back to you`}
      </p>
      <ul className="flex flex-col gap-1">
        {payment.refunds.map((r) => (
          <li key={r.txHash} className="flex flex-wrap items-center justify-between gap-2">
            <span className="tabular-nums">
              <Amount value={r.amount} />
              {hydrated ? (
                <span className="text-muted-foreground"> · {new Date(r.createdAt).toLocaleString()}</span>
              ) : null}
            </span>
            <TxLink hash={r.txHash} explorer={explorer} />
          </li>
        ))}
      </ul>
      <p className="text-muted-foreground text-xs">Verified on chain: the merchant's wallet sent it.</p>
    </div>
  );
}

function TxLinks({ payment }: { payment: PublicPayment }) {
  const explorer = useExplorerUrl();
  if (payment.txHashes.length === 0) return null;
  return (
    <ul className="flex flex-col gap-1 text-sm">
      {payment.txHashes.map((hash) => (
        <li key={hash} className="flex items-center justify-between gap-2">
          <span className="text-muted-foreground">Transaction</span>
          <TxLink hash={hash} explorer={explorer} />
        </li>
      ))}
    </ul>
  );
}

function PaymentSuccess({ payment }: { payment: PublicPayment }) {
  const late = payment.status === "paid_late";
  const network = useNetworkName(payment.chainId);
  const hydrated = useHydrated();
  return (
    <div className="flex flex-col items-center gap-3 py-2 text-center">
      <CircleCheck aria-hidden="true" className="size-14 text-success" />
      <h2 className="font-bold text-2xl">Payment Successful</h2>
      <p className="font-semibold text-lg">Thank You!</p>
      <p className="text-sm">
        Received <Amount value={payment.amountReceived} className="font-semibold" />
        {payment.completedAt && hydrated ? ` on ${new Date(payment.completedAt).toLocaleString()}` : ""}.
      </p>
      {payment.amountReceivedUsd || payment.orderId ? (
        <p className="text-muted-foreground text-sm tabular-nums">
          {payment.amountReceivedUsd ? `Worth ${formatUsd(payment.amountReceivedUsd)} USD` : null}
          {payment.amountReceivedUsd && payment.orderId ? " · " : null}
          {payment.orderId ? (
            <span data-testid="order-id">
              Order <span className="break-all font-mono text-foreground">{payment.orderId}</span>
            </span>
          ) : null}
        </p>
      ) : null}
      {late ? (
        <p className="flex gap-2 rounded-md bg-warning p-2 text-left text-sm text-warning-foreground">
          <Info aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          It arrived after the payment had expired, within the 24-hour window: the merchant sees it as paid
          late.
        </p>
      ) : null}
      {payment.overpaid && payment.refundStatus === "none" ? (
        <p className="flex gap-2 rounded-md bg-warning p-2 text-left text-sm text-warning-foreground">
          <Info aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          You sent {formatTokenAmount(baseToDecimal(BigInt(payment.overpaidBase), payment.token.decimals))}{" "}
          CPXTB more than due. Contact the merchant about a refund of the difference.
        </p>
      ) : null}
      <div className="w-full">
        <TxLinks payment={payment} />
      </div>
      {payment.successUrl ? (
        <Button asChild size="lg" className="w-full">
          <a href={payment.successUrl} rel="noreferrer">
            Return to Merchant
          </a>
        </Button>
      ) : payment.merchant.website ? (
        <Button asChild size="lg" className="w-full">
          <a href={payment.merchant.website} rel="noreferrer" data-testid="merchant-website">
            <span className="truncate">Back to {payment.merchant.name}</span>{" "}
            <ExternalLink aria-hidden="true" />
          </a>
        </Button>
      ) : null}
      <ReceiptButton payment={payment} network={network} size="lg" className="w-full" />
      <p className="flex items-center gap-1 text-muted-foreground text-xs">
        <ShieldCheck aria-hidden="true" className="size-3.5" /> Verified on chain.
      </p>
    </div>
  );
}

function PaymentExpired({ payment }: { payment: PublicPayment }) {
  const [, navigate] = useLocation();
  const regenerate = useRegeneratePayment();
  const received = BigInt(payment.amountReceivedBase) > 0n;
  const restart = () =>
    regenerate.mutate(payment.reference, { onSuccess: (next) => navigate(`/pay/${next.reference}`) });
  return (
    <div className="flex flex-col items-center gap-3 py-2 text-center">
      <TimerOff aria-hidden="true" className="size-12 text-destructive-emphasis" />
      <h2 className="font-bold text-2xl">Payment Expired</h2>
      <p className="text-muted-foreground text-sm">
        {received ? (
          <>
            Only <Amount value={payment.amountReceived} /> of <Amount value={payment.amountDue} /> arrived
            before the time ran out. Contact the merchant to settle the rest; do not send more to this
            request.
          </>
        ) : (
          <>
            Nothing was received for <Amount value={payment.amountDue} /> in time. Do not send tokens for it;
            start a new payment at the current rate instead. A transfer that still arrives within 24 hours is
            recognised as paid late.
          </>
        )}
      </p>
      {payment.regeneratedTo ? (
        <Button asChild size="lg" className="w-full">
          <Link href={`/pay/${payment.regeneratedTo}`}>Go to the new payment</Link>
        </Button>
      ) : !received ? (
        <Button size="lg" className="w-full" onClick={restart} disabled={regenerate.isPending}>
          {regenerate.isPending ? <Spinner size="sm" /> : <RefreshCw aria-hidden="true" />}
          Regenerate Payment
        </Button>
      ) : null}
      {regenerate.isError ? (
        <p role="alert" className="text-destructive-emphasis text-sm">
          A new payment could not be made: {errorText(regenerate.error)}
        </p>
      ) : null}
      <TxLinks payment={payment} />
      <div className="w-full text-left">
        <TxHashForm reference={payment.reference} />
      </div>
    </div>
  );
}

function PaymentCancelled() {
  const info = STATUS_INFO.cancelled;
  return (
    <div className="flex flex-col items-center gap-3 py-2 text-center">
      <info.icon aria-hidden="true" className="size-12 text-destructive-emphasis" />
      <h2 className="font-bold text-2xl">Payment cancelled</h2>
      <p className="text-muted-foreground text-sm">
        The merchant cancelled this request. Do not send anything for it; ask the merchant for a new one.
      </p>
    </div>
  );
}

function PaymentInvalid() {
  const info = STATUS_INFO.invalid;
  return (
    <div className="flex flex-col items-center gap-3 py-2 text-center">
      <info.icon aria-hidden="true" className="size-12 text-destructive-emphasis" />
      <h2 className="font-bold text-2xl">Payment invalid</h2>
      <p className="text-muted-foreground text-sm">
        The transaction that paid this request was removed from the chain (a reorganisation) and nothing else
        paid it. Contact the merchant before paying again.
      </p>
    </div>
  );
}
