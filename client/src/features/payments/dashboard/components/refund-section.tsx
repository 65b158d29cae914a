import { REFUND_LINK_DAYS, REFUNDABLE_PAYMENT_STATUSES } from "@common/refund-values";
import { CircleCheck, Link2, TriangleAlert, Undo2 } from "lucide-react";
import * as React from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Spinner } from "@/components/ui/spinner";
import { Rich, useLocale, useT } from "@/i18n/i18n";
import { isolate } from "@/i18n/ltr";
import { isApiError } from "@/lib/api-client";
import { sendWithBrowserWallet } from "../../browser-wallet-transfer";
import { CopyButton } from "../../components/copy-button";
import type { TransferStep } from "../../components/pay-view";
import { useCopyWords } from "../../copy-words";
import { formatTokenAmount, plainTokenAmount, shortAddress } from "../../format";
import { errorBodyOf } from "../../pay-error-text";
import { useCreateRefundLink } from "../api/create-refund-link";
import type { PaymentDetail } from "../api/get-payment-detail";
import { recordRefund, showRefundedPayment } from "../api/record-refund";
import { merchantErrorText } from "../merchant-error-text";
import { baseToTokens, decimalsOf, Section, Time, TxHash } from "./detail-parts";

type Step = TransferStep | "recording";
/** The refund's steps: ids of the "merchant" area. */
const STEP_LABEL: Record<Step, string> = {
  connecting: "merchant.refund.step.connecting",
  switching: "merchant.refund.step.switching",
  confirm: "merchant.refund.step.confirm",
  mining: "merchant.refund.step.mining",
  recording: "merchant.refund.step.recording",
};
/** A refund still short of the confirmations is asked about again this often, for at most this long. */
const CONFIRMATION_RETRY_MS = 3000;
const CONFIRMATION_WAIT_MS = 10 * 60_000;

/** "12.5" -> base units with `decimals`; null when it is not a positive amount with at most `decimals` decimals. */
export function parseTokenInput(text: string, decimals: number): bigint | null {
  const value = text.trim().replaceAll(",", "");
  const match = /^(\d+)(?:\.(\d*))?$/.exec(value);
  if (!match) return null;
  const [, whole = "0", fraction = ""] = match;
  if (fraction.length > decimals) return null;
  const base = BigInt(whole) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, "0") || "0");
  return base > 0n ? base : null;
}

const tokens = (base: bigint | string, decimals: number) =>
  plainTokenAmount(baseToTokens(String(base), decimals));

/** The amount offered first: an overpayment's excess not yet sent back, else everything refundable. */
function defaultAmount(payment: PaymentDetail): bigint {
  const refundable = BigInt(payment.refundableBase);
  const excessLeft = BigInt(payment.overpaidBase) - BigInt(payment.amountRefundedBase);
  if (payment.overpaid && excessLeft > 0n && excessLeft <= refundable) return excessLeft;
  return refundable;
}

/** Where a refund address comes from: ids of the "merchant" area. */
const SOURCE_LABEL = {
  payer: "merchant.refund.source.payer",
  refund_link: "merchant.refund.source.link",
} as const;

/**
 * Refunds of a payment (decision 018): what was sent back, with its transaction; a form that sends a refund from
 * the merchant's browser wallet (its receiving address) and has the server verify it on chain; refund links.
 */
export function RefundSection({ payment }: { payment: PaymentDetail }) {
  const refundable = BigInt(payment.refundableBase);
  const allowed = (REFUNDABLE_PAYMENT_STATUSES as readonly string[]).includes(payment.status);
  const t = useT();
  if (!allowed && payment.refunds.length === 0) return null;
  return (
    <Section title={t("merchant.refund.title")}>
      <RefundList payment={payment} />
      {refundable > 0n ? <RefundForm payment={payment} refundable={refundable} /> : null}
      {refundable > 0n || payment.refundLinks.length > 0 ? (
        <RefundLinks payment={payment} canCreate={refundable > 0n} />
      ) : null}
    </Section>
  );
}

