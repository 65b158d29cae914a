import type { CreatePaymentRequest, Payment, Transfer } from "@common/payments";
import { queryOptions, useMutation, useQuery } from "@tanstack/react-query";
import { apiRequest } from "@/lib/api-client";
import { queryClient } from "@/lib/query-client";
import { upsertHistoryPayment } from "./get-payment-history";

export const recentPaymentsQueryKey = ["/api/merchant/payments?limit=20"] as const;
export const inboxQueryKey = ["/api/merchant/inbox"] as const;

type PaymentList = { items: Payment[]; nextCursor: string | null };

export const recentPaymentsQueryOptions = () =>
  queryOptions<PaymentList>({ queryKey: recentPaymentsQueryKey });
export const useRecentPayments = () => useQuery(recentPaymentsQueryOptions());

export const inboxQueryOptions = () => queryOptions<{ items: Transfer[] }>({ queryKey: inboxQueryKey });
export const useInbox = () => useQuery(inboxQueryOptions());

/** Puts a created or changed payment at its place in the recent list (newest first). */
export function upsertRecentPayment(payment: Payment) {
  queryClient.setQueryData<PaymentList>(recentPaymentsQueryKey, (list) => {
    if (!list) return list;
    const found = list.items.some((p) => p.id === payment.id);
    const items = found
      ? list.items.map((p) => (p.id === payment.id ? payment : p))
      : [payment, ...list.items].slice(0, 20);
    return { ...list, items };
  });
}

/** POST /api/merchant/payments. */
export async function createPayment(body: CreatePaymentRequest): Promise<Payment> {
  const response = await apiRequest("POST", "/api/merchant/payments", body);
  return (await response.json()) as Payment;
}

export function useCreatePayment() {
  return useMutation({
    mutationFn: createPayment,
    onSuccess: (payment) => {
      upsertRecentPayment(payment);
      upsertHistoryPayment(payment);
    },
  });
}

/** POST /api/merchant/inbox/:id/assign. */
export async function assignTransfer(transferId: string, paymentId: string): Promise<Payment> {
  const response = await apiRequest("POST", `/api/merchant/inbox/${transferId}/assign`, { paymentId });
  return (await response.json()) as Payment;
}

export function useAssignTransfer() {
  return useMutation({
    mutationFn: (v: { transferId: string; paymentId: string }) => assignTransfer(v.transferId, v.paymentId),
    onSuccess: (payment) => {
      upsertRecentPayment(payment);
      upsertHistoryPayment(payment);
      void queryClient.invalidateQueries({ queryKey: inboxQueryKey });
    },
  });
}
