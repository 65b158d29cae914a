import { useMutation } from "@tanstack/react-query";
import { apiRequest } from "@/lib/api-client";
import { queryClient } from "@/lib/query-client";
import { type PaymentDetail, paymentDetailQueryKey } from "./get-payment-detail";
import { upsertHistoryPayment } from "./get-payment-history";

/**
 * POST /api/merchant/payments/:id/tx: the server reads the transaction's receipt itself and credits its
 * transfer of the token to this payment's address (or answers why not).
 */
export async function verifyPaymentTx(id: string, txHash: string): Promise<PaymentDetail> {
  const response = await apiRequest("POST", `/api/merchant/payments/${id}/tx`, { txHash });
  return (await response.json()) as PaymentDetail;
}

export function useVerifyPaymentTx(id: string) {
  return useMutation({
    mutationFn: (txHash: string) => verifyPaymentTx(id, txHash),
    onSuccess: (detail) => {
      queryClient.setQueryData(paymentDetailQueryKey(id), detail);
      const { timeline: _timeline, transfers: _transfers, ...payment } = detail;
      upsertHistoryPayment(payment);
    },
  });
}
