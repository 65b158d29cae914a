import type { MemberRole } from "@common/merchant";
import { submitTxRequest } from "@common/payments";
import {
  ArrowRight,
  Ban,
  CircleCheck,
  Download,
  FileText,
  RefreshCw,
  SearchCheck,
  TriangleAlert,
} from "lucide-react";
import * as React from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Spinner } from "@/components/ui/spinner";
import { toast } from "@/hooks/use-toast";
import { CopyButton } from "../../components/copy-button";
import { downloadQr, QrCode } from "../../components/qr-code";
import { errorText } from "../../error-text";
import { formatTokenAmount, formatUsd, shortAddress } from "../../format";
import { PaymentStatusBadge, STATUS_INFO } from "../../payment-status";
import { RefundBadge } from "../../refund-status";
import { useCancelMerchantPayment } from "../api/cancel-merchant-payment";
import { type PaymentDetail, usePaymentDetail } from "../api/get-payment-detail";
import { useRegenerateMerchantPayment } from "../api/regenerate-merchant-payment";
import { useVerifyPaymentTx } from "../api/verify-payment-tx";
import { baseToTokens, decimalsOf, Row, Section, Time, TxHash } from "./detail-parts";
import { RefundSection } from "./refund-section";

/** Everything about one of the merchant's payments: amounts, rate, link and QR, transfers, timeline. */
export function PaymentDetailView({
  id,
  merchant,
  onOpen,
}: {
  id: string;
  merchant: PosterMerchant;
  /** Shows another payment (the one this one was regenerated into or from). */
  onOpen: (id: string) => void;
}) {
  const detail = usePaymentDetail(id);
  if (detail.isPending) {
    return (
      <div className="flex flex-col gap-3" aria-busy="true">
        <div className="h-10 w-48 animate-pulse rounded bg-muted motion-reduce:animate-none" />
        <div className="h-40 animate-pulse rounded-lg bg-muted motion-reduce:animate-none" />
        <span className="sr-only">Loading the payment…</span>
      </div>
    );
  }
  if (detail.isError) {
    return (
      <div role="alert" className="flex flex-col items-start gap-3">
        <p className="font-semibold">This payment could not be loaded.</p>
        <p className="text-muted-foreground text-sm">{errorText(detail.error)}</p>
        <Button variant="outline" onClick={() => detail.refetch()}>
          <RefreshCw aria-hidden="true" /> Try again
        </Button>
      </div>
    );
  }
  const payment = detail.data;
  return (
    <div className="flex flex-col gap-4 text-sm" data-testid="payment-detail">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="font-bold text-3xl tabular-nums">
          {formatTokenAmount(payment.amountDue)} <span className="font-semibold text-xl">CPXTB</span>
        </p>
        <span className="flex flex-wrap items-center gap-1.5">
          <PaymentStatusBadge status={payment.status} className="text-sm" data-testid="detail-status" />
          <RefundBadge status={payment.refundStatus} className="text-sm" data-testid="detail-refund-status" />
        </span>
      </div>
      {payment.description || payment.orderId ? (
        <p className="text-base">
          {payment.description}
          {payment.orderId ? (
            <span className="text-muted-foreground">
              {payment.description ? " · " : ""}Order {payment.orderId}
            </span>
          ) : null}
        </p>
      ) : null}
      <Amounts payment={payment} />
      <Regeneration payment={payment} onOpen={onOpen} />
      <Cancellation payment={payment} />
      {["pending", "processing", "partial"].includes(payment.status) ? (
        <ShareBlock payment={payment} merchant={merchant} />
      ) : (
        <ClosedPaymentLink payment={payment} />
      )}
      {merchant.role === "staff" ? null : <RefundSection payment={payment} />}
      <VerifyByHash payment={payment} />
      <Transfers payment={payment} />
      <Timeline payment={payment} />
    </div>
  );
}

