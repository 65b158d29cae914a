import type { ChainConfigResponse } from "@common/chain";
import { useQuery } from "@tanstack/react-query";
import { ArrowRight, CircleX, ExternalLink } from "lucide-react";
import type * as React from "react";
import { Link } from "wouter";
import { Button } from "@/components/ui/button";
import { useLocale, useT } from "@/i18n/i18n";
import { isApiError } from "@/lib/api-client";
import { usePublicPayment } from "../api/get-public-payment";
import { formatTokenAmount, formatUsdAmount, shortAddress } from "../format";
import { payerNetworkName } from "../network-words";
import { payErrorText } from "../pay-error-text";
import { PaymentStatusBadge } from "../payment-status";
import { REFUND_LABEL_ID, RefundBadge } from "../refund-status";
import { useLivePayment } from "../use-live-payment";
import { ReceiptButton } from "./receipt-button";

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="flex items-baseline justify-between gap-4 border-border border-b py-2 last:border-0">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="min-w-0 text-end">{children}</dd>
    </div>
  );
}

/** The checkout's minimal header: the merchant (logo, full name) as the page's heading, and `end` controls. */
function ReceiptHeader({
  merchant,
  end,
}: {
  merchant?: { name: string; logoUrl: string | null };
  end?: React.ReactNode;
}) {
  const t = useT();
  return (
    <header className="flex items-center gap-3" data-testid="checkout-header">
      {merchant?.logoUrl ? (
        <img
          src={merchant.logoUrl}
          alt=""
          width={44}
          height={44}
          className="size-11 shrink-0 rounded-md border border-border bg-white object-contain"
        />
      ) : (
        <img src="/favicon.svg" alt="" width={44} height={44} className="size-11 shrink-0" />
      )}
      <div className="min-w-0 flex-1">
        <h1 className="text-balance break-words font-bold text-xl leading-tight" data-testid="merchant-name">
          {merchant?.name ?? t("pay.receipt.title")}
        </h1>
        <p className="text-muted-foreground text-sm">{t("pay.receipt.subtitle")}</p>
      </div>
      {end}
    </header>
  );
}

