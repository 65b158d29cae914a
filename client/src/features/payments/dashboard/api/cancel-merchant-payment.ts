import { useMutation } from "@tanstack/react-query";
import { apiRequest } from "@/lib/api-client";
import { queryClient } from "@/lib/query-client";
import { type PaymentDetail, paymentDetailQueryKey } from "./get-payment-detail";
import { upsertHistoryPayment } from "./get-payment-history";

/**
 * POST /api/merchant/payments/:id/cancel: an open payment that received nothing turns `cancelled` (decision 033);
 * a transfer that comes for it later lands in the inbox. Cancelling it again answers the same payment.
 */
export async function cancelMerchantPayment(id: string): Promise<PaymentDetail> {
  const response = await apiRequest("POST", `/api/merchant/payments/${id}/cancel`);
  return (await response.json()) as PaymentDetail;
}

/** Writes a cancelled payment into the caches that show it (its detail, the history, the "just created" card). */
export function storeCancelledPayment(detail: PaymentDetail) {
  queryClient.setQueryData(paymentDetailQueryKey(detail.id), detail);
  const { timeline: _timeline, transfers: _transfers, ...payment } = detail;
  upsertHistoryPayment(payment);
}

export function useCancelMerchantPayment(id: string) {
  return useMutation({ mutationFn: () => cancelMerchantPayment(id), onSuccess: storeCancelledPayment });
}