function Amounts({ payment }: { payment: PaymentDetail }) {
  return (
    <dl className="divide-y divide-border rounded-lg border border-border px-3">
      <Row label="Amount due">{formatTokenAmount(payment.amountDue)} CPXTB</Row>
      <Row label="Received (confirmed)">
        <span data-testid="detail-received">{formatTokenAmount(payment.amountReceived)} CPXTB</span>
      </Row>
      {payment.overpaid ? (
        <Row label="Overpaid by">
          {formatTokenAmount(baseToTokens(payment.overpaidBase, decimalsOf(payment)))} CPXTB
        </Row>
      ) : null}
      {payment.refundStatus !== "none" ? (
        <Row label="Refunded">
          <span data-testid="detail-refunded">{formatTokenAmount(payment.amountRefunded)} CPXTB</span>
        </Row>
      ) : null}
      {payment.amountUsd ? <Row label="Price in USD">{formatUsd(payment.amountUsd)}</Row> : null}
      {payment.price ? (
        <Row label="Rate (locked)">
          <span title={`Source: ${payment.price.source}`}>
            {payment.price.usdPerToken} USD/CPXTB · <Time iso={payment.price.at} />
          </span>
        </Row>
      ) : (
        <Row label="Rate">Asked in CPXTB: no conversion</Row>
      )}
      {payment.toleranceBps > 0 ? (
        <Row label="Accepted underpayment">{(payment.toleranceBps / 100).toFixed(2)}%</Row>
      ) : null}
      <Row label="Created">
        <Time iso={payment.createdAt} />
      </Row>
      <Row label={new Date(payment.expiresAt).getTime() < Date.now() ? "Expired" : "Expires"}>
        <Time iso={payment.expiresAt} />
      </Row>
      {payment.completedAt ? (
        <Row label="Paid">
          <Time iso={payment.completedAt} />
        </Row>
      ) : null}
      <Row label="Receiving wallet">
        <span className="font-mono" title={payment.receivingAddress}>
          {shortAddress(payment.receivingAddress)}
        </span>
      </Row>
    </dl>
  );
}

/** An expired payment that received nothing can be issued again (new rate, new expiry); both stay linked. */
function Regeneration({ payment, onOpen }: { payment: PaymentDetail; onOpen: (id: string) => void }) {
  const regenerate = useRegenerateMerchantPayment(payment.id);
  const unpaid = payment.status === "expired" && payment.amountReceivedBase === "0";
  if (!payment.regeneratedFrom && !payment.regeneratedTo && !unpaid) return null;
  return (
    <div className="flex flex-col items-start gap-2">
      {payment.regeneratedFrom ? (
        <Button variant="link" className="h-auto p-0" onClick={() => onOpen(payment.regeneratedFrom!)}>
          Replaces an expired payment: open it
        </Button>
      ) : null}
      {payment.regeneratedTo ? (
        <Button variant="outline" size="sm" onClick={() => onOpen(payment.regeneratedTo!)}>
          <ArrowRight aria-hidden="true" /> Open the new payment that replaces it
        </Button>
      ) : unpaid ? (
        <Button
          variant="outline"
          size="sm"
          disabled={regenerate.isPending}
          onClick={() => regenerate.mutate(undefined, { onSuccess: (next) => onOpen(next.id) })}
        >
          {regenerate.isPending ? <Spinner size="sm" /> : <RefreshCw aria-hidden="true" />} Regenerate at
          today's rate
        </Button>
      ) : null}
      {regenerate.isError ? (
        <p role="alert" className="text-destructive-emphasis">
          Not regenerated: {errorText(regenerate.error)}
        </p>
      ) : null}
    </div>
  );
}

/**
 * An open payment that received nothing can be cancelled (decision 033), after a confirmation: its link then says
 * so, and a transfer that still comes for it lands in the inbox.
 */
function Cancellation({ payment }: { payment: PaymentDetail }) {
  const cancel = useCancelMerchantPayment(payment.id);
  const [asking, setAsking] = React.useState(false);
  if (payment.status === "cancelled") {
    return (
      <p className="text-muted-foreground">
        Cancelled: the payment link says so. A transfer that still arrives for it lands in your inbox of
        unmatched transfers.
      </p>
    );
  }
  if (payment.status !== "pending" || payment.amountReceivedBase !== "0" || payment.transfers.length > 0)
    return null;
  return (
    <div className="flex flex-col items-start gap-2">
      {asking ? (
        <fieldset className="flex flex-wrap items-center gap-2">
          <legend className="sr-only">Cancel this payment?</legend>
          <span>Cancel this payment? Its QR code and link stop working.</span>
          <Button
            variant="destructive"
            size="sm"
            disabled={cancel.isPending}
            onClick={() => cancel.mutate(undefined, { onSettled: () => setAsking(false) })}
          >
            {cancel.isPending ? <Spinner size="sm" /> : <Ban aria-hidden="true" />} Yes, cancel it
          </Button>
          <Button variant="ghost" size="sm" onClick={() => setAsking(false)}>
            Keep it
          </Button>
        </fieldset>
      ) : (
        <Button variant="outline" size="sm" onClick={() => setAsking(true)}>
          <Ban aria-hidden="true" /> Cancel payment
        </Button>
      )}
      {cancel.isError ? (
        <p role="alert" className="text-destructive-emphasis">
          Not cancelled: {errorText(cancel.error)}
        </p>
      ) : null}
    </div>
  );
}

