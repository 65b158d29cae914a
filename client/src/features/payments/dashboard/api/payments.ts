import type { CreatePaymentRequest, InboxItem, Payment } from "@common/payments";
import { queryOptions, useMutation, useQuery } from "@tanstack/react-query";
import { apiRequest } from "@/lib/api-client";
import { queryClient } from "@/lib/query-client";
import { upsertHistoryPayment } from "./get-payment-history";

export const inboxQueryKey = ["/api/merchant/inbox"] as const;

export const inboxQueryOptions = () => queryOptions<{ items: InboxItem[] }>({ queryKey: inboxQueryKey });
export const useInbox = () => useQuery(inboxQueryOptions());

/** POST /api/merchant/payments. */
export async function createPayment(body: CreatePaymentRequest): Promise<Payment> {
  const response = await apiRequest("POST", "/api/merchant/payments", body);
  return (await response.json()) as Payment;
}

export function useCreatePayment() {
  return useMutation({
    mutationFn: createPayment,
    onSuccess: (payment) => {
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
      upsertHistoryPayment(payment);
      void queryClient.invalidateQueries({ queryKey: inboxQueryKey });
    },
  });
}

/** POST /api/merchant/inbox/:id/dismiss: "not a payment" (kept, audited, out of the inbox). */
export async function dismissTransfer(transferId: string): Promise<void> {
  await apiRequest("POST", `/api/merchant/inbox/${transferId}/dismiss`);
}

export function useDismissTransfer() {
  return useMutation({
    mutationFn: dismissTransfer,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: inboxQueryKey }),
  });
}
