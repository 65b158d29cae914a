import type { Payment, PaymentStatus } from "@common/payments";
import { type InfiniteData, infiniteQueryOptions, useInfiniteQuery } from "@tanstack/react-query";
import { apiRequest } from "@/lib/api-client";
import { queryClient } from "@/lib/query-client";

export type HistoryFilter = { q: string; status: PaymentStatus | "" };
export type PaymentPage = { items: Payment[]; nextCursor: string | null };

export const HISTORY_PAGE_SIZE = 20;
export const historyQueryKeyRoot = ["merchant-payment-history"] as const;

/** GET /api/merchant/payments with the search, the status filter and the cursor of the previous page. */
export async function getPaymentHistory(filter: HistoryFilter, cursor: string | null): Promise<PaymentPage> {
  const params = new URLSearchParams({ limit: String(HISTORY_PAGE_SIZE) });
  if (filter.q.trim()) params.set("q", filter.q.trim());
  if (filter.status) params.set("status", filter.status);
  if (cursor) params.set("cursor", cursor);
  const response = await apiRequest("GET", `/api/merchant/payments?${params}`);
  return (await response.json()) as PaymentPage;
}

export const paymentHistoryQueryOptions = (filter: HistoryFilter) =>
  infiniteQueryOptions({
    queryKey: [...historyQueryKeyRoot, filter.q.trim(), filter.status] as const,
    queryFn: ({ pageParam }) => getPaymentHistory(filter, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });

export function usePaymentHistory(filter: HistoryFilter) {
  return useInfiniteQuery(paymentHistoryQueryOptions(filter));
}

/**
 * A created or changed payment, into every history list on screen: replaced where it is listed; a new one
 * goes on top of the unfiltered list, and lists with a search or filter are fetched again (the server decides).
 */
export function upsertHistoryPayment(payment: Payment) {
  const cache = queryClient.getQueriesData<InfiniteData<PaymentPage>>({ queryKey: historyQueryKeyRoot });
  for (const [key, data] of cache) {
    if (!data) continue;
    const listed = data.pages.some((page) => page.items.some((p) => p.id === payment.id));
    const unfiltered = key[1] === "" && key[2] === "";
    if (listed) {
      queryClient.setQueryData<InfiniteData<PaymentPage>>(key, {
        ...data,
        pages: data.pages.map((page) => ({
          ...page,
          items: page.items.map((p) => (p.id === payment.id ? payment : p)),
        })),
      });
    } else if (unfiltered) {
      const [first, ...rest] = data.pages;
      if (!first) continue;
      // Newest first: an older payment that changed but is not loaded stays where it is (a later page).
      const newest = first.items[0];
      if (newest && payment.createdAt < newest.createdAt) continue;
      queryClient.setQueryData<InfiniteData<PaymentPage>>(key, {
        ...data,
        pages: [{ ...first, items: [payment, ...first.items] }, ...rest],
      });
    } else {
      void queryClient.invalidateQueries({ queryKey: key, exact: true });
    }
  }
}