/** The business as the detail view needs it; `role` hides what the member's role may not do (decision 021). */
export type PosterMerchant = { name: string; brandColor: string | null; role?: MemberRole };

function ShareBlock({ payment, merchant }: { payment: PaymentDetail; merchant: PosterMerchant }) {
  const [making, setMaking] = React.useState(false);
  const file = `cpxtb-payment-${payment.reference.slice(0, 8)}`;
  const save = (ext: "png" | "svg") =>
    downloadQr(payment.paymentUri, `${file}.${ext}`).catch((error) =>
      toast({ variant: "destructive", title: "The QR code was not saved", description: errorText(error) }),
    );
  const poster = async () => {
    setMaking(true);
    try {
      // pdf-lib and the poster layout load only now, in their own chunk.
      const { downloadPoster } = await import("../poster");
      await downloadPoster({ payment, merchant });
    } catch (error) {
      toast({ variant: "destructive", title: "The poster was not made", description: errorText(error) });
    } finally {
      setMaking(false);
    }
  };
  return (
    <Section title="Share">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start">
        <QrCode
          value={payment.paymentUri}
          label={`QR code to pay ${formatTokenAmount(payment.amountDue)} CPXTB`}
          className="w-44 shrink-0 self-center border border-border sm:self-start"
        />
        <div className="flex min-w-0 flex-col gap-2">
          <a
            href={payment.paymentUrl}
            target="_blank"
            rel="noreferrer"
            className="break-all font-mono text-primary underline-offset-4 hover:underline"
            data-testid="detail-link"
          >
            {payment.paymentUrl}
          </a>
          <div className="flex flex-wrap gap-2">
            <CopyButton value={payment.paymentUrl} label="Payment link" />
            <Button variant="outline" size="sm" onClick={() => save("png")}>
              <Download aria-hidden="true" /> QR as PNG
            </Button>
            <Button variant="outline" size="sm" onClick={() => save("svg")}>
              <Download aria-hidden="true" /> QR as SVG
            </Button>
            <Button variant="outline" size="sm" onClick={poster} disabled={making}>
              {making ? <Spinner size="sm" /> : <FileText aria-hidden="true" />} Poster (PDF)
            </Button>
          </div>
          <p className="text-muted-foreground text-xs">
            The QR code holds a standard payment request (EIP-681) that wallets read directly.
          </p>
        </div>
      </div>
    </Section>
  );
}

/** A payment that is no longer open is not shared to be paid: its page now shows the payer its outcome. */
function ClosedPaymentLink({ payment }: { payment: PaymentDetail }) {
  const paid = payment.status === "completed" || payment.status === "paid_late";
  const receiptUrl = payment.paymentUrl.replace(/\/pay\/([^/]+)$/, "/payment/$1");
  return (
    <Section title={paid ? "Receipt" : "Payment page"}>
      <p className="text-muted-foreground" data-testid="detail-closed-link">
        {paid
          ? "Paid: this payment takes no more transfers. The payer's receipt is at:"
          : `${STATUS_INFO[payment.status].label}: this payment takes no transfers now, so it is not shared any more. Its status page:`}
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <a
          href={receiptUrl}
          target="_blank"
          rel="noreferrer"
          className="min-w-0 break-all font-mono text-primary underline-offset-4 hover:underline"
        >
          {receiptUrl}
        </a>
        <CopyButton value={receiptUrl} label={paid ? "Receipt link" : "Status link"} />
      </div>
    </Section>
  );
}

