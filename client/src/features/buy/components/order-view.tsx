import type { BuyOrder, BuyOrderStatus } from "@common/buy";
import {
  Circle,
  CircleCheck,
  ExternalLink,
  PartyPopper,
  TimerOff,
  TriangleAlert,
  Wallet,
} from "lucide-react";
import * as React from "react";
import { Link } from "wouter";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { CopyButton } from "@/features/payments/components/copy-button";
import { useCopyWords } from "@/features/payments/copy-words";
import { sentUnconfirmedHash } from "@/features/payments/transfer-error-text";
import { Rich, useLocale, useT } from "@/i18n/i18n";
import { capturePaypalOrder, submitBuyTx, useBuyOrder } from "../api/buy-api";
import { buyErrorText, deliveryNoteText, orderProblemText } from "../buy-error-text";
import { dollars, grouped } from "../format";
import { useLiveOrder } from "../use-live-order";

export type SendEth = (
  payment: { chainId: number; from: string; to: string; valueWei: bigint },
  onStep: (step: "connecting" | "switching" | "confirm" | "mining") => void,
) => Promise<string>;

const STEP_LABEL = {
  connecting: "buy.order.walletConnecting",
  switching: "buy.order.walletSwitching",
  confirm: "buy.order.walletConfirm",
  mining: "buy.order.walletMining",
} as const;

/** An order's status in the buyer's words (common/src/buy.ts keeps the English labels for the server). */
const STATUS_LABEL = {
  quoted: "buy.status.quoted",
  confirming: "buy.status.confirming",
  paid: "buy.status.paid",
  sending: "buy.status.sending",
  delivered: "buy.status.delivered",
  expired: "buy.status.expired",
  underpaid: "buy.status.underpaid",
  late: "buy.status.late",
  wrong_sender: "buy.status.wrongSender",
  failed: "buy.status.failed",
} as const satisfies Record<BuyOrderStatus, string>;

const REFUND = new Set(["underpaid", "late", "wrong_sender", "failed"]);
/** Nothing more happens to these orders by itself: the page no longer says it updates. */
const SETTLED = new Set(["delivered", "expired", "failed"]);
const ORDER = ["quoted", "confirming", "paid", "sending", "delivered"] as const;

function useCountdown(expiresAt: string) {
  const [now, setNow] = React.useState(() => Date.now());
  React.useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const left = Math.max(0, new Date(expiresAt).getTime() - now);
  const m = Math.floor(left / 60_000);
  const s = Math.floor((left % 60_000) / 1000);
  return { left, text: `${m}:${String(s).padStart(2, "0")}` };
}

const short = (a: string) => `${a.slice(0, 6)}…${a.slice(-4)}`;

/** An address shortened, kept left to right in a right-to-left sentence. */
function Short({ address }: { address: string }) {
  return (
    <bdi dir="ltr" className="font-mono">
      {short(address)}
    </bdi>
  );
}

function TxLink({ hash, url }: { hash: string; url: string | null }) {
  const t = useT();
  if (!url)
    return (
      <span dir="ltr" className="break-all font-mono text-xs">
        {hash}
      </span>
    );
  return (
    <a href={url} target="_blank" rel="noreferrer" className="inline-flex items-center gap-1 underline">
      {t("buy.order.viewOnBasescan")} <ExternalLink aria-hidden="true" className="size-3.5" />
    </a>
  );
}

function Steps({ order }: { order: BuyOrder }) {
  const t = useT();
  const locale = useLocale();
  const at = ORDER.indexOf(order.status as (typeof ORDER)[number]);
  const steps = [
    {
      key: "quoted",
      label: t("buy.order.stepQuoted"),
      detail: t("buy.order.stepQuotedDetail", {
        tokens: grouped(order.tokens, 6, locale),
        usd: dollars(order.usd, locale),
      }),
    },
    {
      key: "paid",
      label: t("buy.order.stepPaid"),
      detail: order.payment ? <TxLink hash={order.payment.txHash} url={order.payment.txUrl} /> : null,
    },
    { key: "sending", label: t("buy.order.stepSending"), detail: deliveryNoteText(order.delivery) },
    {
      key: "delivered",
      label: t("buy.order.stepDelivered"),
      detail:
        order.delivery?.txHash && order.status === "delivered" ? (
          <TxLink hash={order.delivery.txHash} url={order.delivery.txUrl} />
        ) : null,
    },
  ];
  const reached = (key: string) => {
    if (key === "quoted") return true;
    if (key === "paid") return at >= 2;
    if (key === "sending") return at >= 3;
    return at >= 4;
  };
  // Only what is happening spins: "Payment confirmed" once a payment is seen, never while none is sent.
  const current = (key: string) =>
    (key === "paid" && order.status === "confirming") ||
    (key === "sending" && order.status === "paid") ||
    (key === "delivered" && order.status === "sending");
  return (
    <ol className="flex flex-col gap-3" aria-label={t("buy.order.stepsLabel")}>
      {steps.map((step) => {
        const done = reached(step.key);
        const active = !done && current(step.key) && at >= 0;
        return (
          <li key={step.key} className="flex gap-3" data-testid={`step-${step.key}`} data-done={done}>
            {done ? (
              <CircleCheck aria-hidden="true" className="size-5 shrink-0 text-success" />
            ) : active ? (
              <Spinner size="sm" className="mt-0.5 size-5" label={t("buy.order.inProgress")} />
            ) : (
              <Circle aria-hidden="true" className="size-5 shrink-0 text-muted-foreground" />
            )}
            <div className="min-w-0 text-sm">
              <p className={done ? "font-medium" : "text-muted-foreground"}>
                {step.label}
                <span className="sr-only">
                  {" "}
                  {done
                    ? t("buy.order.stateDone")
                    : active
                      ? t("buy.order.stateInProgress")
                      : t("buy.order.stateWaiting")}
                </span>
              </p>
              {done && step.detail ? <div className="text-muted-foreground">{step.detail}</div> : null}
            </div>
          </li>
        );
      })}
    </ol>
  );
}

