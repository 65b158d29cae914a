import type { Locale } from "@common/locales";
import { PAYMENT_STATUSES, type PaymentStatus } from "@common/payment-values";
import type { Payment } from "@common/payments";
import type { RefundStatus } from "@common/refunds";
import { ChevronRight, Link2, Search, X } from "lucide-react";
import * as React from "react";
import { Button } from "@/components/ui/button";
import { Label } from "@/components/ui/label";
import { Spinner } from "@/components/ui/spinner";
import { formatDateTime, formatRelative, formatTokenAmount, formatUsd } from "../../format";
import { PaymentStatusBadge } from "../../payment-status";
import { RefundBadge } from "../../refund-status";
import { type HistoryFilter, usePaymentHistory } from "../api/get-payment-history";

const SEARCH_DELAY_MS = 300;

/**
 * The list's words and formats in the reader's language, passed by the dashboard and /payments (decision 038: a
 * shared component takes its words as props).
 */
export type HistoryWords = {
  locale: Locale;
  title: string;
  search: string;
  searchPlaceholder: string;
  status: string;
  allStatuses: string;
  statusName: (status: PaymentStatus) => string;
  refundName: (status: Exclude<RefundStatus, "none">) => string;
  loading: string;
  loadFailed: (error: unknown) => string;
  tryAgain: string;
  noMatch: (query: string, status: string) => string;
  clear: string;
  count: (count: number, more: boolean) => string;
  showMore: string;
  order: (orderId: string) => string;
  payment: string;
  received: (received: string, due: string) => string;
  partlyExpired: string;
  openPage: string;
};