function VerifyByHash({ payment }: { payment: PaymentDetail }) {
  const verify = useVerifyPaymentTx(payment.id);
  const [error, setError] = React.useState<string>();
  // Said in the sheet itself: toasts are outside the modal sheet, hidden from assistive technology meanwhile.
  const [verified, setVerified] = React.useState<string | null>(null);
  const submit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const parsed = submitTxRequest.safeParse({ txHash: String(new FormData(form).get("txHash") ?? "") });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setError(undefined);
    setVerified(null);
    verify.mutate(parsed.data.txHash, {
      onSuccess: (next) => {
        form.reset();
        setVerified(`Transaction verified. The payment is now: ${STATUS_INFO[next.status].label}.`);
      },
    });
  };
  return (
    <Section title="Verify by transaction hash">
      <p className="text-muted-foreground">
        Paid but not showing? Paste the transaction hash from the payer's wallet: the server reads the
        transaction from the chain and credits its CPXTB transfer to this payment's address.
      </p>
      <form onSubmit={submit} noValidate className="flex flex-col gap-2 sm:flex-row sm:items-start">
        <Field
          name="txHash"
          label="Transaction hash"
          placeholder="0x…"
          spellCheck={false}
          autoComplete="off"
          error={error}
          className="flex-1 [&_label]:sr-only"
        />
        <Button type="submit" variant="outline" disabled={verify.isPending} className="sm:mt-0">
          {verify.isPending ? <Spinner size="sm" /> : <SearchCheck aria-hidden="true" />} Verify
        </Button>
      </form>
      <p role="status" className="empty:hidden font-medium text-success" data-testid="verify-result">
        {verified && !verify.isError ? (
          <>
            <CircleCheck aria-hidden="true" className="mr-1 inline size-4 align-[-0.2em]" />
            {verified}
          </>
        ) : null}
      </p>
      {verify.isError ? (
        <p
          role="alert"
          className="flex gap-2 rounded-md border border-destructive/50 p-3"
          data-testid="verify-error"
        >
          <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-destructive-emphasis" />
          <span>
            <span className="font-semibold">Not verified: </span>
            {errorText(verify.error)}
          </span>
        </p>
      ) : null}
    </Section>
  );
}

const CREDITED_BY = {
  amount: "matched by amount",
  tx_hash: "by transaction hash",
  merchant: "assigned by you",
};

function Transfers({ payment }: { payment: PaymentDetail }) {
  return (
    <Section title="Transactions">
      {payment.transfers.length === 0 ? (
        <p className="text-muted-foreground">
          No transfer received yet. Transfers of the exact amount are detected automatically.
        </p>
      ) : (
        <ul className="flex flex-col divide-y divide-border" data-testid="detail-transfers">
          {payment.transfers.map((t) => (
            <li key={t.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
              <div className="min-w-0">
                <p className="font-medium tabular-nums">
                  {formatTokenAmount(t.value)} CPXTB{" "}
                  {t.orphaned ? (
                    <span className="text-destructive-emphasis">(removed by a chain reorganisation)</span>
                  ) : null}
                </p>
                <p className="text-muted-foreground">
                  from <span className="font-mono">{shortAddress(t.from)}</span> · block {t.blockNumber}
                  {t.creditedBy ? ` · ${CREDITED_BY[t.creditedBy]}` : ""}
                </p>
              </div>
              <TxHash hash={t.txHash} />
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}

function Timeline({ payment }: { payment: PaymentDetail }) {
  return (
    <Section title="Timeline">
      <ol className="flex flex-col gap-3 border-border border-l-2 pl-4" data-testid="detail-timeline">
        {payment.timeline.map((entry) => (
          <li key={`${entry.at}-${entry.to}-${entry.cause}`} className="relative">
            <span
              aria-hidden="true"
              className="absolute top-1.5 -left-[1.4rem] size-2.5 rounded-full border-2 border-background bg-primary"
            />
            <p className="flex flex-wrap items-center gap-1.5">
              {entry.from ? (
                <>
                  <PaymentStatusBadge status={entry.from} />
                  <ArrowRight aria-label="to" className="size-3.5" />
                </>
              ) : null}
              <PaymentStatusBadge status={entry.to} />
              <span className="text-muted-foreground">
                <Time iso={entry.at} />
              </span>
            </p>
            <p className="mt-1 break-all text-muted-foreground">
              {entry.cause}
              {entry.blockNumber && !entry.cause.includes(`block ${entry.blockNumber}`)
                ? ` · block ${entry.blockNumber}`
                : ""}
            </p>
          </li>
        ))}
      </ol>
    </Section>
  );
}
