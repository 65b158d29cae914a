import type { ChainConfigResponse } from "@common/chain";
import { directionOf, isLocale } from "@common/locales";
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
import { chooseLanguage, chosenLocale, Rich, useLocale, useT } from "@/i18n/i18n";
import { LanguageMenu } from "@/i18n/language-menu";
import { isApiError } from "@/lib/api-client";
import type { LiveState } from "@/lib/live-socket";
import { cn } from "@/lib/utils";
import { usePublicPayment } from "../api/get-public-payment";
import { useRegeneratePayment } from "../api/regenerate-payment";
import { submitPaymentTx } from "../api/submit-payment-tx";
import { appearanceProps } from "../appearance";
import { useCopyWords } from "../copy-words";
import {
  formatCountdown,
  formatExactTokenAmount,
  formatTokenAmount,
  formatUsdAmount,
  plainTokenAmount,
  shortAddress,
} from "../format";
import { payerNetworkName } from "../network-words";
import { payErrorText } from "../pay-error-text";
import { PaymentStatusBadge, STATUS_INFO, STATUS_LABEL_ID } from "../payment-status";
import { REFUND_LABEL_ID, RefundBadge } from "../refund-status";
import { sentUnconfirmedHash, transferErrorText } from "../transfer-error-text";
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

const STEP_LABEL = {
  connecting: "pay.view.step.connecting",
  switching: "pay.view.step.switching",
  confirm: "pay.view.step.confirm",
  mining: "pay.view.step.mining",
} as const satisfies Record<TransferStep, string>;

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

/**
 * `dir` for a number, address or hash inside right-to-left text: kept left to right (isolated). Nothing in a
 * left-to-right language, whose markup stays as it was.
 */
function useLtr(): "ltr" | undefined {
  return directionOf(useLocale()) === "rtl" ? "ltr" : undefined;
}

function Amount({ value, className }: { value: string; className?: string }) {
  const locale = useLocale();
  const dir = directionOf(locale) === "rtl" ? "ltr" : undefined;
  return (
    <span dir={dir} className={cn("tabular-nums", className)}>
      {formatExactTokenAmount(value, locale)} CPXTB
    </span>
  );
}

/** The token's network by name ("Base", "Local development chain"), never a bare chain id. */
function useNetworkName(chainId: number): string {
  const chain = useQuery<ChainConfigResponse>({ queryKey: ["/api/chain-config"] });
  return payerNetworkName(useT(), chainId, chain.data);
}

/**
 * A pay page opened in the app (not rendered by the server, which already chose it): the merchant's language for
 * their pay pages, once, unless the payer chose one with the menu. Not remembered: the payer's next pages follow
 * their own browser.
 */