function RefundList({ payment }: { payment: PaymentDetail }) {
  const t = useT();
  const locale = useLocale();
  if (payment.refunds.length === 0) {
    return <p className="text-muted-foreground">{t("merchant.refund.none")}</p>;
  }
  return (
    <ul className="flex flex-col divide-y divide-border" data-testid="detail-refunds">
      {payment.refunds.map((r) => (
        <li key={r.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
          <div className="min-w-0">
            <p className="font-medium tabular-nums">
              {t("merchant.refund.refunded", {
                amount: isolate(`${formatTokenAmount(r.amount, locale)} CPXTB`, locale),
              })}
            </p>
            <p className="text-muted-foreground">
              <Rich
                id="merchant.refund.toAt"
                values={{
                  address: (
                    <bdi dir="ltr" className="font-mono">
                      {shortAddress(r.to)}
                    </bdi>
                  ),
                  time: <Time iso={r.createdAt} />,
                }}
              />
            </p>
          </div>
          <TxHash hash={r.txHash} />
        </li>
      ))}
    </ul>
  );
}

function RefundForm({ payment, refundable }: { payment: PaymentDetail; refundable: bigint }) {
  const decimals = decimalsOf(payment);
  const addresses = payment.refundAddresses;
  const [amountText, setAmountText] = React.useState(() => tokens(defaultAmount(payment), decimals));
  const [to, setTo] = React.useState(addresses[0]?.address ?? "");
  const [amountError, setAmountError] = React.useState<string>();
  const [step, setStep] = React.useState<Step | null>(null);
  const [problem, setProblem] = React.useState<string | null>(null);
  const [done, setDone] = React.useState<string | null>(null);
  /** A refund that left the wallet but is not recorded yet: kept so it can be recorded again, never resent. */
  const [unrecorded, setUnrecorded] = React.useState<{ txHash: string; to: string; amount: bigint } | null>(
    null,
  );
  const id = React.useId();
  const t = useT();
  const locale = useLocale();
  const cpxtb = (base: bigint) =>
    isolate(`${formatTokenAmount(tokens(base, decimals), locale)} CPXTB`, locale);
  const excessLeft = BigInt(payment.overpaidBase) - BigInt(payment.amountRefundedBase);
  React.useEffect(() => {
    if (!addresses.some((a) => a.address === to) && addresses[0]) setTo(addresses[0].address);
  }, [addresses, to]);

  const record = async (sent: { txHash: string; to: string; amount: bigint }) => {
    setStep("recording");
    const started = Date.now();
    for (;;) {
      try {
        const detail = await recordRefund(payment.id, {
          txHash: sent.txHash,
          toAddress: sent.to,
          amountBase: sent.amount.toString(),
        });
        setUnrecorded(null);
        // The next refund starts from what is left now.
        setAmountText(tokens(defaultAmount(detail), decimals));
        setDone(t("merchant.refund.done", { amount: cpxtb(sent.amount) }));
        showRefundedPayment(payment.id, detail);
        return;
      } catch (error) {
        const waiting =
          isApiError(error) &&
          error.status === 409 &&
          errorBodyOf(error.body).details?.reason === "not_confirmed";
        if (!waiting || Date.now() - started > CONFIRMATION_WAIT_MS) throw error;
        await new Promise((resolve) => setTimeout(resolve, CONFIRMATION_RETRY_MS));
      }
    }
  };

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setProblem(null);
    setDone(null);
    const amount = parseTokenInput(amountText, decimals);
    if (amount === null) {
      setAmountError(
        t("merchant.refund.amountInvalid", { example: isolate(tokens(refundable, decimals), locale) }),
      );
      return;
    }
    if (amount > refundable) {
      setAmountError(t("merchant.refund.amountTooMuch", { amount: cpxtb(refundable) }));
      return;
    }
    setAmountError(undefined);
    if (!to) return;
    let txHash: string;
    try {
      txHash = await sendWithBrowserWallet(
        {
          chainId: payment.chainId,
          token: payment.tokenAddress,
          to,
          amount,
          from: payment.receivingAddress,
        },
        setStep,
      );
    } catch (error) {
      setStep(null);
      setProblem(
        (error as Error).name === "InsufficientBalanceError"
          ? t("merchant.refund.insufficient")
          : merchantErrorText(error),
      );
      return;
    }
    const sent = { txHash, to, amount };
    setUnrecorded(sent);
    try {
      await record(sent);
    } catch (error) {
      setProblem(merchantErrorText(error));
    } finally {
      setStep(null);
    }
  };

  const retry = async () => {
    if (!unrecorded) return;
    setProblem(null);
    try {
      await record(unrecorded);
    } catch (error) {
      setProblem(merchantErrorText(error));
    } finally {
      setStep(null);
    }
  };

  if (addresses.length === 0) {
    return (
      <p className="text-muted-foreground" data-testid="refund-no-address">
        {t("merchant.refund.noAddress")}
      </p>
    );
  }
  return (
    <form
      onSubmit={submit}
      noValidate
      className="flex flex-col gap-3"
      aria-label={t("merchant.refund.formLabel")}
    >
      <p className="text-muted-foreground">
        <Rich
          id="merchant.refund.upTo"
          values={{
            amount: (
              <bdi dir="ltr" className="font-medium text-foreground tabular-nums">
                {formatTokenAmount(tokens(refundable, decimals), locale)} CPXTB
              </bdi>
            ),
            wallet: (
              <bdi dir="ltr" className="font-mono" title={payment.receivingAddress}>
                {shortAddress(payment.receivingAddress)}
              </bdi>
            ),
          }}
        />
      </p>
      <Field
        name="refundAmount"
        label={t("merchant.refund.amountLabel")}
        dir="ltr"
        inputMode="decimal"
        autoComplete="off"
        value={amountText}
        onChange={(e) => setAmountText(e.currentTarget.value)}
        error={amountError}
        hint={
          payment.overpaid && excessLeft > 0n
            ? payment.amountRefundedBase === "0"
              ? t("merchant.refund.excessHint", { excess: cpxtb(BigInt(payment.overpaidBase)) })
              : t("merchant.refund.excessLeftHint", {
                  excess: cpxtb(BigInt(payment.overpaidBase)),
                  left: cpxtb(excessLeft),
                })
            : undefined
        }
        disabled={step !== null}
      />
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 font-medium">{t("merchant.refund.to")}</legend>
        {addresses.map((a) => (
          <label
            key={a.address}
            className="flex min-h-11 cursor-pointer items-center gap-3 rounded-md border border-border px-3 py-2 has-[:checked]:border-primary"
          >
            <input
              type="radio"
              name={`${id}-to`}
              value={a.address}
              checked={to === a.address}
              onChange={() => setTo(a.address)}
              disabled={step !== null}
              className="size-4 accent-[var(--primary)]"
            />
            <span className="min-w-0">
              <span className="block break-all text-start font-mono text-xs sm:text-sm" dir="ltr">
                {a.address}
              </span>
              <span className="block text-muted-foreground text-xs">{t(SOURCE_LABEL[a.source])}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <Button type="submit" disabled={step !== null || unrecorded !== null} data-testid="send-refund">
        {step ? <Spinner size="sm" label={t(STEP_LABEL[step])} /> : <Undo2 aria-hidden="true" />}
        {t(step ? STEP_LABEL[step] : "merchant.refund.submit")}
      </Button>
      <p role="status" className="empty:hidden font-medium text-success" data-testid="refund-result">
        {done ? (
          <>
            <CircleCheck aria-hidden="true" className="me-1 inline size-4 align-[-0.2em]" />
            {done}
          </>
        ) : null}
      </p>
      {problem ? (
        <div
          role="alert"
          className="flex gap-2 rounded-md border border-destructive/50 p-3"
          data-testid="refund-error"
        >
          <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-destructive-emphasis" />
          <div className="flex min-w-0 flex-col gap-2">
            <p>
              <span className="font-semibold">
                {t(unrecorded ? "merchant.refund.notRecorded" : "merchant.refund.notSent")}{" "}
              </span>
              {problem}
            </p>
            {unrecorded ? (
              <>
                <p className="break-all text-muted-foreground">
                  <Rich
                    id="merchant.refund.unrecordedTx"
                    values={{
                      tx: (
                        <bdi dir="ltr" className="font-mono">
                          {unrecorded.txHash}
                        </bdi>
                      ),
                    }}
                  />
                </p>
                <Button type="button" variant="outline" size="sm" onClick={retry} className="self-start">
                  {t("merchant.refund.retryRecord")}
                </Button>
              </>
            ) : null}
          </div>
        </div>
      ) : null}
    </form>
  );
}

/** A refund link's state: ids of the "merchant" area. */
const LINK_STATE = {
  waiting: "merchant.refundLink.waiting",
  submitted: "merchant.refundLink.submitted",
  expired: "merchant.refundLink.expired",
} as const;

function RefundLinks({ payment, canCreate }: { payment: PaymentDetail; canCreate: boolean }) {
  const create = useCreateRefundLink(payment.id);
  const t = useT();
  const copyWords = useCopyWords();
  return (
    <div className="flex flex-col gap-2 rounded-lg border border-border p-3">
      <h4 className="flex items-center gap-2 font-medium">
        <Link2 aria-hidden="true" className="size-4" /> {t("merchant.refundLink.title")}
      </h4>
      <p className="text-muted-foreground">{t("merchant.refundLink.intro", { days: REFUND_LINK_DAYS })}</p>
      {payment.refundLinks.length > 0 ? (
        <ul className="flex flex-col gap-1" data-testid="refund-links">
          {payment.refundLinks.map((l) => (
            <li key={l.id} className="flex flex-wrap items-baseline justify-between gap-x-3">
              <span className="font-medium">{t(LINK_STATE[l.state])}</span>
              <span className="text-muted-foreground text-xs">
                {l.address ? (
                  <span className="break-all font-mono" dir="ltr">
                    {l.address}
                  </span>
                ) : l.state === "waiting" ? (
                  <Rich id="merchant.refundLink.until" values={{ time: <Time iso={l.expiresAt} /> }} />
                ) : (
                  <Time iso={l.expiresAt} />
                )}
              </span>
            </li>
          ))}
        </ul>
      ) : null}
      {create.data ? (
        <div className="flex flex-col gap-2 rounded-md bg-muted p-2" data-testid="refund-link-created">
          <p className="font-medium">{t("merchant.refundLink.copyNow")}</p>
          <div className="flex items-center gap-2">
            <span className="min-w-0 flex-1 break-all text-start font-mono text-xs" dir="ltr">
              {create.data.url}
            </span>
            <CopyButton value={create.data.url} label={t("merchant.refundLink.title")} words={copyWords} />
          </div>
        </div>
      ) : canCreate ? (
        <Button
          type="button"
          variant="outline"
          size="sm"
          className="self-start"
          disabled={create.isPending}
          onClick={() => create.mutate()}
        >
          {create.isPending ? (
            <Spinner size="sm" label={t("merchant.busy.creating")} />
          ) : (
            <Link2 aria-hidden="true" />
          )}{" "}
          {t("merchant.refundLink.create")}
        </Button>
      ) : null}
      {create.isError ? (
        <p role="alert" className="text-destructive-emphasis">
          {t("merchant.refundLink.notMade", { error: merchantErrorText(create.error) })}
        </p>
      ) : null}
    </div>
  );
}