/** The merchant's payments, newest first: search, status filter, "Show more" pages; live like the rest. */
export function PaymentHistory({
  onOpen,
  emptyText,
  words,
}: {
  onOpen: (id: string) => void;
  /** What to say (and what to do next) when the business has no payment at all. */
  emptyText: string;
  words: HistoryWords;
}) {
  const [text, setText] = React.useState("");
  const [filter, setFilter] = React.useState<HistoryFilter>({ q: "", status: "" });
  React.useEffect(() => {
    const timer = setTimeout(() => setFilter((f) => (f.q === text ? f : { ...f, q: text })), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text]);
  const history = usePaymentHistory(filter);
  const items = history.data?.pages.flatMap((page) => page.items) ?? [];
  const filtered = filter.q.trim() !== "" || filter.status !== "";
  const clear = () => {
    setText("");
    setFilter({ q: "", status: "" });
  };

  return (
    <section className="rounded-xl border border-border bg-card p-4 sm:p-6" aria-labelledby="history-title">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <h2 id="history-title" className="font-semibold text-xl">
          {words.title}
        </h2>
        <search>
          <form
            className="flex flex-col gap-2 sm:flex-row sm:items-end"
            onSubmit={(event) => {
              event.preventDefault();
              setFilter((f) => ({ ...f, q: text }));
            }}
          >
            <div className="relative sm:w-64">
              <Label htmlFor="history-search" className="sr-only">
                {words.search}
              </Label>
              <Search
                aria-hidden="true"
                className="pointer-events-none absolute start-3 top-3.5 size-4 text-muted-foreground"
              />
              <input
                id="history-search"
                type="search"
                value={text}
                onChange={(event) => setText(event.target.value)}
                placeholder={words.searchPlaceholder}
                maxLength={100}
                className="h-11 w-full rounded-md border border-input bg-background ps-9 pe-3 text-base outline-none placeholder:text-muted-foreground focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 md:text-sm"
              />
            </div>
            <Label htmlFor="history-status" className="sr-only">
              {words.status}
            </Label>
            <select
              id="history-status"
              value={filter.status}
              onChange={(event) =>
                setFilter((f) => ({ ...f, q: text, status: event.target.value as PaymentStatus | "" }))
              }
              className="h-11 rounded-md border border-input bg-background px-3 text-sm focus-visible:ring-[3px] focus-visible:ring-ring/60"
            >
              <option value="">{words.allStatuses}</option>
              {PAYMENT_STATUSES.map((status) => (
                <option key={status} value={status}>
                  {words.statusName(status)}
                </option>
              ))}
            </select>
          </form>
        </search>
      </div>
      {history.isPending ? (
        <div className="mt-4 flex flex-col gap-2" aria-busy="true">
          {[0, 1, 2].map((i) => (
            <div key={i} className="h-14 animate-pulse rounded-lg bg-muted motion-reduce:animate-none" />
          ))}
          <span className="sr-only">{words.loading}</span>
        </div>
      ) : history.isError ? (
        <div role="alert" className="mt-4 flex flex-col items-start gap-2 text-sm">
          <p className="text-destructive-emphasis">{words.loadFailed(history.error)}</p>
          <Button variant="outline" size="sm" onClick={() => history.refetch()}>
            {words.tryAgain}
          </Button>
        </div>
      ) : items.length === 0 ? (
        filtered ? (
          <div className="mt-4 flex flex-col items-start gap-2 text-muted-foreground text-sm">
            <p>{words.noMatch(filter.q.trim(), filter.status ? words.statusName(filter.status) : "")}</p>
            <Button variant="outline" size="sm" onClick={clear}>
              <X aria-hidden="true" /> {words.clear}
            </Button>
          </div>
        ) : (
          <p className="mt-4 text-muted-foreground text-sm">{emptyText}</p>
        )
      ) : (
        <>
          <ul className="mt-4 divide-y divide-border" aria-live="polite" data-testid="recent-payments">
            {items.map((payment) => (
              <PaymentRow key={payment.id} payment={payment} onOpen={onOpen} words={words} />
            ))}
          </ul>
          <div className="mt-3 flex flex-wrap items-center justify-between gap-2 text-muted-foreground text-sm">
            <span>{words.count(items.length, history.hasNextPage)}</span>
            {history.hasNextPage ? (
              <Button
                variant="outline"
                onClick={() => history.fetchNextPage()}
                disabled={history.isFetchingNextPage}
              >
                {history.isFetchingNextPage ? <Spinner size="sm" label={words.loading} /> : null}{" "}
                {words.showMore}
              </Button>
            ) : null}
          </div>
        </>
      )}
    </section>
  );
}

function PaymentRow({
  payment,
  onOpen,
  words,
}: {
  payment: Payment;
  onOpen: (id: string) => void;
  words: HistoryWords;
}) {
  const { locale } = words;
  const title = payment.description ?? (payment.orderId ? words.order(payment.orderId) : words.payment);
  // Expired with something received: the payer did pay part of it, and the merchant must see how much.
  const partlyPaid = payment.status === "expired" && payment.amountReceivedBase !== "0";
  return (
    <li className="flex items-center gap-1" data-reference={payment.reference}>
      {/* Its name is its visible text (amount, description, time, status): what a person sees is what they say. */}
      <button
        type="button"
        onClick={() => onOpen(payment.id)}
        data-payment-id={payment.id}
        // On a phone the status goes under the amount; from `sm` on, to the right of it.
        className="-mx-2 flex min-h-14 min-w-0 flex-1 flex-wrap items-center justify-between gap-x-3 gap-y-1 rounded-md px-2 py-2 text-start outline-none transition-colors hover:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring/60"
      >
        <span className="min-w-0 basis-full sm:basis-0 sm:grow">
          {/* Each amount whole and left to right; a long pair wraps at the dot rather than overflow a phone. */}
          <span className="block font-medium tabular-nums">
            <bdi dir="ltr" className="whitespace-nowrap">
              {formatTokenAmount(payment.amountDue, locale)} CPXTB
            </bdi>
            {payment.amountUsd ? (
              <span className="font-normal text-muted-foreground">
                {" · "}
                <bdi dir="ltr" className="whitespace-nowrap">
                  {formatUsd(payment.amountUsd, locale)}
                </bdi>
              </span>
            ) : null}
          </span>
          <span className="block truncate text-muted-foreground text-sm">
            {title}
            {payment.description && payment.orderId ? ` · ${payment.orderId}` : ""} ·{" "}
            <time dateTime={payment.createdAt} title={formatDateTime(payment.createdAt, locale)}>
              {formatRelative(payment.createdAt, undefined, locale)}
            </time>
          </span>
          {partlyPaid ? (
            <span className="block text-sm tabular-nums" data-testid="received-before-expiry">
              {words.received(
                formatTokenAmount(payment.amountReceived, locale),
                formatTokenAmount(payment.amountDue, locale),
              )}
            </span>
          ) : null}
        </span>
        <span className="flex shrink-0 items-center gap-1">
          <PaymentStatusBadge
            status={payment.status}
            label={partlyPaid ? words.partlyExpired : words.statusName(payment.status)}
          />
          <RefundBadge
            status={payment.refundStatus}
            label={payment.refundStatus === "none" ? undefined : words.refundName(payment.refundStatus)}
          />
          <ChevronRight aria-hidden="true" className="size-4 text-muted-foreground rtl:-scale-x-100" />
        </span>
      </button>
      <Button asChild variant="ghost" size="icon" aria-label={words.openPage}>
        <a href={`/pay/${payment.reference}`} target="_blank" rel="noreferrer">
          <Link2 aria-hidden="true" />
        </a>
      </Button>
    </li>
  );
}
