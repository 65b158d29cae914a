import { submitRefundAddressRequest } from "@common/refunds";
import { CircleCheck, CircleX, Send, TriangleAlert } from "lucide-react";
import * as React from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Spinner } from "@/components/ui/spinner";
import { useT } from "@/i18n/i18n";
import { isApiError } from "@/lib/api-client";
import { useRefundLink, useSubmitRefundAddress } from "../api/refund-link";
import { formatTokenAmount } from "../format";
import { payerNetworkName } from "../network-words";
import { payErrorText } from "../pay-error-text";

/** The payer's side of a refund link: who refunds, for what, and the form for the address (single use). */
export function RefundLinkView({ token }: { token: string }) {
  const t = useT();
  const link = useRefundLink(token);
  const submit = useSubmitRefundAddress(token);
  const [error, setError] = React.useState<string>();
  if (link.isPending) {
    return (
      <div className="flex flex-col gap-3" aria-busy="true">
        <div className="h-24 animate-pulse rounded-lg bg-muted motion-reduce:animate-none" />
        <span className="sr-only">{t("pay.refund.loading")}</span>
      </div>
    );
  }
  if (link.isError) {
    const gone = isApiError(link.error) && link.error.status === 410;
    const unknown = isApiError(link.error) && (link.error.status === 404 || link.error.status === 400);
    return (
      <div
        role="alert"
        className="flex flex-col items-start gap-3 rounded-xl border border-border bg-card p-4"
      >
        <CircleX aria-hidden="true" className="size-8 text-destructive-emphasis" />
        <h2 className="font-semibold text-lg">
          {gone ? t("pay.refund.expired") : unknown ? t("pay.refund.notFound") : t("pay.refund.loadFailed")}
        </h2>
        <p className="text-muted-foreground text-sm">
          {gone || unknown ? t("pay.refund.askNewLink") : payErrorText(link.error, "refund")}
        </p>
      </div>
    );
  }
  const data = link.data;
  const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = submitRefundAddressRequest.safeParse({
      address: String(new FormData(event.currentTarget).get("address") ?? ""),
    });
    if (!parsed.success) {
      setError(t("pay.refund.addressInvalid"));
      return;
    }
    setError(undefined);
    submit.mutate(parsed.data.address);
  };
  return (
    <section className="flex flex-col gap-4 rounded-xl border border-border bg-card p-4 text-sm sm:p-6">
      <dl className="flex flex-col gap-1">
        <div className="flex justify-between gap-4">
          <dt className="text-muted-foreground">{t("pay.refund.merchant")}</dt>
          <dd className="min-w-0 break-words text-end font-medium" data-testid="refund-merchant">
            {data.merchant.name}
          </dd>
        </div>
        {data.description ? (
          <div className="flex justify-between gap-4">
            <dt className="text-muted-foreground">{t("pay.refund.for")}</dt>
            <dd className="min-w-0 break-words text-end">{data.description}</dd>
          </div>
        ) : null}
        <div className="flex justify-between gap-4">
          <dt className="text-muted-foreground">{t("pay.refund.youPaid")}</dt>
          <dd className="text-end tabular-nums" dir="ltr">
            {formatTokenAmount(data.amountReceived)} {data.token.symbol}
          </dd>
        </div>
        {/^0(\.0*)?$/.test(data.amountRefunded) ? null : (
          <div className="flex justify-between gap-4">
            <dt className="text-muted-foreground">{t("pay.refund.refundedSoFar")}</dt>
            <dd className="text-end tabular-nums" dir="ltr">
              {formatTokenAmount(data.amountRefunded)} {data.token.symbol}
            </dd>
          </div>
        )}
        <div className="flex justify-between gap-4">
          <dt className="text-muted-foreground">{t("pay.refund.network")}</dt>
          <dd className="text-end">{payerNetworkName(t, data.networkChainId)}</dd>
        </div>
      </dl>
      {data.state === "submitted" ? (
        <div
          role="status"
          className="flex gap-2 rounded-md border border-border p-3"
          data-testid="refund-address-done"
        >
          <CircleCheck aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-success" />
          <div className="min-w-0">
            <p className="font-semibold">{t("pay.refund.done")}</p>
            <p className="break-all font-mono" dir="ltr">
              {data.address}
            </p>
            <p className="text-muted-foreground">{t("pay.refund.doneHint", { token: data.token.symbol })}</p>
          </div>
        </div>
      ) : (
        <form onSubmit={onSubmit} noValidate className="flex flex-col gap-3">
          <Field
            name="address"
            label={t("pay.refund.addressLabel")}
            placeholder="0x…"
            spellCheck={false}
            autoComplete="off"
            error={error}
            dir="ltr"
            hint={t("pay.refund.addressHint", {
              token: data.token.symbol,
              network: payerNetworkName(t, data.networkChainId),
            })}
          />
          <p className="flex gap-2 rounded-md border border-warning/60 bg-warning/10 p-3">
            <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
            {t("pay.refund.checkTwice")}
          </p>
          <Button type="submit" disabled={submit.isPending} data-testid="submit-refund-address">
            {submit.isPending ? (
              <Spinner size="sm" />
            ) : (
              <Send aria-hidden="true" className="rtl:-scale-x-100" />
            )}{" "}
            {t("pay.refund.submit", { merchant: data.merchant.name })}
          </Button>
          {submit.isError ? (
            <p role="alert" className="text-destructive-emphasis">
              {t("pay.refund.notSent", { reason: payErrorText(submit.error, "refund") })}
            </p>
          ) : null}
        </form>
      )}
    </section>
  );
}