function useMerchantLanguage(payLanguage: string | null | undefined) {
  const locale = useLocale();
  const done = React.useRef(false);
  React.useEffect(() => {
    if (done.current || !payLanguage) return;
    done.current = true;
    if (chosenLocale() || !isLocale(payLanguage) || payLanguage === locale) return;
    chooseLanguage(payLanguage, { remember: false }).catch((error) =>
      console.warn("The merchant's language could not be loaded:", error),
    );
  }, [payLanguage, locale]);
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
  const t = useT();
  useMerchantLanguage(payment?.payerLanguage ?? payment?.merchant.payLanguage);

  if (query.isPending) {
    return (
      <PayShell headerEnd={headerEnd}>
        <div className="flex flex-col items-center gap-4 py-8" aria-busy="true">
          <div className="h-8 w-48 animate-pulse rounded bg-muted motion-reduce:animate-none" />
          <div className="size-52 animate-pulse rounded-lg bg-muted motion-reduce:animate-none" />
          <p className="text-muted-foreground text-sm">{t("pay.view.loading")}</p>
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
            {notFound ? t("pay.view.notFound.title") : t("pay.view.loadFailed.title")}
          </h2>
          <p className="max-w-sm text-muted-foreground text-sm">
            {notFound ? t("pay.view.notFound.text") : t("pay.view.loadFailed.text")}
          </p>
          {notFound ? (
            <Button asChild variant="outline">
              <Link href="/payment">{t("pay.view.notFound.lookUp")}</Link>
            </Button>
          ) : (
            <Button variant="outline" onClick={() => query.refetch()}>
              <RefreshCw aria-hidden="true" /> {t("pay.view.loadFailed.retry")}
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
  const t = useT();
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
          subtitle={t("pay.header.subtitle", { token: payment?.token.symbol ?? "CPXTB" })}
          end={headerEnd}
        />
        <section className="flex flex-col gap-3 rounded-xl border border-border border-t-4 border-t-primary bg-card p-4 text-card-foreground shadow-sm sm:p-6">
          {children}
        </section>
        <footer className="flex flex-wrap items-center justify-center gap-x-3 gap-y-1 text-muted-foreground text-xs">
          <p>{t("pay.footer.poweredBy")}</p>
          <LanguageMenu />
        </footer>
      </div>
    </div>
  );
}

function StatusLine({ payment, live }: { payment: PublicPayment; live: LiveState }) {
  const now = useNow();
  const t = useT();
  const locale = useLocale();
  const dir = useLtr();
  // The expiry in the payer's local time, as a tooltip: written when the pointer comes over the countdown, not in
  // the render after hydration. The first date formatted in a tab sets up the browser's Intl data, which made that
  // render a long task on a phone (issue 39); a tooltip is not part of the first screen.
  const [pointedAt, setPointedAt] = React.useState(false);
  const left = new Date(payment.expiresAt).getTime() - now;
  const open = payment.status === "pending" || payment.status === "partial";
  const detail =
    payment.status === "processing"
      ? t("pay.view.confirmations", {
          confirmations: payment.confirmations,
          required: payment.confirmationsRequired,
        })
      : null;
  return (
    <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
      <div role="status" aria-live="polite" aria-atomic="true" className="flex items-center gap-2">
        <PaymentStatusBadge
          status={payment.status}
          label={t(STATUS_LABEL_ID[payment.status])}
          data-testid="payment-status"
        />
        <RefundBadge
          status={payment.refundStatus}
          label={payment.refundStatus === "none" ? undefined : t(REFUND_LABEL_ID[payment.refundStatus])}
          data-testid="refund-status"
        />
        {detail ? <span className="text-muted-foreground tabular-nums">{detail}</span> : null}
        <span className="sr-only">{live === "lost" ? t("pay.view.liveLost") : ""}</span>
      </div>
      {open ? (
        <span
          className={cn(
            "inline-flex items-center gap-1 tabular-nums",
            left < 60_000 ? "font-semibold text-destructive-emphasis" : "text-muted-foreground",
          )}
          title={
            pointedAt
              ? t("pay.view.expiresAt", { time: new Date(payment.expiresAt).toLocaleString(locale) })
              : undefined
          }
          onPointerEnter={() => setPointedAt(true)}
          data-testid="countdown"
        >
          <Clock aria-hidden="true" className="size-4" />
          {left <= 0 ? (
            t("pay.view.expiring")
          ) : dir ? (
            <Rich
              id="pay.view.expiresIn"
              values={{ countdown: <bdi dir={dir}>{formatCountdown(left)}</bdi> }}
            />
          ) : (
            t("pay.view.expiresIn", { countdown: formatCountdown(left) })
          )}
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
  const t = useT();
  const locale = useLocale();
  const copyWords = useCopyWords();
  const dir = useLtr();

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
      const sent = sentUnconfirmedHash(error);
      if (sent)
        void submitPaymentTx(payment.reference, sent).catch((failure) =>
          console.warn("The transaction will be detected from the chain instead:", failure),
        );
      setProblem(
        insufficient
          ? {
              title: t("pay.view.insufficient.title"),
              text: t("pay.view.insufficient.text", {
                amount: formatExactTokenAmount(remainingText, locale),
              }),
              buy: true,
            }
          : {
              title: t(sent ? "pay.view.sentUnconfirmed" : "pay.view.notSent"),
              text: transferErrorText(error),
            },
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
        {step
          ? t(STEP_LABEL[step])
          : t("pay.view.payButton", { amount: formatExactTokenAmount(remainingText, locale) })}
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
                {t("pay.view.buyCpxtb")}
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
        <div className="flex flex-col gap-3 text-center lg:text-start" data-testid="pay-summary">
          <div>
            {partial ? (
              <p className="font-medium text-muted-foreground text-sm">{t("pay.view.leftToPay")}</p>
            ) : null}
            <p className="font-bold text-2xl sm:text-3xl" data-testid="amount-due">
              <Amount value={partial ? remainingText : payment.amountDue} />
            </p>
            {payment.amountUsd ? (
              <p className="text-muted-foreground text-sm tabular-nums">
                ≈ {formatUsdAmount(payment.amountUsd, locale)}
              </p>
            ) : (
              <CurrentUsdValue amount={partial ? remainingText : payment.amountDue} />
            )}
          </div>
          {payment.description || payment.orderId ? (
            <dl className="flex flex-col gap-1 text-sm" data-testid="pay-for">
              {payment.description ? (
                <div>
                  <dt className="sr-only">{t("pay.view.for")}</dt>
                  <dd className="text-pretty font-medium">{payment.description}</dd>
                </div>
              ) : null}
              {payment.orderId ? (
                <div className="text-muted-foreground">
                  <dt className="inline">{t("pay.view.order")} </dt>
                  <dd className="inline break-all font-mono text-foreground" data-testid="order-id">
                    {payment.orderId}
                  </dd>
                </div>
              ) : null}
            </dl>
          ) : null}
          <p className="text-pretty text-sm" data-testid="exact-amount-note">
            <span className="font-semibold">{t("pay.view.sendExactly")}</span>{" "}
            <span className="text-muted-foreground">{t("pay.view.sendExactlyWhy")}</span>
          </p>
          {partial ? (
            <p className="rounded-md bg-warning px-2 py-1 text-sm text-warning-foreground">
              <Rich
                id="pay.view.partialReceived"
                values={{
                  received: <Amount value={payment.amountReceived} />,
                  due: <Amount value={payment.amountDue} />,
                  remaining: <Amount value={remainingText} />,
                }}
              />
            </p>
          ) : null}
        </div>
        <div className="flex flex-col gap-3" data-testid="pay-means">
          <QrCode
            value={payment.paymentUri}
            label={t("pay.qr.label", {
              amount: formatExactTokenAmount(remainingText, locale),
              address: payment.receivingAddress,
            })}
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
              <dt className="text-muted-foreground">{t("pay.view.exactAmount")}</dt>
              <dd className="flex items-center justify-between gap-2">
                <span className="min-w-0 font-mono tabular-nums" dir={dir} data-testid="exact-amount">
                  {plainTokenAmount(remainingText)}
                </span>
                <CopyButton
                  value={plainTokenAmount(remainingText)}
                  label={t("pay.copy.amount")}
                  copiedText={t("pay.copy.amountHint")}
                  words={copyWords}
                />
              </dd>
            </div>
            <div>
              <dt className="text-muted-foreground">{t("pay.view.toAddress")}</dt>
              <dd className="flex items-center justify-between gap-2">
                <span className="min-w-0 font-mono" dir={dir} title={payment.receivingAddress}>
                  {shortAddress(payment.receivingAddress)}
                </span>
                <CopyButton
                  value={payment.receivingAddress}
                  label={t("pay.copy.address")}
                  words={copyWords}
                />
              </dd>
            </div>
            <div className="flex items-baseline justify-between gap-2">
              <dt className="text-muted-foreground">{t("pay.view.network")}</dt>
              <dd className="text-end font-medium" data-testid="network-name">
                {network}
              </dd>
            </div>
          </dl>
          <p className="flex gap-2 rounded-md border border-warning/60 bg-warning/10 p-3 text-sm">
            <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
            <span data-testid="network-warning">
              <Rich
                id="pay.view.networkWarning"
                values={{
                  symbol: payment.token.symbol,
                  token: dir ? (
                    <bdi dir={dir}>{shortAddress(payment.token.address)}</bdi>
                  ) : (
                    shortAddress(payment.token.address)
                  ),
                  network,
                }}
              />
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
  const t = useT();
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
            <Rich
              id="pay.view.unmatched.text"
              values={{ amount: <Amount value={amount} className="font-semibold" /> }}
            />
          </p>
        ))}
        <Button variant="outline" size="sm" className="self-start" onClick={paste}>
          {t("pay.view.unmatched.paste")}
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
  const t = useT();
  const locale = useLocale();
  if (!price.data || price.data.stale) return null;
  const [whole = "0", fraction = ""] = amount.split(".");
  const base = BigInt(whole + fraction.padEnd(18, "0").slice(0, 18));
  const scale = 10n ** 34n;
  const cents = (base * BigInt(price.data.priceE18) * 2n + scale) / (2n * scale);
  const usd = `${cents / 100n}.${(cents % 100n).toString().padStart(2, "0")}`;
  return (
    <p className="text-muted-foreground text-sm tabular-nums" data-testid="current-usd">
      {t("pay.view.usdToday", { usd: formatUsdAmount(usd, locale) })}
    </p>
  );
}

/**
 * The payment as an EIP-681 link (the QR code's own URI: token, `transfer`, the merchant's address, what is left
 * to pay): on a phone it opens the installed wallet app with the payment filled in, where a QR code on the same
 * screen cannot be scanned.
 */
function WalletAppLink({ uri }: { uri: string }) {
  const t = useT();
  return (
    <div className="flex flex-col gap-1">
      <Button asChild size="lg" variant="outline" className="w-full">
        <a href={uri} data-testid="open-in-wallet-app">
          <Smartphone aria-hidden="true" /> {t("pay.view.walletApp.open")}
        </a>
      </Button>
      <p className="text-center text-muted-foreground text-xs">{t("pay.view.walletApp.hint")}</p>
    </div>
  );
}

function useExplorerUrl() {
  const chain = useQuery<ChainConfigResponse>({ queryKey: ["/api/chain-config"] });
  return chain.data?.blockExplorerUrl?.replace(/\/$/, "");
}

/** A transaction's short hash, linked to the explorer when the network has one. */
function TxLink({ hash, explorer }: { hash: string; explorer: string | undefined }) {
  const dir = useLtr();
  return explorer ? (
    <a
      href={`${explorer}/tx/${hash}`}
      target="_blank"
      rel="noreferrer"
      className="inline-flex items-center gap-1 font-mono text-primary underline-offset-4 hover:underline"
      dir={dir}
    >
      {shortAddress(hash)} <ExternalLink aria-hidden="true" className="size-3.5" />
    </a>
  ) : (
    <span className="font-mono" dir={dir} title={hash} data-testid="tx-hash">
      {shortAddress(hash)}
    </span>
  );
}

/** What the merchant sent back (decision 018): each refund with its transaction, verified on chain. */
function RefundsNotice({ payment }: { payment: PublicPayment }) {
  const explorer = useExplorerUrl();
  const hydrated = useHydrated();
  const t = useT();
  const locale = useLocale();
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
          ? t("pay.view.refunds.full", { amount: formatTokenAmount(payment.amountRefunded, locale) })
          : t("pay.view.refunds.partial", { amount: formatTokenAmount(payment.amountRefunded, locale) })}
      </p>
      <ul className="flex flex-col gap-1">
        {payment.refunds.map((r) => (
          <li key={r.txHash} className="flex flex-wrap items-center justify-between gap-2">
            <span className="tabular-nums">
              <Amount value={r.amount} />
              {hydrated ? (
                <span className="text-muted-foreground">
                  {" "}
                  · {new Date(r.createdAt).toLocaleString(locale)}
                </span>
              ) : null}
            </span>
            <TxLink hash={r.txHash} explorer={explorer} />
          </li>
        ))}
      </ul>
      <p className="text-muted-foreground text-xs">{t("pay.view.refunds.verified")}</p>
    </div>
  );
}

function TxLinks({ payment }: { payment: PublicPayment }) {
  const explorer = useExplorerUrl();
  const t = useT();
  if (payment.txHashes.length === 0) return null;
  return (
    <ul className="flex flex-col gap-1 text-sm">
      {payment.txHashes.map((hash) => (
        <li key={hash} className="flex items-center justify-between gap-2">
          <span className="text-muted-foreground">{t("pay.view.transaction")}</span>
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
  const t = useT();
  const locale = useLocale();
  return (
    <div className="flex flex-col items-center gap-3 py-2 text-center">
      <CircleCheck aria-hidden="true" className="size-14 text-success" />
      <h2 className="font-bold text-2xl">{t("pay.view.success.title")}</h2>
      <p className="font-semibold text-lg">{t("pay.view.success.thanks")}</p>
      <p className="text-sm">
        {payment.completedAt && hydrated ? (
          <Rich
            id="pay.view.success.receivedOn"
            values={{
              amount: <Amount value={payment.amountReceived} className="font-semibold" />,
              date: new Date(payment.completedAt).toLocaleString(locale),
            }}
          />
        ) : (
          <Rich
            id="pay.view.success.received"
            values={{ amount: <Amount value={payment.amountReceived} className="font-semibold" /> }}
          />
        )}
      </p>
      {payment.amountReceivedUsd || payment.orderId ? (
        <p className="text-muted-foreground text-sm tabular-nums">
          {payment.amountReceivedUsd
            ? t("pay.view.success.worth", { usd: formatUsdAmount(payment.amountReceivedUsd, locale) })
            : null}
          {payment.amountReceivedUsd && payment.orderId ? " · " : null}
          {payment.orderId ? (
            <span data-testid="order-id">
              {t("pay.view.order")}{" "}
              <span className="break-all font-mono text-foreground">{payment.orderId}</span>
            </span>
          ) : null}
        </p>
      ) : null}
      {late ? (
        <p className="flex gap-2 rounded-md bg-warning p-2 text-start text-sm text-warning-foreground">
          <Info aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          {t("pay.view.success.late")}
        </p>
      ) : null}
      {payment.overpaid && payment.refundStatus === "none" ? (
        <p className="flex gap-2 rounded-md bg-warning p-2 text-start text-sm text-warning-foreground">
          <Info aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          {t("pay.view.success.overpaid", {
            amount: formatTokenAmount(
              baseToDecimal(BigInt(payment.overpaidBase), payment.token.decimals),
              locale,
            ),
          })}
        </p>
      ) : null}
      <div className="w-full">
        <TxLinks payment={payment} />
      </div>
      {payment.successUrl ? (
        <Button asChild size="lg" className="w-full">
          <a href={payment.successUrl} rel="noreferrer">
            {t("pay.view.success.returnToMerchant")}
          </a>
        </Button>
      ) : payment.merchant.website ? (
        <Button asChild size="lg" className="w-full">
          <a href={payment.merchant.website} rel="noreferrer" data-testid="merchant-website">
            <span className="truncate">
              {t("pay.view.success.backTo", { merchant: payment.merchant.name })}
            </span>{" "}
            <ExternalLink aria-hidden="true" />
          </a>
        </Button>
      ) : null}
      <ReceiptButton payment={payment} network={network} size="lg" className="w-full" />
      <p className="flex items-center gap-1 text-muted-foreground text-xs">
        <ShieldCheck aria-hidden="true" className="size-3.5" /> {t("pay.view.success.verified")}
      </p>
    </div>
  );
}

function PaymentExpired({ payment }: { payment: PublicPayment }) {
  const [, navigate] = useLocation();
  const regenerate = useRegeneratePayment();
  const received = BigInt(payment.amountReceivedBase) > 0n;
  const t = useT();
  const restart = () =>
    regenerate.mutate(payment.reference, { onSuccess: (next) => navigate(`/pay/${next.reference}`) });
  return (
    <div className="flex flex-col items-center gap-3 py-2 text-center">
      <TimerOff aria-hidden="true" className="size-12 text-destructive-emphasis" />
      <h2 className="font-bold text-2xl">{t("pay.view.expired.title")}</h2>
      <p className="text-muted-foreground text-sm">
        {received ? (
          <Rich
            id="pay.view.expired.partial"
            values={{
              received: <Amount value={payment.amountReceived} />,
              due: <Amount value={payment.amountDue} />,
            }}
          />
        ) : (
          <Rich id="pay.view.expired.nothing" values={{ due: <Amount value={payment.amountDue} /> }} />
        )}
      </p>
      {payment.regeneratedTo ? (
        <Button asChild size="lg" className="w-full">
          <Link href={`/pay/${payment.regeneratedTo}`}>{t("pay.view.expired.goToNew")}</Link>
        </Button>
      ) : !received ? (
        <Button size="lg" className="w-full" onClick={restart} disabled={regenerate.isPending}>
          {regenerate.isPending ? <Spinner size="sm" /> : <RefreshCw aria-hidden="true" />}
          {t("pay.view.expired.regenerate")}
        </Button>
      ) : null}
      {regenerate.isError ? (
        <p role="alert" className="text-destructive-emphasis text-sm">
          {t("pay.view.expired.regenerateFailed", { error: payErrorText(regenerate.error) })}
        </p>
      ) : null}
      <TxLinks payment={payment} />
      <div className="w-full text-start">
        <TxHashForm reference={payment.reference} />
      </div>
    </div>
  );
}

function PaymentCancelled() {
  const info = STATUS_INFO.cancelled;
  const t = useT();
  return (
    <div className="flex flex-col items-center gap-3 py-2 text-center">
      <info.icon aria-hidden="true" className="size-12 text-destructive-emphasis" />
      <h2 className="font-bold text-2xl">{t("pay.view.cancelled.title")}</h2>
      <p className="text-muted-foreground text-sm">{t("pay.view.cancelled.text")}</p>
    </div>
  );
}

function PaymentInvalid() {
  const info = STATUS_INFO.invalid;
  const t = useT();
  return (
    <div className="flex flex-col items-center gap-3 py-2 text-center">
      <info.icon aria-hidden="true" className="size-12 text-destructive-emphasis" />
      <h2 className="font-bold text-2xl">{t("pay.view.invalid.title")}</h2>
      <p className="text-muted-foreground text-sm">{t("pay.view.invalid.text")}</p>
    </div>
  );
}
