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
import { Rich, useLocale, useT } from "@/i18n/i18n";
import { isolate, Ltr } from "@/i18n/ltr";
import { CopyButton } from "../../components/copy-button";
import { downloadQr, QrCode } from "../../components/qr-code";
import { useCopyWords } from "../../copy-words";
import { formatTokenAmount, formatUsdAmount, shortAddress } from "../../format";
import { PaymentStatusBadge, STATUS_LABEL_ID } from "../../payment-status";
import { REFUND_LABEL_ID, RefundBadge } from "../../refund-status";
import { payToastWords } from "../../toast-words";
import { useCancelMerchantPayment } from "../api/cancel-merchant-payment";
import { type PaymentDetail, usePaymentDetail } from "../api/get-payment-detail";
import { useRegenerateMerchantPayment } from "../api/regenerate-merchant-payment";
import { useVerifyPaymentTx } from "../api/verify-payment-tx";
import { merchantErrorText } from "../merchant-error-text";
import { formatBpsPercent } from "../percent";
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
  const t = useT();
  const locale = useLocale();
  if (detail.isPending) {
    return (
      <div className="flex flex-col gap-3" aria-busy="true">
        <div className="h-10 w-48 animate-pulse rounded bg-muted motion-reduce:animate-none" />
        <div className="h-40 animate-pulse rounded-lg bg-muted motion-reduce:animate-none" />
        <span className="sr-only">{t("merchant.detail.loading")}</span>
      </div>
    );
  }
  if (detail.isError) {
    return (
      <div role="alert" className="flex flex-col items-start gap-3">
        <p className="font-semibold">{t("merchant.detail.loadFailed")}</p>
        <p className="text-muted-foreground text-sm">{merchantErrorText(detail.error)}</p>
        <Button variant="outline" onClick={() => detail.refetch()}>
          <RefreshCw aria-hidden="true" /> {t("merchant.state.tryAgain")}
        </Button>
      </div>
    );
  }
  const payment = detail.data;
  return (
    <div className="flex flex-col gap-4 text-sm" data-testid="payment-detail">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="font-bold text-3xl tabular-nums">
          <Ltr>
            {formatTokenAmount(payment.amountDue, locale)}{" "}
            <span className="font-semibold text-xl">CPXTB</span>
          </Ltr>
        </p>
        <span className="flex flex-wrap items-center gap-1.5">
          <PaymentStatusBadge
            status={payment.status}
            label={t(STATUS_LABEL_ID[payment.status])}
            className="text-sm"
            data-testid="detail-status"
          />
          <RefundBadge
            status={payment.refundStatus}
            label={payment.refundStatus === "none" ? undefined : t(REFUND_LABEL_ID[payment.refundStatus])}
            className="text-sm"
            data-testid="detail-refund-status"
          />
        </span>
      </div>
      {payment.description || payment.orderId ? (
        <p className="text-base">
          {payment.description}
          {payment.orderId ? (
            <span className="text-muted-foreground">
              {payment.description ? " · " : ""}
              {t("merchant.common.order", { orderId: isolate(payment.orderId, locale) })}
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
  const t = useT();
  const locale = useLocale();
  const cpxtb = (amount: string) => <Ltr>{formatTokenAmount(amount, locale)} CPXTB</Ltr>;
  return (
    <dl className="divide-y divide-border rounded-lg border border-border px-3">
      <Row label={t("merchant.detail.amountDue")}>{cpxtb(payment.amountDue)}</Row>
      <Row label={t("merchant.detail.received")}>
        <span data-testid="detail-received">{cpxtb(payment.amountReceived)}</span>
      </Row>
      {payment.overpaid ? (
        <Row label={t("merchant.detail.overpaidBy")}>
          {cpxtb(baseToTokens(payment.overpaidBase, decimalsOf(payment)))}
        </Row>
      ) : null}
      {payment.refundStatus !== "none" ? (
        <Row label={t("merchant.detail.refunded")}>
          <span data-testid="detail-refunded">{cpxtb(payment.amountRefunded)}</span>
        </Row>
      ) : null}
      {payment.amountUsd ? (
        <Row label={t("merchant.detail.priceUsd")}>
          <Ltr>{formatUsdAmount(payment.amountUsd, locale)}</Ltr>
        </Row>
      ) : null}
      {payment.price ? (
        <Row label={t("merchant.detail.rateLocked")}>
          <span
            title={t(
              payment.price.source === "fixed" ? "merchant.detail.sourceFixed" : "merchant.detail.sourcePool",
            )}
          >
            <Ltr>{formatTokenAmount(payment.price.usdPerToken, locale, 18)} USD/CPXTB</Ltr> ·{" "}
            <Time iso={payment.price.at} />
          </span>
        </Row>
      ) : (
        <Row label={t("merchant.detail.rate")}>{t("merchant.detail.noConversion")}</Row>
      )}
      {payment.toleranceBps > 0 ? (
        <Row label={t("merchant.detail.tolerance")}>
          <Ltr>{formatBpsPercent(payment.toleranceBps, locale)}</Ltr>
        </Row>
      ) : null}
      <Row label={t("merchant.detail.created")}>
        <Time iso={payment.createdAt} />
      </Row>
      <Row
        label={t(
          new Date(payment.expiresAt).getTime() < Date.now()
            ? "merchant.detail.expired"
            : "merchant.detail.expires",
        )}
      >
        <Time iso={payment.expiresAt} />
      </Row>
      {payment.completedAt ? (
        <Row label={t("merchant.detail.paid")}>
          <Time iso={payment.completedAt} />
        </Row>
      ) : null}
      <Row label={t("merchant.common.receivingWallet")}>
        <span className="font-mono" dir="ltr" title={payment.receivingAddress}>
          {shortAddress(payment.receivingAddress)}
        </span>
      </Row>
    </dl>
  );
}

/** An expired payment that received nothing can be issued again (new rate, new expiry); both stay linked. */
function Regeneration({ payment, onOpen }: { payment: PaymentDetail; onOpen: (id: string) => void }) {
  const regenerate = useRegenerateMerchantPayment(payment.id);
  const t = useT();
  const unpaid = payment.status === "expired" && payment.amountReceivedBase === "0";
  if (!payment.regeneratedFrom && !payment.regeneratedTo && !unpaid) return null;
  return (
    <div className="flex flex-col items-start gap-2">
      {payment.regeneratedFrom ? (
        <Button variant="link" className="h-auto p-0" onClick={() => onOpen(payment.regeneratedFrom!)}>
          {t("merchant.detail.replaces")}
        </Button>
      ) : null}
      {payment.regeneratedTo ? (
        <Button variant="outline" size="sm" onClick={() => onOpen(payment.regeneratedTo!)}>
          <ArrowRight aria-hidden="true" className="rtl:-scale-x-100" />{" "}
          {t("merchant.detail.openReplacement")}
        </Button>
      ) : unpaid ? (
        <Button
          variant="outline"
          size="sm"
          disabled={regenerate.isPending}
          onClick={() => regenerate.mutate(undefined, { onSuccess: (next) => onOpen(next.id) })}
        >
          {regenerate.isPending ? (
            <Spinner size="sm" label={t("merchant.busy.regenerating")} />
          ) : (
            <RefreshCw aria-hidden="true" />
          )}{" "}
          {t("merchant.detail.regenerate")}
        </Button>
      ) : null}
      {regenerate.isError ? (
        <p role="alert" className="text-destructive-emphasis">
          {t("merchant.detail.notRegenerated", { error: merchantErrorText(regenerate.error) })}
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
  const t = useT();
  if (payment.status === "cancelled") {
    return <p className="text-muted-foreground">{t("merchant.detail.cancelled")}</p>;
  }
  if (payment.status !== "pending" || payment.amountReceivedBase !== "0" || payment.transfers.length > 0)
    return null;
  return (
    <div className="flex flex-col items-start gap-2">
      {asking ? (
        <fieldset className="flex flex-wrap items-center gap-2">
          <legend className="sr-only">{t("merchant.detail.cancelQuestion")}</legend>
          <span>{t("merchant.detail.cancelConfirm")}</span>
          <Button
            variant="destructive"
            size="sm"
            disabled={cancel.isPending}
            onClick={() => cancel.mutate(undefined, { onSettled: () => setAsking(false) })}
          >
            {cancel.isPending ? (
              <Spinner size="sm" label={t("merchant.busy.cancelling")} />
            ) : (
              <Ban aria-hidden="true" />
            )}{" "}
            {t("merchant.detail.cancelYes")}
          </Button>
          <Button variant="ghost" size="sm" onClick={() => setAsking(false)}>
            {t("merchant.detail.cancelNo")}
          </Button>
        </fieldset>
      ) : (
        <Button variant="outline" size="sm" onClick={() => setAsking(true)}>
          <Ban aria-hidden="true" /> {t("merchant.detail.cancel")}
        </Button>
      )}
      {cancel.isError ? (
        <p role="alert" className="text-destructive-emphasis">
          {t("merchant.detail.notCancelled", { error: merchantErrorText(cancel.error) })}
        </p>
      ) : null}
    </div>
  );
}

/** The business as the detail view needs it; `role` hides what the member's role may not do (decision 021). */
export type PosterMerchant = { name: string; brandColor: string | null; role?: MemberRole };

function ShareBlock({ payment, merchant }: { payment: PaymentDetail; merchant: PosterMerchant }) {
  const [making, setMaking] = React.useState(false);
  const t = useT();
  const locale = useLocale();
  const copyWords = useCopyWords();
  const toastWords = payToastWords(t, locale);
  const file = `cpxtb-payment-${payment.reference.slice(0, 8)}`;
  const save = (ext: "png" | "svg") =>
    downloadQr(payment.paymentUri, `${file}.${ext}`).catch((error) =>
      toast({
        variant: "destructive",
        title: t("merchant.share.qrNotSaved"),
        description: merchantErrorText(error),
        ...toastWords,
      }),
    );
  const poster = async () => {
    setMaking(true);
    try {
      // pdf-lib and the poster layout load only now, in their own chunk.
      const { downloadPoster } = await import("../poster");
      await downloadPoster({ payment, merchant, locale });
    } catch (error) {
      toast({
        variant: "destructive",
        title: t("merchant.share.posterNotMade"),
        description: merchantErrorText(error),
        ...toastWords,
      });
    } finally {
      setMaking(false);
    }
  };
  return (
    <Section title={t("merchant.share.title")}>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start">
        <QrCode
          value={payment.paymentUri}
          label={t("merchant.share.qrLabel", {
            amount: isolate(`${formatTokenAmount(payment.amountDue, locale)} CPXTB`, locale),
          })}
          className="w-44 shrink-0 self-center border border-border sm:self-start"
        />
        <div className="flex min-w-0 flex-col gap-2">
          <a
            href={payment.paymentUrl}
            target="_blank"
            rel="noreferrer"
            dir="ltr"
            className="break-all text-start font-mono text-primary underline-offset-4 hover:underline"
            data-testid="detail-link"
          >
            {payment.paymentUrl}
          </a>
          <div className="flex flex-wrap gap-2">
            <CopyButton
              value={payment.paymentUrl}
              label={t("merchant.common.paymentLink")}
              words={copyWords}
            />
            <Button variant="outline" size="sm" onClick={() => save("png")}>
              <Download aria-hidden="true" /> {t("merchant.share.qrPng")}
            </Button>
            <Button variant="outline" size="sm" onClick={() => save("svg")}>
              <Download aria-hidden="true" /> {t("merchant.share.qrSvg")}
            </Button>
            <Button variant="outline" size="sm" onClick={poster} disabled={making}>
              {making ? (
                <Spinner size="sm" label={t("merchant.busy.makingPoster")} />
              ) : (
                <FileText aria-hidden="true" />
              )}{" "}
              {t("merchant.share.poster")}
            </Button>
          </div>
          <p className="text-muted-foreground text-xs">{t("merchant.share.eip681")}</p>
        </div>
      </div>
    </Section>
  );
}

/** A payment that is no longer open is not shared to be paid: its page now shows the payer its outcome. */
function ClosedPaymentLink({ payment }: { payment: PaymentDetail }) {
  const paid = payment.status === "completed" || payment.status === "paid_late";
  const receiptUrl = payment.paymentUrl.replace(/\/pay\/([^/]+)$/, "/payment/$1");
  const t = useT();
  const copyWords = useCopyWords();
  return (
    <Section title={t(paid ? "merchant.closed.receipt" : "merchant.closed.statusPage")}>
      <p className="text-muted-foreground" data-testid="detail-closed-link">
        {paid
          ? t("merchant.closed.paidText")
          : t("merchant.closed.otherText", { status: t(STATUS_LABEL_ID[payment.status]) })}
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <a
          href={receiptUrl}
          target="_blank"
          rel="noreferrer"
          dir="ltr"
          className="min-w-0 break-all text-start font-mono text-primary underline-offset-4 hover:underline"
        >
          {receiptUrl}
        </a>
        <CopyButton
          value={receiptUrl}
          label={t(paid ? "merchant.closed.receiptLink" : "merchant.closed.statusLink")}
          words={copyWords}
        />
      </div>
    </Section>
  );
}

function VerifyByHash({ payment }: { payment: PaymentDetail }) {
  const verify = useVerifyPaymentTx(payment.id);
  const t = useT();
  const [error, setError] = React.useState<string>();
  // Said in the sheet itself: toasts are outside the modal sheet, hidden from assistive technology meanwhile.
  const [verified, setVerified] = React.useState<string | null>(null);
  const submit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const parsed = submitTxRequest.safeParse({ txHash: String(new FormData(form).get("txHash") ?? "") });
    if (!parsed.success) {
      setError(t("pay.error.txHashInvalid"));
      return;
    }
    setError(undefined);
    setVerified(null);
    verify.mutate(parsed.data.txHash, {
      onSuccess: (next) => {
        form.reset();
        setVerified(t("merchant.verify.done", { status: t(STATUS_LABEL_ID[next.status]) }));
      },
    });
  };
  return (
    <Section title={t("merchant.verify.title")}>
      <p className="text-muted-foreground">{t("merchant.verify.intro")}</p>
      <form onSubmit={submit} noValidate className="flex flex-col gap-2 sm:flex-row sm:items-start">
        <Field
          name="txHash"
          label={t("merchant.common.transactionHash")}
          dir="ltr"
          placeholder="0x…"
          spellCheck={false}
          autoComplete="off"
          error={error}
          className="flex-1 [&_label]:sr-only"
        />
        <Button type="submit" variant="outline" disabled={verify.isPending} className="sm:mt-0">
          {verify.isPending ? (
            <Spinner size="sm" label={t("merchant.busy.checking")} />
          ) : (
            <SearchCheck aria-hidden="true" />
          )}{" "}
          {t("merchant.verify.submit")}
        </Button>
      </form>
      <p role="status" className="empty:hidden font-medium text-success" data-testid="verify-result">
        {verified && !verify.isError ? (
          <>
            <CircleCheck aria-hidden="true" className="me-1 inline size-4 align-[-0.2em]" />
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
            <span className="font-semibold">{t("merchant.verify.notVerified")} </span>
            {merchantErrorText(verify.error)}
          </span>
        </p>
      ) : null}
    </Section>
  );
}

/** How a transfer was credited: ids of the "merchant" area. */
const CREDITED_BY = {
  amount: "merchant.transfers.byAmount",
  tx_hash: "merchant.transfers.byHash",
  merchant: "merchant.transfers.byYou",
} as const;

function Transfers({ payment }: { payment: PaymentDetail }) {
  const t = useT();
  const locale = useLocale();
  return (
    <Section title={t("merchant.transfers.title")}>
      {payment.transfers.length === 0 ? (
        <p className="text-muted-foreground">{t("merchant.transfers.none")}</p>
      ) : (
        <ul className="flex flex-col divide-y divide-border" data-testid="detail-transfers">
          {payment.transfers.map((transfer) => (
            <li key={transfer.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
              <div className="min-w-0">
                <p className="font-medium tabular-nums">
                  <Ltr>{formatTokenAmount(transfer.value, locale)} CPXTB</Ltr>{" "}
                  {transfer.orphaned ? (
                    <span className="text-destructive-emphasis">{t("merchant.transfers.orphaned")}</span>
                  ) : null}
                </p>
                <p className="text-muted-foreground">
                  <Rich
                    id="merchant.transfers.fromBlock"
                    values={{
                      from: (
                        <bdi dir="ltr" className="font-mono">
                          {shortAddress(transfer.from)}
                        </bdi>
                      ),
                      block: <Ltr>{transfer.blockNumber}</Ltr>,
                    }}
                  />
                  {transfer.creditedBy ? ` · ${t(CREDITED_BY[transfer.creditedBy])}` : ""}
                </p>
              </div>
              <TxHash hash={transfer.txHash} />
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}

function Timeline({ payment }: { payment: PaymentDetail }) {
  const t = useT();
  return (
    <Section title={t("merchant.timeline.title")}>
      <ol className="flex flex-col gap-3 border-border border-s-2 ps-4" data-testid="detail-timeline">
        {payment.timeline.map((entry) => (
          <li key={`${entry.at}-${entry.to}-${entry.cause}`} className="relative">
            <span
              aria-hidden="true"
              className="absolute top-1.5 -start-[1.4rem] size-2.5 rounded-full border-2 border-background bg-primary"
            />
            <p className="flex flex-wrap items-center gap-1.5">
              {entry.from ? (
                <>
                  <PaymentStatusBadge status={entry.from} label={t(STATUS_LABEL_ID[entry.from])} />
                  <ArrowRight aria-label={t("merchant.timeline.to")} className="size-3.5 rtl:-scale-x-100" />
                </>
              ) : null}
              <PaymentStatusBadge status={entry.to} label={t(STATUS_LABEL_ID[entry.to])} />
              <span className="text-muted-foreground">
                <Time iso={entry.at} />
              </span>
            </p>
            <p className="mt-1 break-all text-muted-foreground">
              <TimelineCause cause={entry.cause} blockNumber={entry.blockNumber} />
            </p>
          </li>
        ))}
      </ol>
    </Section>
  );
}

/**
 * The server's cause of a status change (server/src/modules/payments: an English line with hashes and blocks in it),
 * said in the reader's words: each known shape by its message, the hash and numbers kept left to right; a cause of
 * another shape as the server wrote it.
 */
const CAUSES: { pattern: RegExp; id: string; names: string[] }[] = [
  { pattern: /^created$/, id: "merchant.timeline.cause.created", names: [] },
  { pattern: /^regenerated from (\S+)$/, id: "merchant.timeline.cause.regenerated", names: ["payment"] },
  {
    pattern: /^transaction (0x[0-9a-fA-F]+) \(log \d+\) submitted, block (\d+)$/,
    id: "merchant.timeline.cause.submitted",
    names: ["tx", "block"],
  },
  // Through the API (server/src/modules/api-v1 names the key), before a person's name.
  {
    pattern: /^cancelled by the API \(key (\S+)\)$/,
    id: "merchant.timeline.cause.cancelledByApi",
    names: ["key"],
  },
  { pattern: /^cancelled by (.+)$/, id: "merchant.timeline.cause.cancelledBy", names: ["by"] },
  {
    pattern: /^transfer (0x[0-9a-fA-F]+) \(log \d+\) assigned by the merchant$/,
    id: "merchant.timeline.cause.assigned",
    names: ["tx"],
  },
  {
    pattern: /^expiry time reached \(chain time (\S+)\)$/,
    id: "merchant.timeline.cause.expiryReached",
    names: ["time"],
  },
  { pattern: /^monitoring window over$/, id: "merchant.timeline.cause.monitoringOver", names: [] },
  {
    pattern: /^chain reorganisation: blocks above (\d+) replaced$/,
    id: "merchant.timeline.cause.reorgReplaced",
    names: ["block"],
  },
  {
    pattern: /^transfer removed from block range (\d+)-(\d+)$/,
    id: "merchant.timeline.cause.reorg",
    names: ["from", "to"],
  },
  {
    pattern: /^transfer (0x[0-9a-fA-F]+) \(log \d+\) in block (\d+), seen again$/,
    id: "merchant.timeline.cause.transferAgain",
    names: ["tx", "block"],
  },
  {
    pattern: /^transfer (0x[0-9a-fA-F]+) \(log \d+\) in block (\d+)$/,
    id: "merchant.timeline.cause.transfer",
    names: ["tx", "block"],
  },
  { pattern: /^block (\d+): confirmations$/, id: "merchant.timeline.cause.confirmations", names: ["block"] },
  {
    pattern: /^expired at (\S+): covered by a block of (\S+)$/,
    id: "merchant.timeline.cause.expiredCovered",
    names: ["expiresAt", "blockAt"],
  },
];

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T/;

function TimelineCause({ cause, blockNumber }: { cause: string; blockNumber: string | null }) {
  const t = useT();
  const locale = useLocale();
  const blockNote =
    blockNumber &&
    !cause.includes(`block ${blockNumber}`) &&
    !cause.endsWith(`above ${blockNumber} replaced`) ? (
      <>
        {" · "}
        {t("merchant.timeline.block", { block: isolate(String(blockNumber), locale) })}
      </>
    ) : null;
  for (const { pattern, id, names } of CAUSES) {
    const match = pattern.exec(cause);
    if (!match) continue;
    const values = Object.fromEntries(
      names.map((name, index) => {
        const value = match[index + 1] ?? "";
        return [
          name,
          ISO_TIME.test(value) ? (
            <Time key={name} iso={value} />
          ) : (
            <bdi key={name} dir="ltr" className={/^0x/.test(value) ? "font-mono" : undefined}>
              {value}
            </bdi>
          ),
        ];
      }),
    );
    return (
      <>
        <Rich id={id} values={values} />
        {blockNote}
      </>
    );
  }
  return (
    <>
      <bdi>{cause}</bdi>
      {blockNote}
    </>
  );
}
