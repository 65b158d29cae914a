import { submitRefundAddressRequest } from "@common/refunds";
import { CircleCheck, CircleX, Send, TriangleAlert } from "lucide-react";
import * as React from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Spinner } from "@/components/ui/spinner";
import { isApiError } from "@/lib/api-client";
import { networkName } from "@/lib/network-name";
import { useRefundLink, useSubmitRefundAddress } from "../api/refund-link";
import { errorText } from "../error-text";
import { formatTokenAmount } from "../format";

/** The payer's side of a refund link: who refunds, for what, and the form for the address (single use). */
export function RefundLinkView({ token }: { token: string }) {
  const link = useRefundLink(token);
  const submit = useSubmitRefundAddress(token);
  const [error, setError] = React.useState<string>();
  if (link.isPending) {
    return (
      <div className="flex flex-col gap-3" aria-busy="true">
        <div className="h-24 animate-pulse rounded-lg bg-muted motion-reduce:animate-none" />
        <span className="sr-only">Loading the refund link…</span>
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
          {gone
            ? "This refund link has expired"
            : unknown
              ? "Refund link not found"
              : "The link could not be loaded"}
        </h2>
        <p className="text-muted-foreground text-sm">
          {gone || unknown
            ? "Ask the merchant for a new refund link."
            : `${errorText(link.error)} Check your connection and try again.`}
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
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setError(undefined);
    submit.mutate(parsed.data.address);
  };
  return (
    <section className="flex flex-col gap-4 rounded-xl border border-border bg-card p-4 text-sm sm:p-6">
      <dl className="flex flex-col gap-1">
        <div className="flex justify-between gap-4">
          <dt className="text-muted-foreground">Merchant</dt>
          <dd className="text-right font-medium" data-testid="refund-merchant">
            {data.merchant.name}
          </dd>
        </div>
        {data.description ? (
          <div className="flex justify-between gap-4">
            <dt className="text-muted-foreground">For</dt>
            <dd className="text-right">{data.description}</dd>
          </div>
        ) : null}
        <div className="flex justify-between gap-4">
          <dt className="text-muted-foreground">You paid</dt>
          <dd className="text-right tabular-nums">
            {formatTokenAmount(data.amountReceived)} {data.token.symbol}
          </dd>
        </div>
        {/^0(\.0*)?$/.test(data.amountRefunded) ? null : (
          <div className="flex justify-between gap-4">
            <dt className="text-muted-foreground">Refunded so far</dt>
            <dd className="text-right tabular-nums">
              {formatTokenAmount(data.amountRefunded)} {data.token.symbol}
            </dd>
          </div>
        )}
        <div className="flex justify-between gap-4">
          <dt className="text-muted-foreground">Network</dt>
          <dd className="text-right">{networkName(data.networkChainId, undefined)}</dd>
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
            <p className="font-semibold">Thank you: the merchant has your address.</p>
            <p className="break-all font-mono">{data.address}</p>
            <p className="text-muted-foreground">
              The refund will arrive there in {data.token.symbol}. This link cannot be used again.
            </p>
          </div>
        </div>
      ) : (
        <form onSubmit={onSubmit} noValidate className="flex flex-col gap-3">
          <Field
            name="address"
            label="Your wallet address"
            placeholder="0x…"
            spellCheck={false}
            autoComplete="off"
            error={error}
            hint={`An address that can receive ${data.token.symbol} on ${networkName(data.networkChainId, undefined)}. Not an exchange deposit address that only accepts other tokens.`}
          />
          <p className="flex gap-2 rounded-md border border-warning/60 bg-warning/10 p-3">
            <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
            Check it twice: a refund sent to a wrong address cannot be taken back. It can be entered once.
          </p>
          <Button type="submit" disabled={submit.isPending} data-testid="submit-refund-address">
            {submit.isPending ? <Spinner size="sm" /> : <Send aria-hidden="true" />} Send address to{" "}
            {data.merchant.name}
          </Button>
          {submit.isError ? (
            <p role="alert" className="text-destructive-emphasis">
              Not sent: {errorText(submit.error)}
            </p>
          ) : null}
        </form>
      )}
    </section>
  );
}
