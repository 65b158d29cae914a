import type { Payment } from "@common/payments";
import { Inbox, Link2 } from "lucide-react";
import { Button } from "@/components/ui/button";
import { formatRelative, formatTokenAmount, shortAddress } from "../../format";
import { PaymentStatusBadge } from "../../payment-status";
import { useAssignTransfer, useInbox, useRecentPayments } from "../api/payments";

export function RecentPayments() {
  const list = useRecentPayments();
  return (
    <section className="rounded-xl border border-border bg-card p-4 sm:p-6" aria-labelledby="recent-title">
      <h2 id="recent-title" className="font-semibold text-xl">
        Recent payments
      </h2>
      {list.isPending ? (
        <div
          aria-busy="true"
          className="mt-4 h-32 animate-pulse rounded-lg bg-muted motion-reduce:animate-none"
        />
      ) : list.isError ? (
        <p role="alert" className="mt-4 text-destructive-emphasis text-sm">
          Your payments could not be loaded. Reload the page to try again.
        </p>
      ) : list.data.items.length === 0 ? (
        <p className="mt-4 text-muted-foreground text-sm">
          No payments yet. Create one above and show its QR code to your customer.
        </p>
      ) : (
        <ul className="mt-4 divide-y divide-border" aria-live="polite" data-testid="recent-payments">
          {list.data.items.map((payment) => (
            <PaymentRow key={payment.id} payment={payment} />
          ))}
        </ul>
      )}
    </section>
  );
}

function PaymentRow({ payment }: { payment: Payment }) {
  return (
    <li className="flex flex-wrap items-center justify-between gap-2 py-3" data-reference={payment.reference}>
      <div className="min-w-0">
        <p className="font-medium tabular-nums">{formatTokenAmount(payment.amountDue)} CPXTB</p>
        <p className="truncate text-muted-foreground text-sm">
          {payment.description ?? payment.orderId ?? "Payment"} ·{" "}
          <time dateTime={payment.createdAt} title={new Date(payment.createdAt).toLocaleString()}>
            {formatRelative(payment.createdAt)}
          </time>
        </p>
      </div>
      <div className="flex items-center gap-2">
        <PaymentStatusBadge status={payment.status} />
        <Button asChild variant="ghost" size="icon" aria-label="Open the payment page">
          <a href={`/pay/${payment.reference}`} target="_blank" rel="noreferrer">
            <Link2 aria-hidden="true" />
          </a>
        </Button>
      </div>
    </li>
  );
}

/** Transfers to the merchant's address that matched no payment; each can be assigned to an open one. */
export function UnattributedInbox() {
  const inbox = useInbox();
  const payments = useRecentPayments();
  const assign = useAssignTransfer();
  const candidates = (payments.data?.items ?? []).filter((p) =>
    ["pending", "partial", "expired"].includes(p.status),
  );
  return (
    <section className="rounded-xl border border-border bg-card p-4 sm:p-6" aria-labelledby="inbox-title">
      <h2 id="inbox-title" className="flex items-center gap-2 font-semibold text-xl">
        <Inbox aria-hidden="true" className="size-5" /> Unmatched transfers
      </h2>
      {inbox.isPending ? (
        <div
          aria-busy="true"
          className="mt-4 h-16 animate-pulse rounded-lg bg-muted motion-reduce:animate-none"
        />
      ) : !inbox.data?.items.length ? (
        <p className="mt-2 text-muted-foreground text-sm">
          Nothing here. A transfer whose amount matches none of your payments lands here, for you to assign.
        </p>
      ) : (
        <ul className="mt-4 divide-y divide-border">
          {inbox.data.items.map((transfer) => (
            <li
              key={transfer.id}
              className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between"
            >
              <div>
                <p className="font-medium tabular-nums">{formatTokenAmount(transfer.value)} CPXTB</p>
                <p className="text-muted-foreground text-sm">
                  from <span className="font-mono">{shortAddress(transfer.from)}</span> · tx{" "}
                  <span className="font-mono">{shortAddress(transfer.txHash)}</span>
                </p>
              </div>
              <form
                className="flex gap-2"
                onSubmit={(event) => {
                  event.preventDefault();
                  const paymentId = String(new FormData(event.currentTarget).get("paymentId") ?? "");
                  if (paymentId) assign.mutate({ transferId: transfer.id, paymentId });
                }}
              >
                <label className="sr-only" htmlFor={`assign-${transfer.id}`}>
                  Payment to assign this transfer to
                </label>
                <select
                  id={`assign-${transfer.id}`}
                  name="paymentId"
                  className="h-11 max-w-56 rounded-md border border-input bg-background px-2 text-sm"
                >
                  {candidates.map((p) => (
                    <option key={p.id} value={p.id}>
                      {formatTokenAmount(p.amountDue)} ·{" "}
                      {p.description ?? p.orderId ?? p.reference.slice(0, 8)}
                    </option>
                  ))}
                </select>
                <Button type="submit" variant="outline" disabled={!candidates.length || assign.isPending}>
                  Assign to payment
                </Button>
              </form>
            </li>
          ))}
        </ul>
      )}
      {assign.isError ? (
        <p role="alert" className="mt-2 text-destructive-emphasis text-sm">
          Not assigned: {assign.error.message.replace(/^\d{3}: /, "")}
        </p>
      ) : null}
    </section>
  );
}
