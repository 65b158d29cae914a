import { type BuyOrder, buyOrderStatusLabels } from "@common/buy";
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
import { errorText } from "@/lib/error-text";
import { capturePaypalOrder, submitBuyTx, useBuyOrder } from "../api/buy-api";
import { grouped } from "../format";
import { useLiveOrder } from "../use-live-order";

export type SendEth = (
  payment: { chainId: number; from: string; to: string; valueWei: bigint },
  onStep: (step: "connecting" | "switching" | "confirm" | "mining") => void,
) => Promise<string>;

const STEP_LABEL = {
  connecting: "Connecting your wallet…",
  switching: "Switching network…",
  confirm: "Confirm the payment in your wallet…",
  mining: "Waiting for the transaction…",
} as const;

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

function TxLink({ hash, url }: { hash: string; url: string | null }) {
  if (!url) return <span className="break-all font-mono text-xs">{hash}</span>;
  return (
    <a href={url} target="_blank" rel="noreferrer" className="inline-flex items-center gap-1 underline">
      View on BaseScan <ExternalLink aria-hidden="true" className="size-3.5" />
    </a>
  );
}

function Steps({ order }: { order: BuyOrder }) {
  const at = ORDER.indexOf(order.status as (typeof ORDER)[number]);
  const steps = [
    {
      key: "quoted",
      label: "Quote locked",
      detail: `${grouped(order.tokens, 6)} CPXTB for $${grouped(order.usd, 2)}`,
    },
    {
      key: "paid",
      label: "Payment confirmed",
      detail: order.payment ? <TxLink hash={order.payment.txHash} url={order.payment.txUrl} /> : null,
    },
    { key: "sending", label: "Sending CPXTB", detail: order.delivery?.note ?? null },
    {
      key: "delivered",
      label: "Delivered",
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
    <ol className="flex flex-col gap-3" aria-label="Order steps">
      {steps.map((step) => {
        const done = reached(step.key);
        const active = !done && current(step.key) && at >= 0;
        return (
          <li key={step.key} className="flex gap-3" data-testid={`step-${step.key}`} data-done={done}>
            {done ? (
              <CircleCheck aria-hidden="true" className="size-5 shrink-0 text-success" />
            ) : active ? (
              <Spinner size="sm" className="mt-0.5 size-5" label="In progress" />
            ) : (
              <Circle aria-hidden="true" className="size-5 shrink-0 text-muted-foreground" />
            )}
            <div className="min-w-0 text-sm">
              <p className={done ? "font-medium" : "text-muted-foreground"}>
                {step.label}
                <span className="sr-only">{done ? " (done)" : active ? " (in progress)" : " (waiting)"}</span>
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
  return (
    <div data-testid="order-deliver-to">
      <dt className="text-muted-foreground">CPXTB goes to your CPXTB wallet (held for you)</dt>
      <dd className="break-all font-mono text-xs">{order.deliveryAddress}</dd>
    </div>
  );
}

function PayPanel({ order, sendEth }: { order: BuyOrder; sendEth: SendEth }) {
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
      setProblem(errorText(e));
    } finally {
      setStep(null);
    }
  };
  if (countdown.left === 0) {
    return (
      <div className="flex flex-col gap-3">
        <p className="flex items-center gap-2 font-medium">
          <TimerOff aria-hidden="true" className="size-5 text-destructive-emphasis" /> Quote expired
        </p>
        <p className="text-muted-foreground text-sm">
          Do not send ETH for this order any more. A payment made after expiry is refunded, not delivered.
        </p>
        <Button asChild variant="outline">
          <Link href="/buy-cpxtb">Get a new quote</Link>
        </Button>
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm">
        Quote locked for{" "}
        <span className="font-semibold tabular-nums" data-testid="quote-countdown" role="timer">
          {countdown.text}
        </span>
      </p>
      <dl className="flex flex-col gap-2 text-sm">
        <div className="flex items-center justify-between gap-2">
          <div className="min-w-0">
            <dt className="text-muted-foreground">Exact amount</dt>
            <dd className="font-mono tabular-nums" data-testid="order-eth">
              {order.eth} ETH
            </dd>
          </div>
          <CopyButton value={order.eth ?? ""} label="Amount" />
        </div>
        <div className="flex items-center justify-between gap-2">
          <div className="min-w-0">
            <dt className="text-muted-foreground">To the treasury</dt>
            <dd className="font-mono" title={order.treasuryAddress}>
              {short(order.treasuryAddress)}
            </dd>
          </div>
          <CopyButton value={order.treasuryAddress} label="Address" />
        </div>
        <div>
          <dt className="text-muted-foreground">From your wallet (only)</dt>
          <dd className="font-mono" title={order.buyerAddress}>
            {short(order.buyerAddress)}
          </dd>
        </div>
        {order.toManagedWallet ? <DeliveryTarget order={order} /> : null}
      </dl>
      <Button size="lg" onClick={pay} disabled={step !== null} data-testid="pay-eth">
        {step ? <Spinner size="sm" /> : <Wallet aria-hidden="true" />}
        {step ? STEP_LABEL[step] : `Pay ${order.eth} ETH`}
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
  const [busy, setBusy] = React.useState(false);
  const [problem, setProblem] = React.useState<string | null>(null);
  const complete = async () => {
    setBusy(true);
    setProblem(null);
    try {
      await capturePaypalOrder(order.id);
    } catch (e) {
      setProblem(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="flex flex-col gap-3">
      <p className="text-muted-foreground text-sm">
        Approve the payment at PayPal; you come back here and the tokens are sent to{" "}
        {order.toManagedWallet ? "your CPXTB wallet " : null}
        <span className="font-mono">{short(order.deliveryAddress)}</span> once PayPal confirms it.
      </p>
      <Button size="lg" variant="outline" onClick={complete} disabled={busy}>
        {busy ? <Spinner size="sm" /> : null}
        {busy ? "Checking with PayPal…" : "I approved it: complete the payment"}
      </Button>
      <Button asChild variant="ghost">
        <Link href="/buy-cpxtb">Cancelled at PayPal? Start a new order</Link>
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
  const query = useBuyOrder(id);
  if (query.isPending) return <Spinner label="Loading the order" />;
  if (query.isError || !query.data) {
    return (
      <Card>
        <CardHeader>
          <CardTitle>Order not found</CardTitle>
          <CardDescription>Check the link, or start a new purchase.</CardDescription>
        </CardHeader>
        <CardContent>
          <Button asChild>
            <Link href="/buy-cpxtb">Buy CPXTB</Link>
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
                <PartyPopper aria-hidden="true" className="size-5 text-success" /> Purchase Complete!
              </>
            ) : (
              <span data-testid="order-status">{buyOrderStatusLabels[order.status]}</span>
            )}
          </CardTitle>
          <CardDescription className="tabular-nums">
            {grouped(order.tokens, 6)} CPXTB for ${grouped(order.usd, 2)}
            {order.eth ? ` (${order.eth} ETH)` : ""} · ${order.usdPerToken} per CPXTB
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-6">
          {REFUND.has(order.status) || order.problem ? (
            <div role="alert" className="flex gap-2 rounded-md border border-warning/60 p-3 text-sm">
              <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
              <div>
                <p className="font-semibold">{buyOrderStatusLabels[order.status]}</p>
                {order.problem ? <p className="text-muted-foreground">{order.problem}</p> : null}
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
              {grouped(order.tokens, 6)} CPXTB were sent to{" "}
              {order.toManagedWallet ? "your CPXTB wallet " : null}
              <span className="font-mono">{short(order.deliveryAddress)}</span>.
            </p>
          ) : null}
          {delivered && order.returnTo ? (
            <Button asChild size="lg">
              <Link href={order.returnTo}>Return to your payment</Link>
            </Button>
          ) : null}
        </CardContent>
      </Card>
      <p className="text-muted-foreground text-xs" data-testid="order-footnote">
        Order {order.id}.
        {SETTLED.has(order.status)
          ? null
          : " This page updates by itself; you can close it, and the tokens are still sent once your payment is confirmed."}
      </p>
    </div>
  );
}
