import { Inbox } from "lucide-react";
import { Button } from "@/components/ui/button";
import { errorText } from "../../error-text";
import { formatTokenAmount, shortAddress } from "../../format";
import { usePaymentHistory } from "../api/get-payment-history";
import { useAssignTransfer, useInbox } from "../api/payments";

const ALL = { q: "", status: "" } as const;

/** Transfers to the merchant's address that matched no payment; each can be assigned to an open one. */
export function UnattributedInbox() {
  const inbox = useInbox();
  // The unfiltered history the dashboard lists anyway (one query, not a second fetch of the same page).
  const payments = usePaymentHistory(ALL);
  const assign = useAssignTransfer();
  const candidates = (payments.data?.pages.flatMap((page) => page.items) ?? []).filter((p) =>
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
            // A narrow column on a desktop, the full width on a phone: stacked in both.
            <li key={transfer.id} className="flex flex-col gap-2 py-3">
              <div className="min-w-0">
                <p className="font-medium tabular-nums">{formatTokenAmount(transfer.value)} CPXTB</p>
                <p className="text-muted-foreground text-sm">
                  from <span className="font-mono">{shortAddress(transfer.from)}</span> · tx{" "}
                  <span className="font-mono">{shortAddress(transfer.txHash)}</span>
                </p>
              </div>
              <form
                className="flex flex-wrap gap-2"
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
                  className="h-11 min-w-0 flex-1 basis-40 rounded-md border border-input bg-background px-2 text-sm"
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
          Not assigned: {errorText(assign.error)}
        </p>
      ) : null}
    </section>
  );
}
