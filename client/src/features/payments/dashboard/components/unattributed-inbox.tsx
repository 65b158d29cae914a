import type { InboxSuggestion } from "@common/payments";
import { Ban, Inbox } from "lucide-react";
import { Button } from "@/components/ui/button";
import { errorText } from "../../error-text";
import { formatTokenAmount, shortAddress } from "../../format";
import { useAssignTransfer, useDismissTransfer, useInbox } from "../api/payments";

/** How a proposed payment reads in the list: what it still asks for, and what it is. */
function suggestionLabel(p: InboxSuggestion): string {
  const what = p.description ?? (p.orderId ? `order ${p.orderId}` : p.reference.slice(0, 8));
  return p.status === "partial"
    ? `${formatTokenAmount(p.amountToPay)} left of ${formatTokenAmount(p.amountDue)} · partly paid · ${what}`
    : `${formatTokenAmount(p.amountDue)} · ${p.status === "expired" ? "expired · " : ""}${what}`;
}

/**
 * Transfers to the merchant's address that matched no payment. Each proposes the payments it most likely was for
 * (the server's: a partly paid one first, then the nearest amounts) to assign it to, or is dismissed as not a
 * payment (kept, and in the audit log, but no longer listed).
 */
export function UnattributedInbox() {
  const inbox = useInbox();
  const assign = useAssignTransfer();
  const dismiss = useDismissTransfer();
  const error = assign.isError ? `Not assigned: ${errorText(assign.error)}` : null;
  const dismissError = dismiss.isError ? `Not dismissed: ${errorText(dismiss.error)}` : null;
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
            <li key={transfer.id} className="flex flex-col gap-2 py-3" data-testid="inbox-transfer">
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
                {transfer.suggestions.length ? (
                  <select
                    id={`assign-${transfer.id}`}
                    name="paymentId"
                    className="h-11 min-w-0 flex-1 basis-40 rounded-md border border-input bg-background px-2 text-sm"
                  >
                    {transfer.suggestions.map((p) => (
                      <option key={p.id} value={p.id}>
                        {suggestionLabel(p)}
                      </option>
                    ))}
                  </select>
                ) : (
                  <p className="min-w-0 flex-1 basis-40 self-center text-muted-foreground text-sm">
                    No open payment to assign it to.
                  </p>
                )}
                <Button
                  type="submit"
                  variant="outline"
                  disabled={!transfer.suggestions.length || assign.isPending}
                >
                  Assign to payment
                </Button>
                <Button
                  type="button"
                  variant="ghost"
                  disabled={dismiss.isPending}
                  onClick={() => dismiss.mutate(transfer.id)}
                >
                  <Ban aria-hidden="true" /> Not a payment
                </Button>
              </form>
            </li>
          ))}
        </ul>
      )}
      {error || dismissError ? (
        <p role="alert" className="mt-2 text-destructive-emphasis text-sm">
          {error ?? dismissError}
        </p>
      ) : null}
    </section>
  );
}
