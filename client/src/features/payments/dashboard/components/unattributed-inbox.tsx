import type { Locale } from "@common/locales";
import type { InboxSuggestion } from "@common/payments";
import { Ban, Inbox } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Rich, type t as translate, useLocale, useT } from "@/i18n/i18n";
import { isolate, Ltr } from "@/i18n/ltr";
import { formatTokenAmount, shortAddress } from "../../format";
import { useAssignTransfer, useDismissTransfer, useInbox } from "../api/payments";
import { merchantErrorText } from "../merchant-error-text";

/** How a proposed payment reads in the list: what it still asks for, and what it is. */
function suggestionLabel(p: InboxSuggestion, t: typeof translate, locale: Locale): string {
  const amount = (value: string) => isolate(formatTokenAmount(value, locale), locale);
  const what =
    p.description ??
    (p.orderId
      ? t("merchant.inbox.order", { orderId: isolate(p.orderId, locale) })
      : p.reference.slice(0, 8));
  if (p.status === "partial")
    return t("merchant.inbox.suggestionPartial", {
      left: amount(p.amountToPay),
      due: amount(p.amountDue),
      what,
    });
  return t(p.status === "expired" ? "merchant.inbox.suggestionExpired" : "merchant.inbox.suggestion", {
    due: amount(p.amountDue),
    what,
  });
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
  const t = useT();
  const locale = useLocale();
  const error = assign.isError
    ? t("merchant.inbox.notAssigned", { error: merchantErrorText(assign.error) })
    : null;
  const dismissError = dismiss.isError
    ? t("merchant.inbox.notDismissed", { error: merchantErrorText(dismiss.error) })
    : null;
  return (
    <section className="rounded-xl border border-border bg-card p-4 sm:p-6" aria-labelledby="inbox-title">
      <h2 id="inbox-title" className="flex items-center gap-2 font-semibold text-xl">
        <Inbox aria-hidden="true" className="size-5" /> {t("merchant.inbox.title")}
      </h2>
      {inbox.isPending ? (
        <div
          aria-busy="true"
          className="mt-4 h-16 animate-pulse rounded-lg bg-muted motion-reduce:animate-none"
        />
      ) : !inbox.data?.items.length ? (
        <p className="mt-2 text-muted-foreground text-sm">{t("merchant.inbox.empty")}</p>
      ) : (
        <ul className="mt-4 divide-y divide-border">
          {inbox.data.items.map((transfer) => (
            // A narrow column on a desktop, the full width on a phone: stacked in both.
            <li key={transfer.id} className="flex flex-col gap-2 py-3" data-testid="inbox-transfer">
              <div className="min-w-0">
                <p className="font-medium tabular-nums">
                  <Ltr>{formatTokenAmount(transfer.value, locale)} CPXTB</Ltr>
                </p>
                <p className="text-muted-foreground text-sm">
                  <Rich
                    id="merchant.inbox.fromTx"
                    values={{
                      from: (
                        <bdi dir="ltr" className="font-mono">
                          {shortAddress(transfer.from)}
                        </bdi>
                      ),
                      tx: (
                        <bdi dir="ltr" className="font-mono">
                          {shortAddress(transfer.txHash)}
                        </bdi>
                      ),
                    }}
                  />
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
                  {t("merchant.inbox.assignLabel")}
                </label>
                {transfer.suggestions.length ? (
                  <select
                    id={`assign-${transfer.id}`}
                    name="paymentId"
                    className="h-11 min-w-0 flex-1 basis-40 rounded-md border border-input bg-background px-2 text-sm"
                  >
                    {transfer.suggestions.map((p) => (
                      <option key={p.id} value={p.id}>
                        {suggestionLabel(p, t, locale)}
                      </option>
                    ))}
                  </select>
                ) : (
                  <p className="min-w-0 flex-1 basis-40 self-center text-muted-foreground text-sm">
                    {t("merchant.inbox.noSuggestion")}
                  </p>
                )}
                <Button
                  type="submit"
                  variant="outline"
                  disabled={!transfer.suggestions.length || assign.isPending}
                >
                  {t("merchant.inbox.assign")}
                </Button>
                <Button
                  type="button"
                  variant="ghost"
                  disabled={dismiss.isPending}
                  onClick={() => dismiss.mutate(transfer.id)}
                >
                  <Ban aria-hidden="true" /> {t("merchant.inbox.dismiss")}
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