/** Where an order's CPXTB goes when it is not the paying wallet: the account's managed wallet. */
function DeliveryTarget({ order }: { order: BuyOrder }) {
  const t = useT();
  return (
    <div data-testid="order-deliver-to">
      <dt className="text-muted-foreground">{t("buy.order.deliverTo")}</dt>
      <dd dir="ltr" className="break-all text-start font-mono text-xs">
        {order.deliveryAddress}
      </dd>
    </div>
  );
}

function PayPanel({ order, sendEth }: { order: BuyOrder; sendEth: SendEth }) {
  const t = useT();
  const copyWords = useCopyWords();
  const countdown = useCountdown(order.expiresAt);
  const [step, setStep] = React.useState<keyof typeof STEP_LABEL | null>(null);
  const [problem, setProblem] = React.useState<string | null>(null);
  const pay = async () => {
    setProblem(null);
    try {
      const hash = await sendEth(
        {
          chainId: order.chainId,
          from: order.buyerAddress,
          to: order.treasuryAddress,
          valueWei: BigInt(order.ethAmountWei!),
        },
        setStep,
      );
      await submitBuyTx(order.id, hash).catch((e) =>
        console.warn("The payment will be found on chain instead:", e),
      );
    } catch (e) {
      const sent = sentUnconfirmedHash(e);
      if (sent)
        void submitBuyTx(order.id, sent).catch((failure) =>
          console.warn("The payment will be found on chain instead:", failure),
        );
      setProblem(buyErrorText(e));
    } finally {
      setStep(null);
    }
  };
  if (countdown.left === 0) {
    return (
      <div className="flex flex-col gap-3">
        <p className="flex items-center gap-2 font-medium">
          <TimerOff aria-hidden="true" className="size-5 text-destructive-emphasis" />{" "}
          {t("buy.order.expired")}
        </p>
        <p className="text-muted-foreground text-sm">{t("buy.order.expiredNote")}</p>
        <Button asChild variant="outline">
          <Link href="/buy-cpxtb">{t("buy.order.newQuote")}</Link>
        </Button>
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm">
        <Rich
          id="buy.order.lockedFor"
          values={{
            time: (
              <span
                className="font-semibold tabular-nums"
                data-testid="quote-countdown"
                role="timer"
                dir="ltr"
              >
                {countdown.text}
              </span>
            ),
          }}
        />
      </p>
      <dl className="flex flex-col gap-2 text-sm">
        {/* A group is a <div> of one <dt> and its <dd> (axe: definition-list); the copy button is in the <dd>. */}
        <div>
          <dt className="text-muted-foreground">{t("buy.order.exactAmount")}</dt>
          <dd className="flex items-center justify-between gap-2">
            <span className="min-w-0 text-start font-mono tabular-nums" data-testid="order-eth" dir="ltr">
              {order.eth} ETH
            </span>
            <CopyButton value={order.eth ?? ""} label={t("buy.order.amountLabel")} words={copyWords} />
          </dd>
        </div>
        <div>
          <dt className="text-muted-foreground">{t("buy.order.toTreasury")}</dt>
          <dd className="flex items-center justify-between gap-2">
            <span className="min-w-0 text-start font-mono" title={order.treasuryAddress} dir="ltr">
              {short(order.treasuryAddress)}
            </span>
            <CopyButton value={order.treasuryAddress} label={t("buy.order.addressLabel")} words={copyWords} />
          </dd>
        </div>
        <div>
          <dt className="text-muted-foreground">{t("buy.order.fromWallet")}</dt>
          <dd className="text-start font-mono" title={order.buyerAddress} dir="ltr">
            {short(order.buyerAddress)}
          </dd>
        </div>
        {order.toManagedWallet ? <DeliveryTarget order={order} /> : null}
      </dl>
      <Button size="lg" onClick={pay} disabled={step !== null} data-testid="pay-eth">
        {step ? <Spinner size="sm" /> : <Wallet aria-hidden="true" />}
        {step ? t(STEP_LABEL[step]) : t("buy.order.payEth", { amount: order.eth ?? "" })}
      </Button>
      {problem ? (
        <p role="alert" className="rounded-md border border-destructive/50 p-3 text-sm">
          {problem}
        </p>
      ) : null}
    </div>
  );
}

/** A PayPal order not yet paid: PayPal's return completes it; this retries that step (never charges twice). */
function PaypalPanel({ order }: { order: BuyOrder }) {
  const t = useT();
  const [busy, setBusy] = React.useState(false);
  const [problem, setProblem] = React.useState<string | null>(null);
  const complete = async () => {
    setBusy(true);
    setProblem(null);
    try {
      await capturePaypalOrder(order.id);
    } catch (e) {
      setProblem(buyErrorText(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="flex flex-col gap-3">
      <p className="text-muted-foreground text-sm">
        <Rich
          id={order.toManagedWallet ? "buy.order.paypalApproveManaged" : "buy.order.paypalApprove"}
          values={{ address: <Short address={order.deliveryAddress} /> }}
        />
      </p>
      <Button size="lg" variant="outline" onClick={complete} disabled={busy}>
        {busy ? <Spinner size="sm" /> : null}
        {busy ? t("buy.order.paypalChecking") : t("buy.order.paypalComplete")}
      </Button>
      <Button asChild variant="ghost">
        <Link href="/buy-cpxtb">{t("buy.order.paypalCancelled")}</Link>
      </Button>
      {problem ? (
        <p role="alert" className="rounded-md border border-destructive/50 p-3 text-sm">
          {problem}
        </p>
      ) : null}
    </div>
  );
}

export function OrderView({ id, sendEth }: { id: string; sendEth: SendEth }) {
  useLiveOrder(id);
  const t = useT();
  const locale = useLocale();
  const query = useBuyOrder(id);
  if (query.isPending) return <Spinner label={t("buy.order.loading")} />;
  if (query.isError || !query.data) {
    return (
      <Card>
        <CardHeader>
          <CardTitle>{t("buy.order.notFound")}</CardTitle>
          <CardDescription>{t("buy.order.notFoundHint")}</CardDescription>
        </CardHeader>
        <CardContent>
          <Button asChild>
            <Link href="/buy-cpxtb">{t("buy.order.buyCpxtb")}</Link>
          </Button>
        </CardContent>
      </Card>
    );
  }
  const order = query.data;
  const delivered = order.status === "delivered";
  return (
    <div className="flex flex-col gap-6">
      <Card>
        <CardHeader>
          <CardTitle className="flex flex-wrap items-center gap-2" aria-live="polite">
            {delivered ? (
              <>
                <PartyPopper aria-hidden="true" className="size-5 text-success" /> {t("buy.order.complete")}
              </>
            ) : (
              <span data-testid="order-status">{t(STATUS_LABEL[order.status])}</span>
            )}
          </CardTitle>
          <CardDescription className="tabular-nums">
            {t(order.eth ? "buy.order.summaryEth" : "buy.order.summary", {
              tokens: grouped(order.tokens, 6, locale),
              usd: dollars(order.usd, locale),
              eth: order.eth ?? "",
              price: dollars(order.usdPerToken, locale, false),
            })}
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-6">
          {REFUND.has(order.status) || order.problem ? (
            <div role="alert" className="flex gap-2 rounded-md border border-warning/60 p-3 text-sm">
              <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
              <div>
                <p className="font-semibold">{t(STATUS_LABEL[order.status])}</p>
                {order.problem ? (
                  <p className="text-muted-foreground" data-testid="order-problem">
                    {orderProblemText(order)}
                  </p>
                ) : null}
              </div>
            </div>
          ) : null}
          {order.method === "paypal" && order.status === "quoted" ? <PaypalPanel order={order} /> : null}
          {order.method === "eth" && (order.status === "quoted" || order.status === "expired") ? (
            <PayPanel order={order} sendEth={sendEth} />
          ) : null}
          <Steps order={order} />
          {delivered ? (
            <p className="text-sm" data-testid="delivered-text">
              <Rich
                id={order.toManagedWallet ? "buy.order.deliveredManaged" : "buy.order.delivered"}
                values={{
                  tokens: <bdi dir="ltr">{grouped(order.tokens, 6, locale)}</bdi>,
                  address: <Short address={order.deliveryAddress} />,
                }}
              />
            </p>
          ) : null}
          {delivered && order.returnTo ? (
            <Button asChild size="lg">
              <Link href={order.returnTo}>{t("buy.order.returnToPayment")}</Link>
            </Button>
          ) : null}
        </CardContent>
      </Card>
      <p className="text-muted-foreground text-xs" data-testid="order-footnote">
        {t(SETTLED.has(order.status) ? "buy.order.footnote" : "buy.order.footnoteLive", { id: order.id })}
      </p>
    </div>
  );
}