/** Status and receipt of one payment (public fields only), kept live over the page's socket. */
export function PaymentReceipt({ reference, headerEnd }: { reference: string; headerEnd?: React.ReactNode }) {
  const t = useT();
  const locale = useLocale();
  const query = usePublicPayment(reference);
  useLivePayment(reference);
  const chain = useQuery<ChainConfigResponse>({ queryKey: ["/api/chain-config"] });
  const payment = query.data;
  if (query.isPending) {
    return (
      <>
        <ReceiptHeader end={headerEnd} />
        <div aria-busy="true" className="h-64 animate-pulse rounded-xl bg-muted motion-reduce:animate-none" />
      </>
    );
  }
  if (!payment) {
    const notFound = isApiError(query.error) && (query.error.status === 404 || query.error.status === 400);
    return (
      <>
        <ReceiptHeader end={headerEnd} />
        <div role="alert" className="flex flex-col items-start gap-3 rounded-xl border border-border p-4">
          <p className="flex items-center gap-2 font-semibold">
            <CircleX aria-hidden="true" className="size-5 text-destructive-emphasis" />
            {notFound ? t("pay.receipt.notFound") : t("pay.receipt.loadFailed")}
          </p>
          <p className="text-muted-foreground text-sm">
            {notFound ? t("pay.receipt.notFoundHint") : payErrorText(query.error)}
          </p>
          <Button asChild variant="outline">
            <Link href="/payment">{t("pay.receipt.lookUpAnother")}</Link>
          </Button>
        </div>
      </>
    );
  }
  const open = ["pending", "processing", "partial"].includes(payment.status);
  const paid = payment.status === "completed" || payment.status === "paid_late";
  const network = payerNetworkName(t, payment.chainId, chain.data);
  return (
    <>
      <ReceiptHeader merchant={payment.merchant} end={headerEnd} />
      <section className="flex flex-col gap-4 rounded-xl border border-border bg-card p-4 sm:p-6">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 className="font-semibold text-lg">
            {paid ? t("pay.receipt.receipt") : t("pay.receipt.payment")}
          </h2>
          <div role="status" aria-live="polite">
            <PaymentStatusBadge status={payment.status} data-testid="payment-status" />{" "}
            <RefundBadge
              status={payment.refundStatus}
              label={payment.refundStatus === "none" ? undefined : t(REFUND_LABEL_ID[payment.refundStatus])}
              data-testid="refund-status"
            />
          </div>
        </div>
        <dl className="text-sm">
          <Row label={t("pay.receipt.amountDue")}>
            <span className="tabular-nums" dir="ltr">
              {formatTokenAmount(payment.amountDue, locale)} CPXTB
            </span>
            {payment.amountUsd ? (
              <span className="block text-muted-foreground tabular-nums" dir="ltr">
                {formatUsdAmount(payment.amountUsd, locale)}
              </span>
            ) : null}
          </Row>
          <Row label={t("pay.receipt.received")}>
            <span className="tabular-nums" dir="ltr" data-testid="amount-received">
              {formatTokenAmount(payment.amountReceived, locale)} CPXTB
            </span>
            {payment.amountReceivedUsd ? (
              <span className="block text-muted-foreground tabular-nums">
                {t("pay.receipt.worth", { amount: `${formatUsdAmount(payment.amountReceivedUsd, locale)}` })}
              </span>
            ) : null}
            {payment.overpaid ? (
              <span className="block text-muted-foreground">{t("pay.receipt.moreThanDue")}</span>
            ) : null}
          </Row>
          {payment.description ? <Row label={t("pay.receipt.for")}>{payment.description}</Row> : null}
          {payment.orderId ? (
            <Row label={t("pay.receipt.order")}>
              <span className="break-all font-mono" dir="ltr" data-testid="order-id">
                {payment.orderId}
              </span>
            </Row>
          ) : null}
          <Row label={t("pay.receipt.to")}>
            <span className="font-mono" dir="ltr" title={payment.receivingAddress}>
              {shortAddress(payment.receivingAddress)}
            </span>
          </Row>
          <Row label={payment.completedAt ? t("pay.receipt.paidAt") : t("pay.receipt.expiresAt")}>
            {new Date(payment.completedAt ?? payment.expiresAt).toLocaleString(locale)}
          </Row>
          <Row label={t("pay.receipt.network")}>{network}</Row>
          {payment.txHashes.map((hash) => (
            <Row key={hash} label={t("pay.receipt.transaction")}>
              <span className="font-mono" dir="ltr" title={hash}>
                {shortAddress(hash)}
              </span>
            </Row>
          ))}
          {payment.refunds.map((r) => (
            <Row key={r.txHash} label={t("pay.receipt.refund")}>
              <span className="tabular-nums" dir="ltr">
                {formatTokenAmount(r.amount, locale)} CPXTB
              </span>
              <span className="block font-mono text-muted-foreground" dir="ltr" title={r.txHash}>
                {shortAddress(r.txHash)}
              </span>
            </Row>
          ))}
          <Row label={t("pay.receipt.reference")}>
            <code className="break-all font-mono text-xs" dir="ltr">
              {payment.reference}
            </code>
          </Row>
        </dl>
        {open ? (
          <Button asChild size="lg">
            <Link href={`/pay/${payment.reference}`}>
              {t("pay.receipt.openPayPage")} <ArrowRight aria-hidden="true" className="rtl:-scale-x-100" />
            </Link>
          </Button>
        ) : payment.regeneratedTo ? (
          <Button asChild variant="outline">
            <Link href={`/pay/${payment.regeneratedTo}`}>{t("pay.receipt.goToNew")}</Link>
          </Button>
        ) : null}
        {paid ? <ReceiptButton payment={payment} network={network} size="lg" /> : null}
        {paid && payment.merchant.website ? (
          <Button asChild variant="outline" className="max-w-full">
            <a href={payment.merchant.website} rel="noreferrer" data-testid="merchant-website">
              <span className="truncate">{t("pay.receipt.backTo", { merchant: payment.merchant.name })}</span>{" "}
              <ExternalLink aria-hidden="true" />
            </a>
          </Button>
        ) : null}
      </section>
    </>
  );
}
